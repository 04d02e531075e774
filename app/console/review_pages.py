"""The reviewers' pages: review queues with their progress, and an item to label blind.

`/console/review/{queue_id}` shows the queue and a Start button; its POST (`.../claim`, as
`POST /v1/review_queues/{id}/claim`) reserves the next item for the signed-in person (the one
they hold, if any) and leads to the item's page: its test case with a label form and nothing the
judge said. Opening a page never claims: a crawler, a link preview or a prefetch would hold
items nobody labels. The label form's POST stores the label through the review service (as
`POST /v1/review_queues/.../label` does) and leads back to the item's page, which then shows
the person's label beside the judge's score and reason, and a Next item button (a claim).
Claiming, labelling and giving back need the `review` scope (app/console/auth.py
`_REVIEW_ROUTES`); keyboard shortcuts come from static/review/keys.js.
"""

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import ValidationError

from app.api.deps import RuntimeDep, SessionDep
from app.api.query import id_cursor
from app.console import csrf
from app.console._render import SignedIn, page, see_other
from app.db import utcnow
from app.models import ReviewQueue
from app.problems import ProblemError
from app.review import items, service
from app.review.schemas import ReviewLabelCreate

router = APIRouter(prefix="/console", include_in_schema=False)

PAGE_SIZE = 25
Token = Annotated[str, Form(max_length=128)]


@router.get("/review", name="review_queues_page")
def review_queues_page(
    request: Request, session: SessionDep, signed_in: SignedIn, after: str | None = None
) -> HTMLResponse:
    tenant_id = signed_in.tenant.id
    rows = service.page(session, tenant_id, id_cursor(after or None, "rq"), PAGE_SIZE)
    queues = [service.to_schema(session, tenant_id, row) for row in rows[:PAGE_SIZE]]
    return page(
        request,
        "review_queues.html",
        signed_in,
        queues=queues,
        has_more=len(rows) > PAGE_SIZE,
        may_review="review" in signed_in.scopes,
    )


def _item_page(
    request: Request,
    session: SessionDep,
    signed_in: SignedIn,
    queue: ReviewQueue,
    item_id: str,
    status_code: int = 200,
    **refusal: object,
) -> HTMLResponse:
    """The item's page; `refusal` (`refused`, `typed`) shows why a label was not taken, above
    the form, with what the reviewer typed kept in it."""
    tenant_id = signed_in.tenant.id
    progress = service.progress(session, tenant_id, queue)
    item = items.item_or_404(session, tenant_id, queue, item_id)
    shown = items.view(session, tenant_id, signed_in.actor, queue, item)
    return page(
        request,
        "review_item.html",
        signed_in,
        status_code,
        queue=queue,
        progress=progress,
        shown=shown,
        now=utcnow(),
        **refusal,
    )


@router.get("/review/{queue_id}", name="review_queue_page")
def review_queue_page(
    queue_id: str, request: Request, session: SessionDep, signed_in: SignedIn, left: str = ""
) -> HTMLResponse:
    """The queue and its progress, with a button that claims the next item; opening it
    reserves nothing (a link preview, a prefetch or a look would otherwise hold an item)."""
    queue = service.get_or_404(session, signed_in.tenant.id, queue_id)
    progress = service.progress(session, signed_in.tenant.id, queue)
    return page(
        request,
        "review_item.html",
        signed_in,
        queue=queue,
        progress=progress,
        nothing_left=left == "none",
    )


@router.post("/review/{queue_id}/claim", name="review_claim_form")
def review_claim_form(
    queue_id: str,
    request: Request,
    session: SessionDep,
    runtime: RuntimeDep,
    signed_in: SignedIn,
    csrf_token: Token = "",
) -> RedirectResponse:
    """Reserve the next item for the person (the one they hold, if any) and show it, blind;
    back to the queue's page saying so when none is left for them."""
    csrf.check(request, runtime.settings, signed_in.form_nonce, csrf_token)
    queue = service.get_or_404(session, signed_in.tenant.id, queue_id)
    claimed = service.claim_item(session, signed_in.tenant.id, signed_in.actor, queue)
    session.commit()
    where = (
        f"/console/review/{queue.id}?left=none"
        if claimed is None
        else f"/console/review/{queue.id}/items/{claimed[0].id}"
    )
    return see_other(where)


