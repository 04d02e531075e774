"""All SQL about candidate models, scoped to one tenant."""

from collections.abc import Sequence

from sqlalchemy import select, union_all

from app.models import CandidateModel, EvalRun, Evaluation, Run
from app.repository import TenantScopedRepository


class CandidateModelRepository(TenantScopedRepository[CandidateModel]):
    model = CandidateModel

    def get(self, model_id: str) -> CandidateModel | None:
        return self.get_by_id(model_id)

    def by_model_name(self, model: str) -> CandidateModel | None:
        """The newest model registered under this `model` name (OpenAI Evals names models)."""
        return self.session.scalars(
            self.get_base_statement()
            .where(CandidateModel.model == model)
            .order_by(CandidateModel.id.desc())
        ).first()

    def page(self, after: str | None, limit: int) -> Sequence[CandidateModel]:
        return self.keyset_page(
            self.get_base_statement(), CandidateModel.id, after or None, limit, descending=True
        )

    def add(self, model: CandidateModel) -> None:
        self.session.add(model)
        self.session.flush()

    def calling(self, model: CandidateModel) -> list[str]:
        """Ids of the queued or running runs and eval runs that call the model, oldest first."""
        model_id = self.owned(model).id
        unfinished = Evaluation.status.in_(("queued", "in_progress"))
        statements = [
            select(table.id)
            .join(Evaluation, Evaluation.id == table.id)
            .where(table.tenant_id == self.tenant_id, table.model_id == model_id, unfinished)
            for table in (Run, EvalRun)
        ]
        return sorted(self.session.scalars(union_all(*statements)))

    def delete(self, model: CandidateModel) -> None:
        self.session.delete(model)
        self.session.flush()
