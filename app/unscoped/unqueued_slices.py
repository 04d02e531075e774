"""Slices whose scoring job Redis has not taken: written with the cases they score (forgotten
once the job is queued) or where an enqueue failed, queued again by the ticker
(`app/evaluations/unqueued.py`)."""

from collections.abc import Sequence

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from app.db import dialect_insert, utcnow
from app.models import Evaluation, UnqueuedSlice


class UnscopedUnqueuedSliceRepository:
    """Every tenant's unqueued slices, by evaluation id (the ticker acts on all of them)."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def add(self, evaluation_id: str, slices: Sequence[tuple[int, int, int]]) -> None:
        """Record these (start, stop, turn) slices; one recorded already stays as it is."""
        if not slices:
            return
        now = utcnow()
        rows = [
            {
                "evaluation_id": evaluation_id,
                "start": start,
                "stop": stop,
                "turn": turn,
                "created_at": now,
            }
            for start, stop, turn in slices
        ]
        insert = dialect_insert(self.session, UnqueuedSlice).on_conflict_do_nothing()
        self.session.execute(insert, rows)

    def oldest(self, limit: int) -> list[tuple[str, int, int, int, str, str]]:
        """Up to `limit` recorded slices, oldest first: (evaluation id, start, stop, turn, its
        tenant id, its status) each."""
        rows = self.session.execute(
            select(
                UnqueuedSlice.evaluation_id,
                UnqueuedSlice.start,
                UnqueuedSlice.stop,
                UnqueuedSlice.turn,
                Evaluation.tenant_id,
                Evaluation.status,
            )
            .join(Evaluation, Evaluation.id == UnqueuedSlice.evaluation_id)
            .order_by(UnqueuedSlice.created_at)
            .limit(limit)
        ).all()
        return [tuple(row) for row in rows]  # type: ignore[misc]

    def remove(self, evaluation_id: str, *starts: int) -> None:
        """Forget these slices of the evaluation (one statement however many)."""
        self.session.execute(
            delete(UnqueuedSlice).where(
                UnqueuedSlice.evaluation_id == evaluation_id, UnqueuedSlice.start.in_(starts)
            )
        )
