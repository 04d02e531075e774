"""All SQL about candidate models, scoped to one tenant."""

from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import CandidateModel


class CandidateModelRepository:
    def __init__(self, session: Session, tenant_id: str) -> None:
        self.session = session
        self.tenant_id = tenant_id

    def _base(self):  # type: ignore[no-untyped-def]
        return select(CandidateModel).where(CandidateModel.tenant_id == self.tenant_id)

    def get(self, model_id: str) -> CandidateModel | None:
        return self.session.scalars(self._base().where(CandidateModel.id == model_id)).one_or_none()

    def by_model_name(self, model: str) -> CandidateModel | None:
        """The newest model registered under this `model` name (OpenAI Evals names models)."""
        return self.session.scalars(
            self._base().where(CandidateModel.model == model).order_by(CandidateModel.id.desc())
        ).first()

    def page(self, after: str | None, limit: int) -> Sequence[CandidateModel]:
        statement = self._base().order_by(CandidateModel.id.desc()).limit(limit + 1)
        if after:
            statement = statement.where(CandidateModel.id < after)
        return self.session.scalars(statement).all()

    def add(self, model: CandidateModel) -> None:
        self.session.add(model)
        self.session.flush()

    def delete(self, model: CandidateModel) -> None:
        self.session.delete(model)
        self.session.flush()
