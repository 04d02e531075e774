from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base


class BlobOwner(Base):
    """A tenant whose rows reference a blob: blobs are shared by content across tenants, so
    `GET /v1/media/{sha256}` answers a tenant only for the blobs its own rows name."""

    __tablename__ = "blob_owner"

    tenant_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("tenant.id", ondelete="CASCADE"), primary_key=True
    )
    sha256: Mapped[str] = mapped_column(
        String(64), ForeignKey("blob.sha256", ondelete="CASCADE"), primary_key=True
    )
