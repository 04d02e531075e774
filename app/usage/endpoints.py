"""GET /v1/usage."""

from fastapi import APIRouter

from app.api.deps import SessionDep, TenantDep
from app.db import utcnow
from app.problems import problem_responses
from app.schemas import Day
from app.usage import service
from app.usage.schemas import Usage, UsageGrouping

router = APIRouter(prefix="/v1/usage", tags=["usage"], responses=problem_responses(401, 422))


@router.get("", response_model=Usage)
def get_usage(
    session: SessionDep,
    tenant: TenantDep,
    start: Day | None = None,
    end: Day | None = None,
    group_by: UsageGrouping = "day",
) -> Usage:
    """The tenant's judge and candidate calls, tokens and cost (LOUPE_MODEL_PRICES) from its
    stored results, on UTC days `start`..`end` (inclusive; default the last 30 days), by day or
    by model. A cost is null when a model used had no price."""
    return service.usage(session, tenant.id, start, end, group_by, utcnow().date())
