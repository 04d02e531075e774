"""Per-tenant limits an operator sets (`loupe tenants limits`), checked at submit."""

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.models import Evaluation, Tenant
from app.problems import ProblemError

# A submission refused for too many active evaluations may try again after this many seconds.
ACTIVE_RETRY_AFTER_SECONDS = 30


def admit(session: Session, tenant: Tenant) -> None:
    """Raise 429 problem+json when one more evaluation (or run) would exceed a tenant limit."""
    limit = tenant.max_active_evaluations
    if limit is None:
        return
    # The tenant row is locked until the submission commits, so two concurrent submissions
    # cannot both take the last slot (PostgreSQL; SQLite serialises writers anyway).
    session.execute(select(Tenant.id).where(Tenant.id == tenant.id).with_for_update())
    active = session.scalar(
        select(func.count())
        .select_from(Evaluation)
        .where(
            Evaluation.tenant_id == tenant.id,
            Evaluation.status.in_(("queued", "in_progress")),
        )
    )
    if (active or 0) >= limit:
        raise ProblemError(
            429,
            "Too Many Requests",
            f"Tenant limit max_active_evaluations is {limit} and {active} evaluations or runs "
            "are queued or running; submit again when one finishes or is canceled.",
            slug="tenant-limit-exceeded",
            headers={"Retry-After": str(ACTIVE_RETRY_AFTER_SECONDS)},
        )


def set_limits(session: Session, tenant: Tenant, *, max_active_evaluations: int | None) -> None:
    """Set a tenant's limits; None removes one."""
    tenant.max_active_evaluations = max_active_evaluations
    session.flush()
