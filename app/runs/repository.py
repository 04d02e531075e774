"""All SQL about runs, scoped to one tenant (the evaluation tables hold their samples).

A run's report sums, results and samples are read through the run, checked to be the
tenant's; jobs add to the sums through `app/unscoped/run_scores.py`."""

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select

from app.evaluations.repository import completed_with_errored_results
from app.models import CandidateModel, Dataset, Evaluation, Result, Run, RunScore, TestCase
from app.repository import TenantScopedRepository


class RunRepository(TenantScopedRepository[Run]):
    model = Run

    def get_base_statement(self):  # type: ignore[no-untyped-def]
        # A run is read with its evaluation (status, counts, metrics).
        return (
            select(Run, Evaluation)
            .join(Evaluation, Evaluation.id == Run.id)
            .where(Run.tenant_id == self.tenant_id)
        )

    def get(self, run_id: str) -> tuple[Run, Evaluation] | None:
        row = self.session.execute(self.get_base_statement().where(Run.id == run_id)).one_or_none()
        return (row[0], row[1]) if row else None

    def page(
        self, after: str | None, limit: int, *, completed_with_errors: bool | None = None
    ) -> list[tuple[Run, Evaluation]]:
        """Newest first, `limit + 1` rows; `completed_with_errors`: only runs whose flag is it."""
        statement = self.get_base_statement().order_by(Run.id.desc()).limit(limit + 1)
        if after:
            statement = statement.where(Run.id < after)
        if completed_with_errors is not None:
            errored = completed_with_errored_results()
            statement = statement.where(errored if completed_with_errors else ~errored)
        return [(row[0], row[1]) for row in self.session.execute(statement)]

    def model_and_dataset_names(self, run_ids: Sequence[str]) -> dict[str, tuple[str, str]]:
        """What each run (by id) answered with and what it ran over: its candidate model's name
        (`given predictions`, or `a deleted model`), its dataset's name."""
        if not run_ids:
            return {}
        statement = (
            select(Run.id, Run.options, CandidateModel.name, CandidateModel.model, Dataset.name)
            .join(Dataset, (Dataset.id == Run.dataset_id) & (Dataset.tenant_id == self.tenant_id))
            .outerjoin(
                CandidateModel,
                (CandidateModel.id == Run.model_id) & (CandidateModel.tenant_id == self.tenant_id),
            )
            .where(Run.tenant_id == self.tenant_id, Run.id.in_(run_ids))
        )
        named = {}
        for run_id, options, model_name, model, dataset in self.session.execute(statement):
            if not (options or {}).get("uses_model"):
                answered = "given predictions"
            else:
                answered = model_name or model or "a deleted model"
            named[run_id] = (answered, dataset)
        return named

    def add(self, run: Run) -> None:
        self.session.add(run)
        self.session.flush()

    def scores(self, run: Run) -> list[tuple[str, str, float, int, float, int, int]]:
        """(key, subset, total, num, total_sq, passed, failed) of every running sum the run has."""
        session, run_id = self.session, self.owned(run).id
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

    def scored_logs(self, run: Run) -> list[tuple[dict[str, Any], dict[str, Any]]]:
        """(result row fields, test-case metadata) of every stored result: for clustered errors."""
        session, run_id = self.session, self.owned(run).id
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
        self, run: Run, after: int | None, limit: int
    ) -> tuple[Sequence[TestCase], Sequence[Result]]:
        """Test cases after index `after` (`limit + 1` of them) and their results."""
        session, run_id = self.session, self.owned(run).id
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
