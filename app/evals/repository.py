"""All SQL about evals and eval runs, scoped to one tenant."""

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.models import EvalDefinition, EvalRun, Evaluation, Result, TestCase


def _after(column: Any, cursor: Any, ascending: bool) -> Any:
    return column > cursor if ascending else column < cursor


class EvalRepository:
    def __init__(self, session: Session, tenant_id: str) -> None:
        self.session = session
        self.tenant_id = tenant_id

    def _base(self):  # type: ignore[no-untyped-def]
        return select(EvalDefinition).where(EvalDefinition.tenant_id == self.tenant_id)

    def get(self, eval_id: str) -> EvalDefinition | None:
        return self.session.scalars(self._base().where(EvalDefinition.id == eval_id)).one_or_none()

    def page(
        self, after: str | None, limit: int, ascending: bool, order_by: str
    ) -> Sequence[EvalDefinition] | None:
        """`limit + 1` evals after the eval `after`: in creation (id) order, or in
        (updated_at, id) order. None when ordering by updated_at after an eval that does not
        exist (deleted, say): there is no place to continue from, and starting over would
        repeat the evals already listed."""
        statement = self._base()
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


class EvalRunRepository:
    def __init__(self, session: Session, tenant_id: str) -> None:
        self.session = session
        self.tenant_id = tenant_id

    def _base(self):  # type: ignore[no-untyped-def]
        return (
            select(EvalRun, Evaluation)
            .join(Evaluation, Evaluation.id == EvalRun.id)
            .where(EvalRun.tenant_id == self.tenant_id)
        )

    def get(
        self, eval_id: str, run_id: str, *, for_update: bool = False
    ) -> tuple[EvalRun, Evaluation] | None:
        statement = self._base().where(EvalRun.id == run_id, EvalRun.eval_id == eval_id)
        if for_update:
            statement = statement.with_for_update()
        row = self.session.execute(statement).one_or_none()
        return (row[0], row[1]) if row else None

    def of_eval(self, eval_id: str) -> list[Evaluation]:
        """Every run of the eval, as evaluations, locked for update (to cancel and delete)."""
        statement = (
            self._base().where(EvalRun.eval_id == eval_id).order_by(EvalRun.id).with_for_update()
        )
        return [row[1] for row in self.session.execute(statement).all()]

    def page(
        self, eval_id: str, status: str | None, after: str | None, limit: int, ascending: bool
    ) -> list[tuple[EvalRun, Evaluation]]:
        """`limit + 1` runs in creation (id) order after the run `after`."""
        statement = self._base().where(EvalRun.eval_id == eval_id)
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


def grades(session: Session, run_id: str) -> Sequence[Any]:
    """(test case index, criterion index, passed, errored) of every stored result."""
    return session.execute(
        select(
            Result.test_case_index,
            Result.metric_index,
            Result.passed,
            Result.error.is_not(None),
        ).where(Result.evaluation_id == run_id)
    ).all()


def item_page(
    session: Session, run_id: str, indexes: list[int]
) -> tuple[Sequence[TestCase], Sequence[Result]]:
    """The test cases at `indexes` and their results, in index then criterion order."""
    if not indexes:
        return [], []
    cases = session.scalars(
        select(TestCase)
        .where(TestCase.evaluation_id == run_id, TestCase.index.in_(indexes))
        .order_by(TestCase.index)
    ).all()
    results = session.scalars(
        select(Result)
        .where(Result.evaluation_id == run_id, Result.test_case_index.in_(indexes))
        .order_by(Result.test_case_index, Result.metric_index)
    ).all()
    return cases, results


def last_graded(session: Session, run_id: str) -> datetime | None:
    return session.scalar(select(func.max(Result.created_at)).where(Result.evaluation_id == run_id))
