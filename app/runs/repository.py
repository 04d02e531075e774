"""All SQL about runs, scoped to one tenant (the evaluation tables hold their samples)."""

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db import dialect_insert
from app.evaluations.repository import completed_with_errored_results
from app.models import Evaluation, Result, Run, RunScore, TestCase


class RunRepository:
    def __init__(self, session: Session, tenant_id: str) -> None:
        self.session = session
        self.tenant_id = tenant_id

    def _base(self):  # type: ignore[no-untyped-def]
        return (
            select(Run, Evaluation)
            .join(Evaluation, Evaluation.id == Run.id)
            .where(Run.tenant_id == self.tenant_id)
        )

    def get(self, run_id: str) -> tuple[Run, Evaluation] | None:
        row = self.session.execute(self._base().where(Run.id == run_id)).one_or_none()
        return (row[0], row[1]) if row else None

    def page(
        self, after: str | None, limit: int, *, completed_with_errors: bool | None = None
    ) -> list[tuple[Run, Evaluation]]:
        """Newest first, `limit + 1` rows; `completed_with_errors`: only runs whose flag is it."""
        statement = self._base().order_by(Run.id.desc()).limit(limit + 1)
        if after:
            statement = statement.where(Run.id < after)
        if completed_with_errors is not None:
            errored = completed_with_errored_results()
            statement = statement.where(errored if completed_with_errors else ~errored)
        return [(row[0], row[1]) for row in self.session.execute(statement)]

    def add(self, run: Run) -> None:
        self.session.add(run)
        self.session.flush()


def add_scores(
    session: Session, run_id: str, sums: dict[tuple[str, str], tuple[float, int, float, int, int]]
) -> None:
    """Add (total, num, total_sq, passed, failed) to the run's running sums per (key, subset)."""
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


def scores(session: Session, run_id: str) -> list[tuple[str, str, float, int, float, int, int]]:
    """(key, subset, total, num, total_sq, passed, failed) of every running sum the run has."""
    rows = session.execute(
        select(
            RunScore.key,
            RunScore.subset,
            RunScore.total,
            RunScore.num,
            RunScore.total_sq,
            RunScore.passed,
            RunScore.failed,
        ).where(RunScore.run_id == run_id)
    )
    return [tuple(row) for row in rows]  # type: ignore[misc]


def scored_logs(session: Session, run_id: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(result row fields, test-case metadata) of every stored result: for clustered errors."""
    metadata = dict(
        session.execute(
            select(TestCase.index, TestCase.metadata_).where(TestCase.evaluation_id == run_id)
        ).all()
    )
    rows = session.execute(
        select(
            Result.test_case_index,
            Result.test_case_id,
            Result.metric,
            Result.type,
            Result.score,
            Result.error,
            Result.logs,
        ).where(Result.evaluation_id == run_id)
    )
    return [
        (
            {
                "test_case_id": case_id,
                "metric": metric,
                "type": type_,
                "score": score,
                "error": error,
                "logs": logs,
            },
            metadata.get(index) or {},
        )
        for index, case_id, metric, type_, score, error, logs in rows
    ]


def sample_page(
    session: Session, run_id: str, after: int | None, limit: int
) -> tuple[Sequence[TestCase], Sequence[Result]]:
    """Test cases after index `after` (`limit + 1` of them) and their results."""
    statement = select(TestCase).where(TestCase.evaluation_id == run_id)
    if after is not None:
        statement = statement.where(TestCase.index > after)
    cases = session.scalars(statement.order_by(TestCase.index).limit(limit + 1)).all()
    if not cases:
        return cases, []
    results = session.scalars(
        select(Result)
        .where(
            Result.evaluation_id == run_id,
            Result.test_case_index >= cases[0].index,
            Result.test_case_index <= cases[min(limit, len(cases)) - 1].index,
        )
        .order_by(Result.test_case_index, Result.metric_index)
    ).all()
    return cases, results