@router.get("/review/{queue_id}/items/{item_id}", name="review_item_page")
def review_item_page(
    queue_id: str, item_id: str, request: Request, session: SessionDep, signed_in: SignedIn
) -> HTMLResponse:
    """An item the person holds (blind) or labelled (with the judge's verdict)."""
    queue = service.get_or_404(session, signed_in.tenant.id, queue_id)
    return _item_page(request, session, signed_in, queue, item_id)


def _value(choice: str, score: str) -> bool | float:
    """The label the form asks for; 400 when it asks for two (a verdict button pressed with a
    value typed: which one the reviewer meant cannot be told) or for a value that is no number."""
    if choice in ("pass", "fail") and score.strip():
        raise ProblemError(
            400,
            "Bad Request",
            f"score: you typed the value {score.strip()[:40]!r} and pressed "
            f"{choice.capitalize()}; label with one of them: clear the value to give a verdict, "
            "or press Save value (Enter in the value field) to give the value.",
            slug="invalid-request",
            field=["body", "score"],
        )
    if choice == "pass":
        return True
    if choice == "fail":
        return False
    try:
        return float(score.strip())
    except ValueError:
        raise ProblemError(
            400,
            "Bad Request",
            f"value: {score[:40]!r} is not a number; give a score on the metric's scale, or "
            "press Pass or Fail.",
            slug="invalid-request",
            field=["body", "value"],
        ) from None


@router.post("/review/{queue_id}/items/{item_id}/label", name="review_label_form")
def review_label_form(
    queue_id: str,
    item_id: str,
    request: Request,
    session: SessionDep,
    runtime: RuntimeDep,
    signed_in: SignedIn,
    csrf_token: Token = "",
    choice: Annotated[str, Form(max_length=16)] = "",
    score: Annotated[str, Form(max_length=64)] = "",
    rationale: Annotated[str, Form(max_length=10_000)] = "",
) -> Response:
    """Store the person's label, then show the item with the judge's verdict beside it."""
    csrf.check(request, runtime.settings, signed_in.form_nonce, csrf_token)
    queue = service.get_or_404(session, signed_in.tenant.id, queue_id)
    items.item_or_404(session, signed_in.tenant.id, queue, item_id)
    try:
        body = ReviewLabelCreate(value=_value(choice, score), rationale=rationale.strip() or None)
        service.give_label(session, signed_in.tenant.id, signed_in.actor, queue, item_id, body)
    except (ProblemError, ValidationError) as refused:
        if isinstance(refused, ProblemError) and refused.status not in (400, 422):
            raise
        # A label the item cannot take (a value off the scale, NaN, a verdict and a value
        # both): said on the item's page, above the form, with what was typed kept.
        session.rollback()
        said = (
            refused.detail
            if isinstance(refused, ProblemError)
            else "value: must be a finite number on the metric's scale, or press Pass or Fail."
        )
        return _item_page(
            request,
            session,
            signed_in,
            queue,
            item_id,
            refused.status if isinstance(refused, ProblemError) else 422,
            refused=said,
            typed={"score": score, "rationale": rationale},
        )
    session.commit()
    return see_other(f"/console/review/{queue.id}/items/{item_id}")


@router.post("/review/{queue_id}/items/{item_id}/release", name="review_release_form")
def review_release_form(
    queue_id: str,
    item_id: str,
    request: Request,
    session: SessionDep,
    runtime: RuntimeDep,
    signed_in: SignedIn,
    csrf_token: Token = "",
) -> RedirectResponse:
    """Give the item back; back to the queues."""
    csrf.check(request, runtime.settings, signed_in.form_nonce, csrf_token)
    queue = service.get_or_404(session, signed_in.tenant.id, queue_id)
    service.release(session, signed_in.tenant.id, signed_in.actor, queue, item_id)
    session.commit()
    return see_other("/console/review")
