"""All SQL about candidate models, scoped to one tenant."""

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Table, select, union_all

from app.db import Base
from app.models import CandidateModel, Evaluation, OnlineRule
from app.repository import TenantScopedRepository


def _calling_tables() -> list[Table]:
    """The tables of kinds' own rows that name the candidate model they call (a dataset run's,
    an eval run's): keyed by their evaluation's id, with the tenant and a `model_id`. Read from
    the foreign keys, so a kind that calls models tomorrow is counted without a line here."""

    def refers(column: str, table: Table, target: str) -> bool:
        found = table.c.get(column)
        return found is not None and any(
            key.column.table.name == target for key in found.foreign_keys
        )

    return [
        table
        for table in Base.metadata.sorted_tables
        if refers("model_id", table, CandidateModel.__tablename__)
        and refers("id", table, Evaluation.__tablename__)
    ]


def _judges(judge: Any, metrics: Any) -> set[str]:
    """The model ids an online rule's stored judge and metric specs name."""
    named = {(judge or {}).get("model_id")}
    for spec in metrics or []:
        own = spec.get("judge") or {}
        named.add(own.get("model_id"))
        named.update(member.get("model_id") for member in own.get("panel") or [])
    return {model_id for model_id in named if isinstance(model_id, str)}


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
            select(table.c.id)
            .join(Evaluation, Evaluation.id == table.c.id)
            .where(table.c.tenant_id == self.tenant_id, table.c.model_id == model_id, unfinished)
            for table in _calling_tables()
        ]
        return sorted(self.session.scalars(union_all(*statements)))

    def rules_judging(self, model: CandidateModel) -> list[tuple[str, str]]:
        """The tenant's online rules that judge with the model (as the rule's judge, a metric's,
        or a panel member): (id, name), oldest first."""
        model_id = self.owned(model).id
        rows = self.session.execute(
            select(OnlineRule.id, OnlineRule.name, OnlineRule.judge, OnlineRule.metrics)
            .where(OnlineRule.tenant_id == self.tenant_id)
            .order_by(OnlineRule.id)
        )
        return [
            (id_, name) for id_, name, judge, metrics in rows if model_id in _judges(judge, metrics)
        ]

    def delete(self, model: CandidateModel) -> None:
        self.session.delete(model)
        self.session.flush()
