from datetime import datetime

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, UTCDateTime, utcnow


class ApiKey(Base):
    """An API key, stored only as the SHA-256 of the secret (keys carry 256 random bits)."""

    __tablename__ = "api_key"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenant.id", ondelete="CASCADE"), index=True)
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    # The first characters of the key, so an operator can tell keys apart.
    prefix: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    # Refreshed at most once a minute per key (`loupe keys list`).
    last_used_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
