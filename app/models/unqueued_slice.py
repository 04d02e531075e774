from datetime import datetime

from sqlalchemy import ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, UTCDateTime, utcnow


class UnqueuedSlice(Base):
    """A slice of test cases committed for scoring whose job Redis did not take (away past the
    caller's patience, or refusing writes, or the process killed before its enqueue ran: a
    request writes its slices' rows with its cases and deletes them once queued): the ticker
    queues it once Redis takes work again.

    Kept in the database because nothing else remembers it: an open evaluation that keeps
    taking batches keeps a fresh heartbeat, so the stuck-evaluation sweep would not see it.
    """

    __tablename__ = "unqueued_slice"

    evaluation_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("evaluation.id", ondelete="CASCADE"), primary_key=True
    )
    start: Mapped[int] = mapped_column(Integer, primary_key=True)
    stop: Mapped[int] = mapped_column(Integer)
    # A continuation's turn (fair sharing): the job id it is queued under.
    turn: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
