"""All SQL about one tenant's evaluations, their test cases and results.

`EvaluationRepository` is made for one tenant: every statement starts from its base statement,
and test cases, results and summaries are read through an evaluation it checks is the
tenant's (`results.py`, `test_cases.py`, `summaries.py`). Jobs, which act on ids, read
through `app/unscoped/evaluation_jobs.py`.
"""

from collections.abc import Sequence
from typing import Any

from sqlalchemy import and_, delete, func, insert, select, update
from sqlalchemy.orm import Session

from app.evaluations.repository.results import HISTOGRAM_BINS, ResultReads
from app.evaluations.repository.summaries import SummaryReads
from app.evaluations.repository.test_cases import TestCaseReads
from app.ids import new_id
from app.media import gc
from app.models import (
    Evaluation,
    JudgeCacheEntry,
    JudgeClaim,
    MetricSummary,
    Result,
    TestCase,
)

# The time-sortable tail of every id (app/ids.py): what follows `<prefix>_`.
_ID_TAIL = len(new_id("x")) - len("x_")


__all__ = ["HISTOGRAM_BINS", "EvaluationRepository", "completed_with_errored_results"]


class EvaluationRepository(ResultReads, TestCaseReads, SummaryReads):
    """One tenant's evaluations, and through them their test cases, results and summaries."""

    model = Evaluation

    def __init__(
        self, session: Session, tenant_id: str, kinds: tuple[str, ...] = ("evaluation",)
    ) -> None:
        super().__init__(session, tenant_id)
        self.kinds = kinds

    def get_base_statement(self):  # type: ignore[no-untyped-def]
        # Runs (app/runs) are evaluations underneath, listed and read through their own API;
        # `kinds` lets a reader that shows them as evaluations (the console) see them too.
        # Child reads check only the tenant: a run's results are read like an evaluation's.
        return super().get_base_statement().where(Evaluation.kind.in_(self.kinds))

    def get(self, evaluation_id: str, *, for_update: bool = False) -> Evaluation | None:
        statement = self.get_base_statement().where(Evaluation.id == evaluation_id)
        if for_update:
            statement = statement.with_for_update()
        return self.session.scalars(statement).one_or_none()

    def page(
        self,
        after: str | None,
        limit: int,
        *,
        status: str | None = None,
        name: str | None = None,
        completed_with_errors: bool | None = None,
    ) -> Sequence[Evaluation]:
        """Newest first; `limit + 1` rows so the caller can tell whether more follow.

        Args:
            status: only evaluations in this status.
            completed_with_errors: only those whose `completed_with_errors` is this.
            name: only evaluations whose name contains this text (any case).
        """
        key: Any = Evaluation.id
        if len(self.kinds) > 1:
            # Kinds' ids have different prefixes (eval_, evalrun_), so sort by the part after
            # the prefix (time, then random bits; the same length in every id).
            key = func.substr(Evaluation.id, func.length(Evaluation.id) - (_ID_TAIL - 1))
            after = after[-_ID_TAIL:] if after else after
        statement = self.get_base_statement().order_by(key.desc()).limit(limit + 1)
        if after:
            statement = statement.where(key < after)
        if status:
            statement = statement.where(Evaluation.status == status)
        if completed_with_errors is not None:
            errored = completed_with_errored_results()
            statement = statement.where(errored if completed_with_errors else ~errored)
        if name:
            pattern = "%" + name.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
            statement = statement.where(Evaluation.name.ilike(pattern, escape="\\"))
        return self.session.scalars(statement).all()

    def add(self, evaluation: Evaluation, test_cases: list[dict[str, Any]]) -> None:
        self.session.add(self.owned(evaluation))
        self.session.flush()
        # Core insert in chunks: ORM objects for 10,000 cases cost several times the memory.
        for start in range(0, len(test_cases), 1000):
            self.session.execute(insert(TestCase), test_cases[start : start + 1000])
        gc.record(self.session, evaluation.tenant_id, evaluation.id, test_cases, gc.CASE_COLUMNS)

    def take_indices(self, evaluation: Evaluation, count: int) -> int:
        """Reserve the next `count` test-case indices of a stored evaluation in one atomic
        UPDATE ... RETURNING (safe between concurrent writers on SQLite and PostgreSQL, whatever
        each read before); the first of them."""
        stop = self.session.scalar(
            update(Evaluation)
            .where(Evaluation.id == self.owned(evaluation).id)
            .values(total_test_cases=Evaluation.total_test_cases + count)
            .returning(Evaluation.total_test_cases)
            .execution_options(synchronize_session=False)
        )
        if stop is None:
            raise LookupError(f"evaluation {evaluation.id} is not stored")
        return int(stop) - count

    def add_cases(self, evaluation: Evaluation, test_cases: list[dict[str, Any]]) -> None:
        """More test cases for an evaluation already stored (an open one, app/evaluations/
        appending.py), and the refs of the images they name."""
        self.owned(evaluation)
        for start in range(0, len(test_cases), 1000):
            self.session.execute(insert(TestCase), test_cases[start : start + 1000])
        gc.record(self.session, evaluation.tenant_id, evaluation.id, test_cases, gc.CASE_COLUMNS)

    def delete(self, evaluation: Evaluation) -> None:
        """Remove an evaluation (or run) and every row of it; a run's rows go by cascade. Its
        usage days stay: its calls were billed (app/models/usage_day.py)."""
        evaluation_id = self.owned(evaluation).id
        scope = f"eval:{evaluation_id}"
        for statement in (
            delete(JudgeCacheEntry).where(JudgeCacheEntry.scope == scope),
            delete(JudgeClaim).where(JudgeClaim.scope == scope),
            delete(Result).where(Result.evaluation_id == evaluation_id),
            delete(MetricSummary).where(MetricSummary.evaluation_id == evaluation_id),
            delete(TestCase).where(TestCase.evaluation_id == evaluation_id),
            delete(Evaluation).where(Evaluation.id == evaluation_id),
        ):
            self.session.execute(statement)


def completed_with_errored_results() -> Any:
    """SQL for what the read model calls `completed_with_errors`: completed, and some result
    errored (the metric summaries' running counts; no result rows are read)."""
    errored = (
        select(MetricSummary.evaluation_id)
        .where(MetricSummary.evaluation_id == Evaluation.id, MetricSummary.errored > 0)
        .exists()
    )
    return and_(Evaluation.status == "completed", errored)
