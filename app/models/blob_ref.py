from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base


class BlobRef(Base):
    """An evaluation (or run) or a dataset whose rows name a blob, written with the rows: what
    deletion's garbage collection looks up, instead of searching every row's content."""

    __tablename__ = "blob_ref"
    __table_args__ = (Index("ix_blob_ref_holder_id", "holder_id"),)

    sha256: Mapped[str] = mapped_column(String(64), primary_key=True)
    # The evaluation's or the dataset's id (their prefixes tell them apart).
    holder_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(String(40), ForeignKey("tenant.id", ondelete="CASCADE"))
