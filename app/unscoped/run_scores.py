"""A run's report sums, added to by the job that stores its results (it knows the run id)."""

from sqlalchemy.orm import Session

from app.db import dialect_insert
from app.models import RunScore


class UnscopedRunScoreRepository:
    """The running sums (`run_score`) jobs add newly stored results to."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def add(
        self, run_id: str, sums: dict[tuple[str, str], tuple[float, int, float, int, int]]
    ) -> None:
        """Add (total, num, total_sq, passed, failed) to a run's running sums per (key, subset)."""
        session = self.session
        if not sums:
            return
        # Sorted, so concurrent jobs lock the shared rows in one order and cannot deadlock.
        rows = [
            {
                "run_id": run_id,
                "key": key,
                "subset": subset,
                "total": total,
                "num": num,
                "total_sq": total_sq,
                "passed": passed,
                "failed": failed,
            }
            for (key, subset), (total, num, total_sq, passed, failed) in sorted(sums.items())
        ]
        statement = dialect_insert(session, RunScore)
        session.execute(
            statement.on_conflict_do_update(
                index_elements=[RunScore.run_id, RunScore.key, RunScore.subset],
                set_={
                    "total": RunScore.total + statement.excluded.total,
                    "num": RunScore.num + statement.excluded.num,
                    "total_sq": RunScore.total_sq + statement.excluded.total_sq,
                    "passed": RunScore.passed + statement.excluded.passed,
                    "failed": RunScore.failed + statement.excluded.failed,
                },
            ).values(rows)
        )
