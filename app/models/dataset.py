from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, JSONType, UTCDateTime, utcnow


class Dataset(Base):
    """An uploaded benchmark file (or archive); each data file in it is a subset."""

    __tablename__ = "dataset"
    __table_args__ = (Index("ix_dataset_tenant_id_id", "tenant_id", "id"),)
    # Server defaults are not read back after an insert (RETURNING): uploads set stored_bytes,
    # and rows inserted at revisions before it (migration tests) must not name the column.
    __mapper_args__ = {"eager_defaults": False}

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenant.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(256))
    format: Mapped[str] = mapped_column(String(32))
    filename: Mapped[str] = mapped_column(String(512))
    # [{name, file, rows, warnings}] in upload order.
    subsets: Mapped[list[dict[str, Any]]] = mapped_column(JSONType)
    row_count: Mapped[int] = mapped_column(Integer)
    # The rows' JSON and text in bytes, counted against the tenant's storage quota.
    stored_bytes: Mapped[int] = mapped_column(BigInteger, server_default="0")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
