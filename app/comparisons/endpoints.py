"""The comparisons API: compare two evaluations or runs, list and read comparisons, page their
items."""

from typing import Annotated

from fastapi import APIRouter, Query, Response, status

from app.api.deps import SessionDep, TenantDep
from app.api.idempotent import idempotent
from app.api.query import id_after, id_cursor
from app.api.routing import LeanRoute
from app.comparisons import service
from app.comparisons.schemas import (
    Comparison,
    ComparisonCreate,
    ComparisonItemList,
    ComparisonList,
    Direction,
)
from app.problems import problem_responses

router = APIRouter(prefix="/v1/comparisons", tags=["comparisons"], route_class=LeanRoute)

_PROBLEMS = problem_responses(400, 401, 404, 409, 422)
LimitQuery = Annotated[int, Query(ge=1, le=100)]


# 200, not 201, though the comparison is stored: clients generated from earlier releases read a
# comparison from a 200 only (the CI gates pinning them would break). `Location` names it.
_CREATED = {
    200: {
        "description": "The comparison, stored.",
        "headers": {
            "Location": {
                "description": "The path of the stored comparison: GET it to read it again.",
                "required": True,
                "schema": {"type": "string"},
            }
        },
    }
}


@router.post("", response_model=Comparison, responses={**_PROBLEMS, **_CREATED})
@idempotent()
def create_comparison(
    payload: ComparisonCreate, session: SessionDep, tenant: TenantDep, response: Response
) -> Comparison:
    """Compare a candidate evaluation (or run) with a baseline, item by item, per metric; the
    comparison is stored (`Location` where it is read again)."""
    comparison = service.create(session, tenant, payload)
    body = service.to_schema(comparison)
    session.commit()
    response.headers["Location"] = f"/v1/comparisons/{comparison.id}"
    return body


@router.get("", response_model=ComparisonList, responses=_PROBLEMS)
def list_comparisons(
    session: SessionDep,
    tenant: TenantDep,
    after: Annotated[str | None, id_after("cmp")] = None,
    limit: LimitQuery = 20,
) -> ComparisonList:
    """The tenant's comparisons, newest first."""
    rows = service.page(session, tenant, id_cursor(after, "cmp"), limit)
    return ComparisonList.of([service.to_schema(row) for row in rows[:limit]], len(rows) > limit)


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
