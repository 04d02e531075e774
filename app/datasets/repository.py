"""All SQL about datasets and their rows, scoped to one tenant."""

from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import delete, func, insert, select, tuple_
from sqlalchemy.orm import Session

from app.media import gc
from app.models import Dataset, DatasetRow, Run


class DatasetRepository:
    def __init__(self, session: Session, tenant_id: str) -> None:
        self.session = session
        self.tenant_id = tenant_id

    def _base(self):  # type: ignore[no-untyped-def]
        return select(Dataset).where(Dataset.tenant_id == self.tenant_id)

    def get(self, dataset_id: str) -> Dataset | None:
        return self.session.scalars(self._base().where(Dataset.id == dataset_id)).one_or_none()

    def page(self, after: str | None, limit: int) -> Sequence[Dataset]:
        statement = self._base().order_by(Dataset.id.desc()).limit(limit + 1)
        if after:
            statement = statement.where(Dataset.id < after)
        return self.session.scalars(statement).all()

    def add(self, dataset: Dataset, rows: list[dict[str, Any]]) -> None:
        self.session.add(dataset)
        self.session.flush()
        for start in range(0, len(rows), 1000):
            self.session.execute(insert(DatasetRow), rows[start : start + 1000])
        gc.record(self.session, dataset.tenant_id, dataset.id, rows, gc.ROW_COLUMNS)

    def rows_page(
        self, dataset: Dataset, subset: str | None, after: int | None, limit: int
    ) -> Sequence[DatasetRow]:
        """Rows in upload order; `limit + 1` so the caller can tell whether more follow."""
        statement = (
            select(DatasetRow)
            .where(DatasetRow.dataset_id == dataset.id)
            .order_by(DatasetRow.id)
            .limit(limit + 1)
        )
        if subset is not None:
            statement = statement.where(DatasetRow.subset == subset)
        if after is not None:
            statement = statement.where(DatasetRow.id > after)
        return self.session.scalars(statement).all()

    def rows_at(
        self, dataset_id: str, positions: Iterable[tuple[str, int]]
    ) -> dict[tuple[str, int], DatasetRow]:
        """The dataset's rows at these (subset, index) positions, by position."""
        wanted = list(positions)
        if not wanted:
            return {}
        found = self.session.scalars(
            select(DatasetRow)
            .join(Dataset, Dataset.id == DatasetRow.dataset_id)
            .where(
                Dataset.tenant_id == self.tenant_id,
                DatasetRow.dataset_id == dataset_id,
                tuple_(DatasetRow.subset, DatasetRow.index).in_(wanted),
            )
        ).all()
        return {(row.subset, row.index): row for row in found}

    def rows(self, dataset: Dataset, subsets: list[str]) -> Sequence[DatasetRow]:
        """Every row of the named subsets, in upload order."""
        return self.session.scalars(
            select(DatasetRow)
            .where(DatasetRow.dataset_id == dataset.id, DatasetRow.subset.in_(subsets))
            .order_by(DatasetRow.id)
        ).all()


def runs_using(session: Session, dataset_id: str) -> int:
    """How many runs read the dataset (a run keeps its dataset)."""
    return (
        session.scalar(select(func.count()).select_from(Run).where(Run.dataset_id == dataset_id))
        or 0
    )


def delete_dataset(session: Session, dataset_id: str) -> None:
    session.execute(delete(DatasetRow).where(DatasetRow.dataset_id == dataset_id))
    session.execute(delete(Dataset).where(Dataset.id == dataset_id))
