"""Review queues: made, listed, read and deleted (`write` to make or delete, `read` or `review`
to read); items claimed, labelled and given back (`review`)."""

from collections.abc import Mapping
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response, status

from app.api.deps import CallerDep, SessionDep, TenantDep, checked_with_tenant, get_runtime
from app.api.idempotent import idempotent
from app.api.query import id_after, id_cursor
from app.api.routing import LeanRoute
from app.problems import FieldError, checked_anyway, problem_responses
from app.review import items, service, sources
from app.review.schemas import (
    ReviewItem,
    ReviewLabelCreate,
    ReviewLabelled,
    ReviewQueue,
    ReviewQueueCreate,
    ReviewQueueList,
)
from app.tenants.scopes import READ, READ_OR_REVIEW, REVIEW, SCOPE_EXTENSION

router = APIRouter(
    prefix="/v1/review_queues",
    tags=["review queues"],
    route_class=LeanRoute,
    responses=problem_responses(400, 401, 403, 404, 409, 413, 415, 422),
)

LimitQuery = Annotated[int, Query(ge=1, le=100)]
REVIEW_SCOPE = {SCOPE_EXTENSION: REVIEW}


@router.post("", status_code=status.HTTP_201_CREATED, response_model=ReviewQueue)
@checked_with_tenant(sources.checked_body)
@idempotent()
def create_review_queue(
    payload: ReviewQueueCreate, session: SessionDep, caller: CallerDep, response: Response
) -> ReviewQueue:
    """A queue of one metric's judged results from evaluations and online rules' days, routed
    to people: near the threshold, fragile, the lowest scores, and a random audit share."""
    queue = service.create(
        session, caller.tenant.id, caller.actor, payload, scores_shown=caller.may(READ)
    )
    body = service.to_schema(session, caller.tenant.id, queue)
    session.commit()
    response.headers["Location"] = f"/v1/review_queues/{queue.id}"
    return body


@router.get("", response_model=ReviewQueueList, openapi_extra=READ_OR_REVIEW)
def list_review_queues(
    session: SessionDep,
    tenant: TenantDep,
    after: Annotated[str | None, id_after("rq")] = None,
    limit: LimitQuery = 20,
) -> ReviewQueueList:
    """The tenant's review queues with their progress, newest first."""
    rows = service.page(session, tenant.id, id_cursor(after, "rq"), limit)
    return ReviewQueueList.of(
        [service.to_schema(session, tenant.id, row) for row in rows[:limit]], len(rows) > limit
    )


@router.get("/{queue_id}", response_model=ReviewQueue, openapi_extra=READ_OR_REVIEW)
def get_review_queue(queue_id: str, session: SessionDep, tenant: TenantDep) -> ReviewQueue:
    """One queue and its progress: items offered, fully labelled, in progress, remaining, and
    each reviewer's labelled and reserved counts."""
    return service.to_schema(session, tenant.id, service.get_or_404(session, tenant.id, queue_id))


@router.delete("/{queue_id}", status_code=status.HTTP_204_NO_CONTENT)
def delete_review_queue(queue_id: str, session: SessionDep, caller: CallerDep) -> Response:
    """Delete the queue and its reservations; the labels given in it stay."""
    queue = service.get_or_404(session, caller.tenant.id, queue_id)
    service.delete(session, caller.tenant.id, caller.actor, queue)
    session.commit()
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post(
    "/{queue_id}/claim",
    response_model=ReviewItem,
    responses={204: {"description": "Nothing is left for you to label."}},
    openapi_extra=REVIEW_SCOPE,
)
def claim_review_item(
    queue_id: str, request: Request, session: SessionDep, caller: CallerDep
) -> ReviewItem | Response:
    """Reserve the next item for you (the one you hold, if any) for the queue's
    `reservation_minutes`: the test case and the metric's scale, without the judge's score or
    reason (label blind first). 204 when nothing is left for you."""
    queue = service.get_or_404(session, caller.tenant.id, queue_id)

    def media_url(digest: str) -> str:
        return str(request.url_for("get_media", sha256=digest))

    item = service.claim(session, caller.tenant.id, caller.actor, queue, media_url)
    session.commit()
    if item is None:
        return Response(status_code=status.HTTP_204_NO_CONTENT)
    return item


def _label_problems(request: Request, body: Mapping[str, Any]) -> list[FieldError]:
    """`checked_with_tenant` for a label: the item's metric checks the value's scale."""
    tenant_id = getattr(request.state, "tenant_id", None)
    if tenant_id is None:
        return []
    with get_runtime(request).session() as session:
        queue_id, item_id = (
            str(request.path_params.get(name, "")) for name in ("queue_id", "item_id")
        )
        return items.label_body_problems(session, tenant_id, queue_id, item_id, body)


@router.post(
    "/{queue_id}/items/{item_id}/label",
    status_code=status.HTTP_201_CREATED,
    response_model=ReviewLabelled,
    responses={
        200: {
            "model": ReviewLabelled,
            "description": "The same label of the item again: your label as it stands.",
        }
    },
    openapi_extra=REVIEW_SCOPE,
)
@checked_anyway(_label_problems)
# The answer shows the judge's verdict to the reviewer who labelled: replayed to them alone.
@idempotent(per_caller=True)
def label_review_item(
    queue_id: str,
    item_id: str,
    payload: ReviewLabelCreate,
    session: SessionDep,
    caller: CallerDep,
    response: Response,
) -> ReviewLabelled:
    """Label the item you reserved (stored as a label, bound to the metric version) and read
    what the judge said: its score, pass / fail and reason. The first time is a 201 with
    `Location: /v1/labels/{id}`, as `POST /v1/labels` answers; the same label again a 200."""
    queue = service.get_or_404(session, caller.tenant.id, queue_id)
    answer, created = service.give_label(
        session, caller.tenant.id, caller.actor, queue, item_id, payload
    )
    session.commit()
    if created:
        response.headers["Location"] = f"/v1/labels/{answer.label.id}"
    response.status_code = status.HTTP_201_CREATED if created else status.HTTP_200_OK
    return answer


@router.post(
    "/{queue_id}/items/{item_id}/release",
    status_code=status.HTTP_204_NO_CONTENT,
    openapi_extra=REVIEW_SCOPE,
)
def release_review_item(
    queue_id: str, item_id: str, session: SessionDep, caller: CallerDep
) -> Response:
    """Give the item you reserved back for others (it is not offered to you again)."""
    queue = service.get_or_404(session, caller.tenant.id, queue_id)
    service.release(session, caller.tenant.id, caller.actor, queue, item_id)
    session.commit()
    return Response(status_code=status.HTTP_204_NO_CONTENT)
