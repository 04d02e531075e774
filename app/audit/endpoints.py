"""GET /v1/audit_events: who changed what in the caller's tenant, and when."""

from typing import Annotated

from fastapi import APIRouter, Query

from app.api.deps import SessionDep, TenantDep
from app.api.query import id_after, id_cursor
from app.api.routing import LeanRoute
from app.audit import service
from app.audit.schemas import AuditEvent, AuditEventList
from app.audit.service import AuditFilter
from app.problems import ProblemError, field_error, problem_responses
from app.schemas import Moment
from app.tenants.scopes import ADMIN, SCOPE_EXTENSION

router = APIRouter(
    prefix="/v1/audit_events",
    tags=["audit"],
    route_class=LeanRoute,
    responses=problem_responses(400, 401, 403, 422),
)

LimitQuery = Annotated[int, Query(ge=1, le=100)]


# A team's admins read its trail (issue 28): people with the `admin` role, keys with the
# `admin` scope; a key that may only read or write (a dashboard's, CI's) does not see who did what.
@router.get("", response_model=AuditEventList, openapi_extra={SCOPE_EXTENSION: ADMIN})
def list_audit_events(
    session: SessionDep,
    tenant: TenantDep,
    actor: Annotated[
        str | None, Query(min_length=1, max_length=80, description="e.g. `key:key_…`, `operator`.")
    ] = None,
    action: Annotated[
        str | None, Query(min_length=1, max_length=64, description="e.g. `evaluation.delete`.")
    ] = None,
    object_type: Annotated[
        str | None, Query(min_length=1, max_length=32, description="e.g. `online_rule`.")
    ] = None,
    object_id: Annotated[str | None, Query(min_length=1, max_length=80)] = None,
    since: Annotated[
        Moment | None, Query(description="ISO 8601; events at or after it (UTC if no offset).")
    ] = None,
    until: Annotated[
        Moment | None, Query(description="ISO 8601; events before it (UTC if no offset).")
    ] = None,
    after: Annotated[str | None, id_after("aud")] = None,
    limit: LimitQuery = 20,
) -> AuditEventList:
    """The tenant's audit events, newest first: every create, delete, cancel and change made
    through the API, the console and the `loupe` command, with who made it."""
    if since is not None and until is not None and since >= until:
        message = "since must be before until"
        raise ProblemError(
            400,
            "Bad Request",
            f"since, until: {message}.",
            slug="bad-time-range",
            errors=[
                field_error(["query", "since"], message, "bad_range"),
                field_error(["query", "until"], message, "bad_range"),
            ],
        )
    where = AuditFilter(actor, action, object_type, object_id, since, until)
    rows = service.page(session, tenant.id, where, id_cursor(after, "aud"), limit)
    data = [AuditEvent.model_validate(row, from_attributes=True) for row in rows[:limit]]
    return AuditEventList.of(data, len(rows) > limit)
