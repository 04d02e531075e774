"""The alignments API: propose a candidate version, read its report, activate or decline it."""

from typing import Annotated

from fastapi import APIRouter, Query, Response, status
from fastapi.responses import JSONResponse

from app.alignments import report, service
from app.alignments.propose import propose
from app.alignments.schemas import Alignment, AlignmentCreate, AlignmentList
from app.api import openapi
from app.api.deps import CallerDep, RuntimeDep, SessionDep, TenantDep, checked_with_tenant
from app.api.idempotent import idempotent
from app.api.query import id_after, id_cursor
from app.api.routing import LeanRoute
from app.evaluations import lifecycle_service as lifecycle
from app.evaluations import service as evaluations
from app.problems import problem_responses

router = APIRouter(
    prefix="/v1/alignments",
    tags=["alignments"],
    route_class=LeanRoute,
    responses=problem_responses(400, 401, 403, 404, 409, 422),
)
# An alignment's fields holding scores, emptied for a caller without `read` (app/api/withheld.py).
WITHHELD = {"alignment": {"report": None}}
OPENAPI = openapi.Extras(
    examples={"create_alignment": {"metric_version": "mv_5b0c1d2e3f4051627384a5b6"}}
)
# How long a poller should wait before asking again about a running alignment.
POLL_AFTER_SECONDS = "2"


@router.post(
    "",
    status_code=status.HTTP_202_ACCEPTED,
    response_model=Alignment,
    responses=problem_responses(502),
)
@checked_with_tenant(service.body_problems)
@idempotent()
def create_alignment(
    payload: AlignmentCreate, session: SessionDep, tenant: TenantDep, runtime: RuntimeDep
) -> Response:
    """Propose a candidate version of a judged metric from its labelled disagreements, and
    judge a held-out share of the labels with it and with the current version; poll
    `Location` for κ before and after. The rubric notes are written by one judge call made
    before this answers; the judging runs on workers."""
    alignment, evaluation = propose(session, runtime, tenant, payload)
    body = report.to_schema(session, alignment, evaluation).model_dump(mode="json")
    session.commit()
    headers = {"Location": f"/v1/alignments/{alignment.id}", "Retry-After": POLL_AFTER_SECONDS}
    return JSONResponse(body, status_code=status.HTTP_202_ACCEPTED, headers=headers)


@router.get("", response_model=AlignmentList)
def list_alignments(
    session: SessionDep,
    tenant: TenantDep,
    metric_version: Annotated[str | None, Query(min_length=1, max_length=40)] = None,
    after: Annotated[str | None, id_after(service.PREFIX)] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
) -> AlignmentList:
    """The tenant's alignments, newest first; `metric_version` keeps one version's."""
    rows = service.page(
        session, tenant.id, metric_version, id_cursor(after, (service.PREFIX,)), limit
    )
    data = [report.to_schema(session, *row) for row in rows[:limit]]
    return AlignmentList.of(data, len(rows) > limit)


@router.get("/{alignment_id}", response_model=Alignment)
def get_alignment(alignment_id: str, session: SessionDep, tenant: TenantDep) -> Alignment:
    """An alignment: its candidate and guidance, the split, and once judged κ before and
    after with their intervals, per held-out item the scores of both versions."""
    return report.to_schema(session, *service.get_or_404(session, tenant.id, alignment_id))


def _decide(
    alignment_id: str, verb: str, session: SessionDep, tenant: TenantDep, caller: CallerDep
) -> Alignment:
    alignment, evaluation = service.get_or_404(session, tenant.id, alignment_id)
    service.decide(session, alignment, evaluation, verb, caller.actor)
    body = report.to_schema(session, alignment, evaluation)
    session.commit()
    return body


@router.post("/{alignment_id}/activate", response_model=Alignment)
def activate_alignment(
    alignment_id: str, session: SessionDep, tenant: TenantDep, caller: CallerDep
) -> Alignment:
    """Make the candidate version `active` (audited as `alignment.activate`). Loupe rewrites
    no client's metrics: submissions use the candidate by sending `candidate_metric`."""
    return _decide(alignment_id, "activate", session, tenant, caller)


@router.post("/{alignment_id}/decline", response_model=Alignment)
def decline_alignment(
    alignment_id: str, session: SessionDep, tenant: TenantDep, caller: CallerDep
) -> Alignment:
    """Mark the candidate version `declined` (audited as `alignment.decline`)."""
    return _decide(alignment_id, "decline", session, tenant, caller)


@router.post("/{alignment_id}/cancel", response_model=Alignment)
def cancel_alignment(
    alignment_id: str, session: SessionDep, tenant: TenantDep, runtime: RuntimeDep
) -> Alignment:
    """Stop judging the held-out items; what was judged is kept, and no report is made."""
    alignment, _ = service.get_or_404(session, tenant.id, alignment_id)
    evaluation = evaluations.get_for_update(session, tenant, alignment.id, (service.KIND,))
    evaluation = lifecycle.cancel(session, runtime, evaluation)
    body = report.to_schema(session, alignment, evaluation)
    session.commit()
    return body


@router.delete("/{alignment_id}", status_code=status.HTTP_204_NO_CONTENT)
def delete_alignment(
    alignment_id: str, session: SessionDep, tenant: TenantDep, runtime: RuntimeDep
) -> Response:
    """Delete a finished alignment: its held-out items and both versions' judgments (the
    candidate version and people's labels stay). A queued or running one answers 409: cancel
    it first, as an evaluation's or a run's delete does."""
    alignment, _ = service.get_or_404(session, tenant.id, alignment_id)
    evaluation = evaluations.get_for_update(session, tenant, alignment.id, (service.KIND,))
    lifecycle.delete(session, runtime, evaluation)
    session.commit()
    return Response(status_code=status.HTTP_204_NO_CONTENT)
