"""Re-running an evaluation from the console: its bill first (the estimate), then the submit.

The same services as `POST /v1/evaluations/estimate` and `POST /v1/evaluations`.
"""

from typing import Annotated

from fastapi import APIRouter, Form, Request, Response
from fastapi.responses import HTMLResponse

from app.api.deps import RuntimeDep, SessionDep
from app.console import csrf
from app.console._render import SignedIn, page, see_other
from app.evaluations import estimate, rerun, service
from app.evaluations import lifecycle_service as lifecycle
from app.evaluations.schemas import TERMINAL_STATUSES

router = APIRouter(prefix="/console", include_in_schema=False)


@router.get("/evaluations/{evaluation_id}/rerun")
def rerun_page(
    request: Request,
    evaluation_id: str,
    session: SessionDep,
    signed_in: SignedIn,
    runtime: RuntimeDep,
) -> HTMLResponse:
    """What submitting the evaluation again would cost, and the button that does it."""
    evaluation = service.get_or_404(session, signed_in.tenant, evaluation_id)
    payload = rerun.resubmission(session, signed_in.tenant, evaluation)
    bill = estimate.of_submission(session, signed_in.tenant, payload, runtime.settings)
    return page(
        request,
        "rerun.html",
        signed_in,
        evaluation=evaluation,
        title=evaluation.name or evaluation.id,
        estimate=bill,
        finished=evaluation.status in TERMINAL_STATUSES,
    )


@router.post("/evaluations/{evaluation_id}/rerun")
def rerun_evaluation(
    request: Request,
    evaluation_id: str,
    session: SessionDep,
    signed_in: SignedIn,
    runtime: RuntimeDep,
    csrf_token: Annotated[str, Form(max_length=128)] = "",
) -> Response:
    """Submit the evaluation again; its new page follows."""
    csrf.check(request, runtime.settings, signed_in.form_nonce, csrf_token)
    evaluation = service.get_or_404(session, signed_in.tenant, evaluation_id)
    payload = rerun.resubmission(session, signed_in.tenant, evaluation)
    created = service.create(session, signed_in.tenant, payload, runtime.settings)
    lifecycle.submit(session, runtime, created)
    session.commit()
    return see_other(f"/console/evaluations/{created.id}")
