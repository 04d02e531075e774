from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, JSONType, UTCDateTime, utcnow


class IdempotencyKey(Base):
    """A keyed request: reserved while its first request runs, then that request's response,
    replayed for retries with the same body."""

    __tablename__ = "idempotency_key"
    # The constraint is the lock: of two concurrent requests with one key, one insert wins.
    __table_args__ = (UniqueConstraint("tenant_id", "key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenant.id", ondelete="CASCADE"))
    key: Mapped[str] = mapped_column(String(255))
    # SHA-256 of the canonical JSON of the request body.
    fingerprint: Mapped[str] = mapped_column(String(64))
    # Both NULL while the first request is in progress.
    status_code: Mapped[int | None] = mapped_column(Integer)
    response_body: Mapped[dict[str, Any] | None] = mapped_column(JSONType)
    response_headers: Mapped[dict[str, str]] = mapped_column(JSONType, default=dict)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)
