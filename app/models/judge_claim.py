from datetime import datetime

from sqlalchemy import String
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, UTCDateTime, utcnow


class JudgeClaim(Base):
    """A job making a shared judge answer (G-Eval steps, truths) that others wait for.

    Kept next to the cache entry it becomes: the holder stores the entry and deletes the claim
    in one transaction. A claim not refreshed for `LOUPE_JUDGE_CLAIM_STALE_SECONDS` belongs to
    a crashed job, and the next job asking takes it over.
    """

    __tablename__ = "judge_claim"

    scope: Mapped[str] = mapped_column(String(80), primary_key=True)
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    holder: Mapped[str] = mapped_column(String(40))
    claimed_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
