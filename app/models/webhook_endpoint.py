from datetime import datetime

from sqlalchemy import Boolean, ForeignKey, LargeBinary, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, UTCDateTime, utcnow


class WebhookEndpoint(Base):
    """A tenant's registered receiver; its secret signs every event sent to it."""

    __tablename__ = "webhook_endpoint"
    __table_args__ = (UniqueConstraint("tenant_id", "url"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenant.id", ondelete="CASCADE"))
    url: Mapped[str] = mapped_column(String(2048))
    description: Mapped[str | None] = mapped_column(String(512), nullable=True)
    # Fernet token (app/crypto.py) of `whsec_` + base64 of 32 random bytes, as Standard Webhooks
    # prescribes: whoever reads the database could otherwise sign events as Loupe.
    secret_encrypted: Mapped[bytes] = mapped_column(LargeBinary)
    enabled: Mapped[bool] = mapped_column(Boolean, default=True)
    # The first failed attempt since the last successful one (None: the last attempt succeeded,
    # or none failed yet); LOUPE_WEBHOOK_DISABLE_AFTER_HOURS past it, a failure disables the
    # endpoint. Set by whichever attempt fails first, cleared by any success.
    failing_since: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    # Why the endpoint was turned off (410 Gone, or failing for too long); None while enabled.
    disabled_reason: Mapped[str | None] = mapped_column(String(512), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
