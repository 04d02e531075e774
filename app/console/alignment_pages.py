"""The console's alignments (issue 29): a metric version's page lists them and proposes one;
an alignment's page shows κ before and after with their intervals and their paired difference,
the guidance the candidate adds, each held-out item's labels and both versions' scores, and
its decision: Activate or Decline once judged, Cancel while the held-out items are judged.

Reads and decides through `app.alignments` as /v1/alignments does; every form's POST needs
`write`, as the API's do (app/console/auth.py), and carries the page's CSRF token."""

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response

from app.alignments import report, service
from app.alignments.propose import propose
from app.alignments.schemas import DEFAULT_HELD_OUT_SHARE, AlignmentCreate
from app.api.deps import RuntimeDep, SessionDep
from app.api.query import id_cursor
from app.console import csrf
from app.console._render import SignedIn, page, see_other
from app.evaluations import lifecycle_service as lifecycle
from app.evaluations import service as evaluations
from app.evaluations.schemas import TERMINAL_STATUSES
from app.metric_versions import service as versions

router = APIRouter(prefix="/console", include_in_schema=False)

PAGE_SIZE = 25
Token = Annotated[str, Form(max_length=128)]


@router.get("/alignments")
def alignments_page(
    request: Request,
    session: SessionDep,
    signed_in: SignedIn,
    metric_version: str | None = None,
    after: str | None = None,
) -> HTMLResponse:
    """The team's alignments, newest first; `metric_version` keeps one version's."""
    tenant_id = signed_in.tenant.id
    rows = service.page(
        session,
        tenant_id,
        metric_version or None,
        id_cursor(after or None, (service.PREFIX,)),
        PAGE_SIZE,
    )
    shown = [report.to_schema(session, *row) for row in rows[:PAGE_SIZE]]
    return page(
        request,
        "alignments.html",
        signed_in,
        alignments=shown,
        metric_version=metric_version or "",
        has_more=len(rows) > PAGE_SIZE,
    )


@router.get("/alignments/{alignment_id}")
def alignment_page(
    request: Request, alignment_id: str, session: SessionDep, signed_in: SignedIn
) -> HTMLResponse:
    tenant_id = signed_in.tenant.id
    alignment = report.to_schema(session, *service.get_or_404(session, tenant_id, alignment_id))
    return page(
        request,
        "alignment.html",
        signed_in,
        alignment=alignment,
        parent=versions.get_or_404(session, tenant_id, alignment.metric_version),
        running=alignment.status not in TERMINAL_STATUSES,
    )


@router.post("/metric_versions/{version_id}/align")
def propose_alignment(
    request: Request,
    version_id: str,
    session: SessionDep,
    signed_in: SignedIn,
    runtime: RuntimeDep,
    csrf_token: Token = "",
    held_out_share: Annotated[float, Form(gt=0, lt=1)] = DEFAULT_HELD_OUT_SHARE,
    seed: Annotated[int, Form(ge=0, le=2**31 - 1)] = 0,
) -> Response:
    """Propose a candidate of the version, as POST /v1/alignments does; its page follows."""
    csrf.check(request, runtime.settings, signed_in.form_nonce, csrf_token)
    # Another team's version, or none: 404, as its page answers.
    version = versions.get_or_404(session, signed_in.tenant.id, version_id)
    body = AlignmentCreate(metric_version=version.id, held_out_share=held_out_share, seed=seed)
    alignment, _ = propose(session, runtime, signed_in.tenant, body)
    session.commit()
    return see_other(f"/console/alignments/{alignment.id}")


def _decide(
    request: Request,
    alignment_id: str,
    verb: str,
    session: SessionDep,
    signed_in: SignedIn,
    runtime: RuntimeDep,
    csrf_token: str,
) -> Response:
    """Activate or decline the candidate (audited), or stop judging the held-out items."""
    csrf.check(request, runtime.settings, signed_in.form_nonce, csrf_token)
    tenant = signed_in.tenant
    alignment, evaluation = service.get_or_404(session, tenant.id, alignment_id)
    if verb == "cancel":
        evaluation = evaluations.get_for_update(session, tenant, alignment.id, (service.KIND,))
        lifecycle.cancel(session, runtime, evaluation)
    else:
        service.decide(session, alignment, evaluation, verb, signed_in.actor)
    session.commit()
    return see_other(f"/console/alignments/{alignment_id}")


@router.post("/alignments/{alignment_id}/activate")
def activate_alignment_form(
    request: Request,
    alignment_id: str,
    session: SessionDep,
    signed_in: SignedIn,
    runtime: RuntimeDep,
    csrf_token: Token = "",
) -> Response:
    return _decide(request, alignment_id, "activate", session, signed_in, runtime, csrf_token)


@router.post("/alignments/{alignment_id}/decline")
def decline_alignment_form(
    request: Request,
    alignment_id: str,
    session: SessionDep,
    signed_in: SignedIn,
    runtime: RuntimeDep,
    csrf_token: Token = "",
) -> Response:
    return _decide(request, alignment_id, "decline", session, signed_in, runtime, csrf_token)


@router.post("/alignments/{alignment_id}/cancel")
def cancel_alignment_form(
    request: Request,
    alignment_id: str,
    session: SessionDep,
    signed_in: SignedIn,
    runtime: RuntimeDep,
    csrf_token: Token = "",
) -> Response:
    return _decide(request, alignment_id, "cancel", session, signed_in, runtime, csrf_token)
