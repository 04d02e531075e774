"""All SQL about evals and eval runs, scoped to one tenant."""

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select

from app.models import EvalDefinition, EvalRun, Evaluation, Result, TestCase
from app.repository import TenantScopedRepository


def _after(column: Any, cursor: Any, ascending: bool) -> Any:
    return column > cursor if ascending else column < cursor


class EvalRepository(TenantScopedRepository[EvalDefinition]):
    model = EvalDefinition

    def get(self, eval_id: str) -> EvalDefinition | None:
        return self.get_by_id(eval_id)

    def page(
        self, after: str | None, limit: int, ascending: bool, order_by: str
    ) -> Sequence[EvalDefinition] | None:
        """`limit + 1` evals after the eval `after`: in creation (id) order, or in
        (updated_at, id) order. None when ordering by updated_at after an eval that does not
        exist (deleted, say): there is no place to continue from, and starting over would
        repeat the evals already listed."""
        statement = self.get_base_statement()
        if order_by == "updated_at":
            column = EvalDefinition.updated_at
            if after:
                cursor = self.session.scalar(
                    select(column).where(
                        EvalDefinition.id == after, EvalDefinition.tenant_id == self.tenant_id
                    )
                )
                if cursor is None:
                    return None
                statement = statement.where(
                    _after(column, cursor, ascending)
                    | ((column == cursor) & _after(EvalDefinition.id, after, ascending))
                )
            order = (
                (column.asc(), EvalDefinition.id.asc())
                if ascending
                else (
                    column.desc(),
                    EvalDefinition.id.desc(),
                )
            )
        else:
            # Ids sort by creation time (app/ids.py): a cursor needs no lookup, as for runs
            # and files, and one that names no eval (any more) still has its place.
            if after:
                statement = statement.where(_after(EvalDefinition.id, after, ascending))
            order = (EvalDefinition.id.asc() if ascending else EvalDefinition.id.desc(),)
        return self.session.scalars(statement.order_by(*order).limit(limit + 1)).all()

    def add(self, definition: EvalDefinition) -> None:
        self.session.add(definition)
        self.session.flush()

    def delete(self, definition: EvalDefinition) -> None:
        """The eval itself; its runs are deleted first, as evaluations."""
        self.session.delete(definition)
        self.session.flush()


class EvalRunRepository(TenantScopedRepository[EvalRun]):
    """One tenant's eval runs, each with its evaluation; their results through the run."""

    model = EvalRun

    def get_base_statement(self):  # type: ignore[no-untyped-def]
        return (
            select(EvalRun, Evaluation)
            .join(Evaluation, Evaluation.id == EvalRun.id)
            .where(EvalRun.tenant_id == self.tenant_id)
        )

    def get(
        self, eval_id: str, run_id: str, *, for_update: bool = False
    ) -> tuple[EvalRun, Evaluation] | None:
        statement = self.get_base_statement().where(
            EvalRun.id == run_id, EvalRun.eval_id == eval_id
        )
        if for_update:
            statement = statement.with_for_update()
        row = self.session.execute(statement).one_or_none()
        return (row[0], row[1]) if row else None

    def run(self, run_id: str) -> EvalRun | None:
        """The tenant's eval run by its id alone (its evaluation's id), whatever its eval."""
        row = self.session.execute(
            self.get_base_statement().where(EvalRun.id == run_id)
        ).one_or_none()
        return row[0] if row else None

    def of_eval(self, eval_id: str) -> list[Evaluation]:
        """Every run of the eval, as evaluations, locked for update (to cancel and delete)."""
        statement = (
            self.get_base_statement()
            .where(EvalRun.eval_id == eval_id)
            .order_by(EvalRun.id)
            .with_for_update()
        )
        return [row[1] for row in self.session.execute(statement).all()]

    def page(
        self, eval_id: str, status: str | None, after: str | None, limit: int, ascending: bool
    ) -> list[tuple[EvalRun, Evaluation]]:
        """`limit + 1` runs in creation (id) order after the run `after`."""
        statement = self.get_base_statement().where(EvalRun.eval_id == eval_id)
        if status:
            statement = statement.where(Evaluation.status == status)
        if after:
            statement = statement.where(_after(EvalRun.id, after, ascending))
        order = EvalRun.id.asc() if ascending else EvalRun.id.desc()
        rows = self.session.execute(statement.order_by(order).limit(limit + 1)).all()
        return [(row[0], row[1]) for row in rows]

    def add(self, run: EvalRun) -> None:
        self.session.add(run)
        self.session.flush()

    def grades(self, evaluation: Evaluation) -> Sequence[Any]:
        """(test case index, criterion index, passed, errored) of every stored result of the
        run whose evaluation this is."""
        return self.session.execute(
            select(
                Result.test_case_index,
                Result.metric_index,
                Result.passed,
                Result.error.is_not(None),
            ).where(Result.evaluation_id == self.owned(evaluation).id)
        ).all()

    def result_models(self, evaluation: Evaluation, metric_indexes: list[int]) -> dict[int, str]:
        """The model the stored results of each of these criteria called (one per criterion:
        a `cosine` grader's embedding model)."""
        rows = self.session.execute(
            select(Result.metric_index, Result.judge_model)
            .where(
                Result.evaluation_id == self.owned(evaluation).id,
                Result.metric_index.in_(metric_indexes),
                Result.judge_model.is_not(None),
            )
            .distinct()
        )
        return {index: model for index, model in rows}

    def item_page(
        self, run: EvalRun, indexes: list[int]
    ) -> tuple[Sequence[TestCase], Sequence[Result]]:
        """The run's test cases at `indexes` and their results, in index then criterion order."""
        run_id = self.owned(run).id
        if not indexes:
            return [], []
        cases = self.session.scalars(
            select(TestCase)
            .where(TestCase.evaluation_id == run_id, TestCase.index.in_(indexes))
            .order_by(TestCase.index)
        ).all()
        results = self.session.scalars(
            select(Result)
            .where(Result.evaluation_id == run_id, Result.test_case_index.in_(indexes))
            .order_by(Result.test_case_index, Result.metric_index)
        ).all()
        return cases, results
