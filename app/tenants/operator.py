"""The operator's view across teams: each tenant's spend today and over the last 30 days (as
GET /v1/usage counts it), its limits, active jobs, live keys and members."""

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from app.models import Tenant
from app.tenants import service
from app.unscoped.operator import UnscopedOperatorRepository
from app.usage import service as usage

# The spend column's range, in UTC days up to today (GET /v1/usage's default).
DAYS = usage.DEFAULT_DAYS


@dataclass(frozen=True)
class TenantOverview:
    tenant: Tenant
    # Judge + candidate USD of the results stored today / in the last DAYS UTC days (None:
    # none of them priced).
    spent_today: float | None
    spent_days: float | None
    active_jobs: int
    live_keys: int
    members: int


def overview(session: Session, now: datetime) -> list[TenantOverview]:
    """Every tenant by name, with its figures."""
    repository = UnscopedOperatorRepository(session)
    active, members = repository.active_jobs(), repository.member_counts()
    today = now.date()
    found = []
    for tenant, live_keys in service.all_tenants(session):
        spent_today = usage.usage(session, tenant.id, today, today, "day", today).cost_usd
        start = today - timedelta(days=DAYS - 1)
        spent_days = usage.usage(session, tenant.id, start, today, "day", today).cost_usd
        found.append(
            TenantOverview(
                tenant,
                spent_today,
                spent_days,
                active.get(tenant.id, 0),
                live_keys,
                members.get(tenant.id, 0),
            )
        )
    return found
