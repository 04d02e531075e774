from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, JSONType, UTCDateTime, utcnow


class OnlineConversationCall(Base):
    """A call a conversation rule sampled, held until its conversation (`gen_ai.conversation.id`
    or `session.id`) has been idle LOUPE_ONLINE_CONVERSATION_IDLE_SECONDS; the ticker then makes
    the conversation's calls one test case of the rule's day (app/online/conversations.py)."""

    __tablename__ = "online_conversation_call"
    __table_args__ = (
        Index("ix_online_conversation_call_conversation", "rule_id", "conversation_key"),
        Index("ix_online_conversation_call_trace", "tenant_id", "trace_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenant.id", ondelete="CASCADE"))
    rule_id: Mapped[str] = mapped_column(ForeignKey("online_rule.id", ondelete="CASCADE"))
    # sha256 of the conversation id (any length) and the id as shown (cut to 256 characters).
    conversation_key: Mapped[str] = mapped_column(String(64))
    conversation_id: Mapped[str] = mapped_column(Text)
    trace_id: Mapped[str] = mapped_column(String(32))
    span_id: Mapped[str] = mapped_column(String(16))
    # The span's start (Unix ns; 0 unknown): the calls' order in the conversation.
    start_ns: Mapped[int] = mapped_column(BigInteger, default=0)
    # What the call adds to the conversation (app/online/turns.py `exchange_of`), images as
    # they came (taken in through the media pipeline when the conversation is stored).
    exchange: Mapped[dict[str, Any]] = mapped_column(JSONType)
    received_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)
    # Until when the conversation is not judged for this call: it has no documents and a
    # metric of the rule reads a turn's retrieval_context (its trace's retrieval may come
    # later, LOUPE_OTLP_JOIN_SECONDS); None once one came, or if it waits for none.
    waits_until: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    # When the ticker took the call into a case of its conversation: kept
    # LOUPE_ONLINE_CONVERSATION_KEEP_SECONDS after, so a conversation that resumes is judged
    # whole (its earlier turns in the new case); None while it waits to be judged.
    taken_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True, index=True)
    # The last case the call was judged in, `<evaluation id>:<index>` (a resumed case names it).
    judged_case: Mapped[str | None] = mapped_column(String(80), nullable=True)
