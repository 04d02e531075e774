"""What retention reads and deletes across every tenant: evaluations past
LOUPE_RETENTION_DAYS, open ones left idle that long, and their rows in bounded batches."""

from datetime import datetime

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from app.models import Evaluation, Result, TestCase


class UnscopedRetentionRepository:
    """Unscoped access for the retention sweep, which acts on every tenant's evaluations."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def case_index_bound(self, evaluation_id: str) -> int:
        """One past the highest test-case index the evaluation's test cases and results use
        (0: none); read along their unique indexes."""
        highest = [
            self.session.scalar(
                select(func.max(column)).where(model.evaluation_id == evaluation_id)
            )
            for model, column in ((TestCase, TestCase.index), (Result, Result.test_case_index))
        ]
        return max((value + 1 for value in highest if value is not None), default=0)

    def delete_case_rows(self, evaluation_id: str, start: int, stop: int) -> int:
        """Delete the evaluation's results and test cases whose test-case index is in
        [start, stop); returns how many rows went."""
        deleted = 0
        for model, column in ((Result, Result.test_case_index), (TestCase, TestCase.index)):
            outcome = self.session.execute(
                delete(model).where(
                    model.evaluation_id == evaluation_id, column >= start, column < stop
                )
            )
            deleted += outcome.rowcount  # type: ignore[attr-defined]
        return deleted

    def abandoned(self, cutoff: datetime, limit: int = 100) -> list[str]:
        """Ids of open evaluations (`open: true`, never closed) whose last batch came before
        `cutoff`, of every tenant (the retention sweep)."""
        return list(
            self.session.scalars(
                select(Evaluation.id)
                .where(
                    Evaluation.open.is_(True),
                    Evaluation.status.in_(("queued", "in_progress")),
                    Evaluation.appended_at < cutoff,
                )
                .order_by(Evaluation.appended_at)
                .limit(limit)
            )
        )

    def expired(self, cutoff: datetime, limit: int = 100) -> list[tuple[str, str]]:
        """(id, tenant id) of finished evaluations and runs completed before `cutoff`, of every
        tenant (the retention sweep)."""
        session = self.session
        rows = session.execute(
            select(Evaluation.id, Evaluation.tenant_id)
            .where(
                Evaluation.status.in_(("completed", "failed", "canceled")),
                Evaluation.completed_at < cutoff,
            )
            .order_by(Evaluation.completed_at)
            .limit(limit)
        )
        return [(row[0], row[1]) for row in rows]
