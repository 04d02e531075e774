from datetime import datetime
from typing import Any

from sqlalchemy import String, Text
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, JSONType, UTCDateTime, utcnow


class JudgeCacheEntry(Base):
    """A judge's answer to one exact request, reused for identical requests in its scope.

    The scope is the tenant (no tenant learns what another evaluated), or one evaluation when
    that evaluation turned the cache off (its shared steps and truths are still reused).
    """

    __tablename__ = "judge_cache_entry"

    scope: Mapped[str] = mapped_column(String(80), primary_key=True)
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    content: Mapped[str] = mapped_column(Text)
    logprobs: Mapped[list[dict[str, Any]] | None] = mapped_column(JSONType, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
