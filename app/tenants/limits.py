"""Per-tenant limits an operator sets (`loupe tenants limits`), checked at submit."""

from datetime import UTC, datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.db import utcnow
from app.models import Evaluation, Tenant
from app.problems import ProblemError
from app.usage.service import midnight, spent_today

# A submission refused for too many active evaluations may try again after this many seconds.
ACTIVE_RETRY_AFTER_SECONDS = 30


def admit(session: Session, tenant: Tenant) -> None:
    """Raise 429 problem+json when one more evaluation (or run) would exceed a tenant limit."""
    admit_spend(session, tenant)
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


def seconds_to_midnight(now: datetime) -> int:
    """Whole seconds until the next UTC midnight (at least 1), when a daily budget renews."""
    tomorrow = midnight(now.astimezone(UTC).date() + timedelta(days=1))
    return max(1, int((tomorrow - now).total_seconds() + 0.999))


def admit_spend(session: Session, tenant: Tenant) -> None:
    """Raise 429 when the tenant's priced spend today (UTC) has reached its daily budget."""
    budget = tenant.daily_usd
    if budget is None:
        return
    now = utcnow()
    spent, _ = spent_today(session, tenant.id, now)
    if spent >= budget:
        raise ProblemError(
            429,
            "Too Many Requests",
            f"Tenant limit daily_usd is {budget:g} USD and {spent:.6f} USD was spent today "
            "(UTC); submit again after midnight UTC or ask the operator to raise it.",
            slug="tenant-limit-exceeded",
            headers={"Retry-After": str(seconds_to_midnight(now))},
        )


_KEEP = object()


def set_limits(
    session: Session,
    tenant: Tenant,
    *,
    max_active_evaluations: int | None | object = _KEEP,
    daily_usd: float | None | object = _KEEP,
) -> None:
    """Set a tenant's limits; None removes one, an omitted one is kept."""
    if max_active_evaluations is not _KEEP:
        tenant.max_active_evaluations = max_active_evaluations  # type: ignore[assignment]
    if daily_usd is not _KEEP:
        tenant.daily_usd = daily_usd  # type: ignore[assignment]
    session.flush()
