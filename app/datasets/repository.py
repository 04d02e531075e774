"""All SQL about datasets and their rows, scoped to one tenant."""

from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import delete, func, insert, select, tuple_

from app.media import gc
from app.models import Dataset, DatasetRow, Run
from app.repository import TenantScopedRepository


class DatasetRepository(TenantScopedRepository[Dataset]):
    """One tenant's datasets, and their rows through the dataset."""

    model = Dataset

    def get(self, dataset_id: str) -> Dataset | None:
        return self.get_by_id(dataset_id)

    def page(self, after: str | None, limit: int) -> Sequence[Dataset]:
        """Newest first; `limit + 1` rows so the caller can tell whether more follow."""
        return self.keyset_page(
            self.get_base_statement(), Dataset.id, after or None, limit, descending=True
        )

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
            .where(DatasetRow.dataset_id == self.owned(dataset).id)
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
            .where(DatasetRow.dataset_id == self.owned(dataset).id, DatasetRow.subset.in_(subsets))
            .order_by(DatasetRow.id)
        ).all()

    def runs_using(self, dataset: Dataset) -> int:
        """How many runs read the dataset (a run keeps its dataset)."""
        statement = (
            select(func.count())
            .select_from(Run)
            .where(Run.tenant_id == self.tenant_id, Run.dataset_id == self.owned(dataset).id)
        )
        return self.session.scalar(statement) or 0

    def delete(self, dataset: Dataset) -> None:
        """The dataset and its rows (runs using it are refused first, by the service)."""
        dataset_id = self.owned(dataset).id
        self.session.execute(delete(DatasetRow).where(DatasetRow.dataset_id == dataset_id))
        self.session.execute(delete(Dataset).where(Dataset.id == dataset_id))
