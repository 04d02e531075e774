"""The console's audit trail: the tenant's audit events, newest first, with the API's filters
(`GET /v1/audit_events`, the same service)."""

from typing import Annotated
from urllib.parse import urlencode

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse

from app.api.deps import SessionDep
from app.api.query import id_cursor
from app.audit import service
from app.console._render import SignedIn, page
from app.problems import ProblemError
from app.tenants.scopes import ADMIN

router = APIRouter(prefix="/console", include_in_schema=False)

PAGE_SIZE = 50
Filter = Annotated[str | None, Query(max_length=80)]


@router.get("/audit")
def audit_page(
    request: Request,
    session: SessionDep,
    signed_in: SignedIn,
    actor: Filter = None,
    action: Filter = None,
    object_type: Filter = None,
    object_id: Filter = None,
    after: str | None = None,
) -> HTMLResponse:
    # Who did what is for a team's admins (the `admin` role, or a key with the `admin` scope),
    # as for GET /v1/audit_events.
    if ADMIN not in signed_in.scopes:
        held = ", ".join(sorted(signed_in.scopes)) or "none"
        raise ProblemError(
            403,
            "Forbidden",
            f"The audit trail is for a team's admins: your role in team "
            f"{signed_in.tenant.name} gives {held}."
            if signed_in.person_id is not None
            else f"The audit trail needs the `{ADMIN}` scope, and the API key you signed in with "
            f"has {held}.",
            slug="scope-required",
            required_scope=ADMIN,
        )
    filters = {
        "actor": actor or None,
        "action": action or None,
        "object_type": object_type or None,
        "object_id": object_id or None,
    }
    where = service.AuditFilter(**filters)
    rows = service.page(
        session, signed_in.tenant.id, where, id_cursor(after or None, "aud"), PAGE_SIZE
    )
    shown = rows[:PAGE_SIZE]
    kept = {name: value for name, value in filters.items() if value}
    older = urlencode({**kept, "after": shown[-1].id}) if len(rows) > PAGE_SIZE else None
    return page(
        request,
        "audit.html",
        signed_in,
        events=shown,
        older=older,
        filters={name: value or "" for name, value in filters.items()},
        filtered=bool(kept),
    )
