from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, JSONType, UTCDateTime, utcnow


class Dataset(Base):
    """An uploaded benchmark file (or archive); each data file in it is a subset."""

    __tablename__ = "dataset"
    __table_args__ = (Index("ix_dataset_tenant_id_id", "tenant_id", "id"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenant.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(256))
    format: Mapped[str] = mapped_column(String(32))
    filename: Mapped[str] = mapped_column(String(512))
    # [{name, file, rows, warnings}] in upload order.
    subsets: Mapped[list[dict[str, Any]]] = mapped_column(JSONType)
    row_count: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
