from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, JSONType, UTCDateTime, utcnow


class OtlpPending(Base):
    """A GenAI span waiting for the log records that carry its messages, or records waiting for
    their span (instrumentations send the two in separate requests), for LOUPE_OTLP_JOIN_SECONDS
    at most (app/online/joining.py)."""

    __tablename__ = "otlp_pending"
    __table_args__ = (
        Index("ix_otlp_pending_span", "tenant_id", "span_id"),
        Index("ix_otlp_pending_trace", "tenant_id", "trace_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenant.id", ondelete="CASCADE"))
    trace_id: Mapped[str] = mapped_column(String(32))
    span_id: Mapped[str] = mapped_column(String(16))
    # `span` or `log`; `docs`: a retrieval span, read (not taken) by the later calls of its
    # trace that come in other requests, until it expires; `call`: a model call waiting for
    # the retrieval span of its trace, taken by it.
    what: Mapped[str] = mapped_column(String(8))
    # The span or record as app.otlp.pack made it.
    body: Mapped[dict[str, Any]] = mapped_column(JSONType)
    received_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)
