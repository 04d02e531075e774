"""The team's webhook endpoints in the console (`GET /v1/webhook_endpoints`, the same service):
whether each is on, since when its attempts have all failed, and why a disabled one was turned
off."""

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from app.api.deps import RuntimeDep, SessionDep
from app.api.query import id_cursor
from app.console._render import SignedIn, page
from app.webhooks import service

router = APIRouter(prefix="/console", include_in_schema=False)

PAGE_SIZE = 50


@router.get("/webhooks", name="webhooks_page")
def webhooks_page(
    request: Request,
    session: SessionDep,
    signed_in: SignedIn,
    runtime: RuntimeDep,
    after: str | None = None,
) -> HTMLResponse:
    rows = service.endpoints_page(
        session, signed_in.tenant.id, id_cursor(after or None, "we"), PAGE_SIZE
    )
    shown = rows[:PAGE_SIZE]
    return page(
        request,
        "webhooks.html",
        signed_in,
        endpoints=shown,
        older=shown[-1].id if len(rows) > PAGE_SIZE else None,
        disable_after_hours=runtime.settings.webhook_disable_after_hours,
    )
