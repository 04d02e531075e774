from datetime import datetime

from sqlalchemy import ForeignKey, Index, Integer, LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, UTCDateTime, utcnow


class EvalFile(Base):
    """A file uploaded with `purpose=evals`: JSONL rows an eval run reads by `file_id`."""

    __tablename__ = "eval_file"
    __table_args__ = (Index("ix_eval_file_tenant_id_created_at", "tenant_id", "created_at"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenant.id", ondelete="CASCADE"))
    filename: Mapped[str] = mapped_column(String(512))
    purpose: Mapped[str] = mapped_column(String(32))
    bytes: Mapped[int] = mapped_column(Integer)
    # Validated at upload: UTF-8 JSONL whose every line is an object with an `item`.
    content: Mapped[bytes] = mapped_column(LargeBinary)
    line_count: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
