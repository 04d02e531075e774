"""All SQL about eval files, scoped to one tenant."""

from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session, defer

from app.models import EvalFile


class EvalFileRepository:
    def __init__(self, session: Session, tenant_id: str) -> None:
        self.session = session
        self.tenant_id = tenant_id

    def _base(self):  # type: ignore[no-untyped-def]
        return select(EvalFile).where(EvalFile.tenant_id == self.tenant_id)

    def get(self, file_id: str, *, with_content: bool = False) -> EvalFile | None:
        statement = self._base().where(EvalFile.id == file_id)
        if not with_content:
            statement = statement.options(defer(EvalFile.content))
        return self.session.scalars(statement).one_or_none()

    def page(
        self, purpose: str | None, after: str | None, limit: int, newest_first: bool
    ) -> Sequence[EvalFile]:
        """`limit + 1` files in id (creation) order, after the cursor."""
        statement = self._base().options(defer(EvalFile.content))
        if purpose:
            statement = statement.where(EvalFile.purpose == purpose)
        if after:
            statement = statement.where(
                EvalFile.id < after if newest_first else EvalFile.id > after
            )
        order = EvalFile.id.desc() if newest_first else EvalFile.id.asc()
        return self.session.scalars(statement.order_by(order).limit(limit + 1)).all()

    def add(self, file: EvalFile) -> None:
        self.session.add(file)
        self.session.flush()

    def delete(self, file: EvalFile) -> None:
        self.session.delete(file)
        self.session.flush()
