from datetime import datetime

from sqlalchemy import ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, UTCDateTime, utcnow


class WebhookEvent(Base):
    """One event owed to one endpoint: an outbox row, retried until delivered or given up."""

    __tablename__ = "webhook_event"
    __table_args__ = (
        Index("ix_webhook_event_status_next_attempt_at", "status", "next_attempt_at"),
    )

    # Sent as `webhook-id`; the same on every retry so receivers can de-duplicate.
    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenant.id", ondelete="CASCADE"))
    endpoint_id: Mapped[str] = mapped_column(ForeignKey("webhook_endpoint.id", ondelete="CASCADE"))
    type: Mapped[str] = mapped_column(String(64))
    # The exact bytes that are signed and sent.
    payload: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16), default="pending")
    attempt_count: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    delivered_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
