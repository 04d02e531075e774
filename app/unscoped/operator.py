"""The operator's reads across every tenant (the console's Operator page): active jobs and
members per tenant. No tenant is the caller's here: an operator sees them all."""

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.models import Evaluation, Membership

# Evaluations and runs (every kind) waiting for or held by a worker.
ACTIVE = ("queued", "in_progress")


class UnscopedOperatorRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def active_jobs(self) -> dict[str, int]:
        """Tenant id -> how many of its evaluations and runs are queued or running."""
        rows = self.session.execute(
            select(Evaluation.tenant_id, func.count())
            .where(Evaluation.status.in_(ACTIVE))
            .group_by(Evaluation.tenant_id)
        ).all()
        return {tenant_id: count for tenant_id, count in rows}

    def member_counts(self) -> dict[str, int]:
        """Tenant id -> how many people are in the team."""
        rows = self.session.execute(
            select(Membership.tenant_id, func.count()).group_by(Membership.tenant_id)
        ).all()
        return {tenant_id: count for tenant_id, count in rows}
