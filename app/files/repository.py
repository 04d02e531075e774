"""All SQL about eval files, scoped to one tenant."""

from collections.abc import Sequence

from sqlalchemy.orm import defer

from app.models import EvalFile
from app.repository import TenantScopedRepository


class EvalFileRepository(TenantScopedRepository[EvalFile]):
    model = EvalFile

    def get(self, file_id: str, *, with_content: bool = False) -> EvalFile | None:
        statement = self.get_base_statement().where(EvalFile.id == file_id)
        if not with_content:
            statement = statement.options(defer(EvalFile.content))
        return self.session.scalars(statement).one_or_none()

    def page(
        self, purpose: str | None, after: str | None, limit: int, newest_first: bool
    ) -> Sequence[EvalFile]:
        """`limit + 1` files in id (creation) order, after the cursor."""
        statement = self.get_base_statement().options(defer(EvalFile.content))
        if purpose:
            statement = statement.where(EvalFile.purpose == purpose)
        return self.keyset_page(
            statement, EvalFile.id, after or None, limit, descending=newest_first
        )

    def add(self, file: EvalFile) -> None:
        self.session.add(file)
        self.session.flush()

    def delete(self, file: EvalFile) -> None:
        self.session.delete(file)
        self.session.flush()
