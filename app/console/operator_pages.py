"""The operator's view across teams (/console/operator): every tenant's spend, limits, active
jobs, live keys and members, for people in one of LOUPE_OIDC_OPERATOR_GROUPS; everyone else
(a team admin too, and any API key) gets the 403 page."""

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from app.api.deps import RuntimeDep, SessionDep
from app.console._render import SignedIn, page
from app.db import utcnow
from app.problems import ProblemError
from app.tenants import operator

router = APIRouter(prefix="/console", include_in_schema=False)


@router.get("/operator", name="operator_page")
def operator_page(
    request: Request, session: SessionDep, signed_in: SignedIn, runtime: RuntimeDep
) -> HTMLResponse:
    if not signed_in.operator:
        raise ProblemError(
            403,
            "Forbidden",
            "The operator's view is for people in one of the operator groups "
            "(LOUPE_OIDC_OPERATOR_GROUPS) of the identity provider; sign in again after being "
            "added to one.",
            slug="operator-required",
        )
    return page(
        request,
        "operator.html",
        signed_in,
        tenants=operator.overview(session, utcnow()),
        days=operator.DAYS,
        default_storage=runtime.settings.tenant_storage_bytes,
    )
