"""The comparisons API: compare two evaluations or runs, read a comparison, page its items."""

from typing import Annotated

from fastapi import APIRouter, Query, Response, status

from app.api.deps import SessionDep, TenantDep
from app.api.idempotent import idempotent
from app.api.routing import LeanRoute
from app.comparisons import service
from app.comparisons.schemas import Comparison, ComparisonCreate, ComparisonItemList, Direction
from app.problems import problem_responses

router = APIRouter(prefix="/v1/comparisons", tags=["comparisons"], route_class=LeanRoute)

_PROBLEMS = problem_responses(400, 401, 404, 409, 422)


@router.post("", response_model=Comparison, responses=_PROBLEMS)
@idempotent()
def create_comparison(
    payload: ComparisonCreate, session: SessionDep, tenant: TenantDep
) -> Comparison:
    """Compare a candidate evaluation (or run) with a baseline, item by item, per metric."""
    comparison = service.create(session, tenant, payload)
    body = service.to_schema(comparison)
    session.commit()
    return body


@router.get("/{comparison_id}", response_model=Comparison, responses=_PROBLEMS)
def get_comparison(comparison_id: str, session: SessionDep, tenant: TenantDep) -> Comparison:
    """A stored comparison."""
    return service.to_schema(service.get_or_404(session, tenant, comparison_id))


@router.delete(
    "/{comparison_id}", status_code=status.HTTP_204_NO_CONTENT, responses=problem_responses(404)
)
def delete_comparison(comparison_id: str, session: SessionDep, tenant: TenantDep) -> Response:
    """Forget a comparison; its baseline and candidate stay. (Deleting either side deletes
    the comparisons made of it.)"""
    service.delete(session, tenant, service.get_or_404(session, tenant, comparison_id))
    session.commit()
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get("/{comparison_id}/items", response_model=ComparisonItemList, responses=_PROBLEMS)
def list_comparison_items(
    comparison_id: str,
    session: SessionDep,
    tenant: TenantDep,
    metric: str | None = None,
    direction: Direction | None = None,
    after: str | None = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> ComparisonItemList:
    """Matched items that moved, with both scores and both reasons, largest moves first."""
    data, has_more = service.items(session, tenant, comparison_id, metric, direction, after, limit)
    return ComparisonItemList.of(data, has_more)
