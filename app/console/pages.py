"""Console pages: evaluations, a test case with its results, media (signing in and out:
sign_in_pages.py).

Routes call the services the JSON API uses; templates only format. Which kinds are listed,
what they are called and what their metrics are labelled come from the kinds themselves
(`app.evaluations.kinds`): these pages name none.
"""

from typing import Annotated, Any

from fastapi import APIRouter, Form, Header, Path, Query, Request, Response
from fastapi.responses import HTMLResponse
from sqlalchemy.orm import Session

from app.api.deps import RuntimeDep, SessionDep
from app.api.query import MAX_POSITION
from app.console import csrf, transcript, views
from app.console._render import SignedIn, live_page, page, see_other
from app.console.auth import ConsoleSession
from app.evaluations import calibration, export, kinds, list_rows, read_model, reads, service
from app.evaluations import lifecycle_service as lifecycle
from app.evaluations.schemas import TERMINAL_STATUSES
from app.media.serving import blob_response, not_found
from app.models import Evaluation
from app.problems import ProblemError
from app.review import access
from app.tenants.scopes import READ

router = APIRouter(prefix="/console", include_in_schema=False)

STATUSES = ("queued", "in_progress", "completed", "failed", "canceled")
# The list's status filter also offers what the badge says: completed with errored results
# (the API's `completed_with_errors=true`; `completed` alone lists every completed one).
WITH_ERRORS = "completed_with_errors"
LIST_STATUSES = (*STATUSES, WITH_ERRORS)
RESULT_STATUSES = ("passed", "failed", "errored")
# The results' fragile filter (the API's `fragile=true|false`): results of a metric judged more
# than once whose judgments straddle the threshold, or agree.
FRAGILE_CHOICES = {"true": "fragile", "false": "steady"}
ORDERS = {"": "test case", "score_asc": "score, lowest first", "score_desc": "score, highest first"}
PAGE_SIZE = 25
RESULTS_PAGE_SIZE = 50


def _kind_choices() -> dict[str, str]:
    """The evaluations list's kind filter: every kind listed beside evaluations (an OpenAI eval
    run's `report_url` is its evaluation page), by its label; "" lists them all."""
    return {"": "any", **{name: kinds.by_name(name).label for name in kinds.listed()}}


def _choice(value: str | None, allowed: tuple[str, ...] | dict[str, str], name: str) -> str | None:
    """An optional filter from a query string ("" means none); 400 for an unknown value."""
    if not value:
        return None
    if value not in allowed:
        raise ProblemError(400, "Bad Request", f"{name}: {value!r} is not one of {list(allowed)}")
    return value


@router.get("/evaluations")
def evaluations_page(
    request: Request,
    session: SessionDep,
    signed_in: SignedIn,
    status: str | None = None,
    name: Annotated[str | None, Query(max_length=256)] = None,
    kind: str | None = None,
    after: str | None = None,
) -> HTMLResponse:
    wanted = _choice(status, LIST_STATUSES, "status")
    choices = _kind_choices()
    wanted_kind = _choice(kind, choices, "kind")
    errored = wanted == WITH_ERRORS
    rows = reads.page(
        session,
        signed_in.tenant,
        (wanted_kind,) if wanted_kind else kinds.listed(),
        after,
        PAGE_SIZE,
        status=None if errored else wanted,
        name=name or None,
        completed_with_errors=True if errored else None,
    )
    shown = rows[:PAGE_SIZE]
    return page(
        request,
        "evaluations.html",
        signed_in,
        evaluations=list_rows.listed(session, shown),
        shown_as={row.id: _listed_as(session, row) for row in shown},
        has_more=len(rows) > PAGE_SIZE,
        statuses=LIST_STATUSES,
        status=wanted or "",
        name=name or "",
        kinds=choices,
        kind=wanted_kind or "",
    )


def _listed_as(session: Session, evaluation: Evaluation) -> dict[str, Any]:
    """How the list shows a row: its kind's label on a chip (none for plain evaluations), its
    title, its page and its metrics' labels, as its kind names them."""
    naming = kinds.naming_of(session, evaluation)
    kind = kinds.kind_of(evaluation)
    return {
        "chip": None
        if (evaluation.kind or kinds.DEFAULT_KIND) == kinds.DEFAULT_KIND
        else kind.label,
        "title": naming.title or evaluation.name or evaluation.id,
        "path": kind.console_path(evaluation),
        "metric_labels": naming.metric_labels,
    }


def _evaluation(session: Session, signed_in: ConsoleSession, evaluation_id: str) -> Evaluation:
    return service.get_or_404(session, signed_in.tenant, evaluation_id, kinds.listed())


def _naming(session: Session, evaluation: Evaluation) -> dict[str, Any]:
    """What the evaluation page calls it and its metrics, as its kind names them (an eval run
    by its eval's name and its own, its criteria by their names instead of their ids)."""
    naming = kinds.naming_of(session, evaluation)
    return {
        "title": naming.title or evaluation.name or evaluation.id,
        # Where it came from, when its kind says (an eval run's eval), and what it is.
        "origin": naming.eval_run,
        "kind_label": kinds.kind_of(evaluation).label,
        "metric_labels": naming.metric_labels,
    }


@router.get("/evaluations/{evaluation_id}")
def evaluation_page(
    request: Request,
    evaluation_id: str,
    session: SessionDep,
    signed_in: SignedIn,
    metric: str | None = None,
    status: str | None = None,
    order: str | None = None,
    fragile: str | None = None,
    after: str | None = None,
) -> HTMLResponse:
    evaluation = _evaluation(session, signed_in, evaluation_id)
    metric = metric or None
    service.check_metric(evaluation, metric)
    wanted = _choice(status, RESULT_STATUSES, "status")
    sort = _choice(order, ORDERS, "order")
    shaky = _choice(fragile, FRAGILE_CHOICES, "fragile")
    tenant = signed_in.tenant
    rows = reads.result_page(
        session,
        tenant,
        evaluation,
        after,
        RESULTS_PAGE_SIZE,
        metric=metric,
        status=wanted,
        order=sort,
        fragile=None if shaky is None else shaky == "true",
    )
    if rows is None:
        raise ProblemError(400, "Bad Request", f"after: {after!r} is not a result here")
    summary = read_model.to_schema(session, evaluation)
    results = [read_model.result_to_schema(row) for row in rows[:RESULTS_PAGE_SIZE]]
    indices = [result.test_case_index for result in results]
    cases = reads.test_cases_at(session, tenant, evaluation, indices)
    return page(
        request,
        "evaluation.html",
        signed_in,
        evaluation=summary,
        histograms=reads.score_histogram(session, tenant, evaluation),
        results=results,
        groups=views.case_groups(results),
        thumbnails={index: views.first_image(case) for index, case in cases.items()},
        # A conversation is listed by its turn count and its first user turn's words.
        conversations={index: transcript.summary(case) for index, case in cases.items()},
        **_naming(session, evaluation),
        has_more=len(rows) > RESULTS_PAGE_SIZE,
        live=summary.status not in TERMINAL_STATUSES,
        # Plain evaluations can be re-run from here, their estimate shown first (rerun_pages).
        rerun=(evaluation.kind or kinds.DEFAULT_KIND) == kinds.DEFAULT_KIND,
        # An open-ended kind (an online day) is not canceled: its owner (a rule) is disabled.
        cancelable=not kinds.kind_of(evaluation).open_ended,
        parent=kinds.kind_of(evaluation).console_parent(evaluation),
        metric=metric or "",
        status=wanted or "",
        order=sort or "",
        fragile=shaky or "",
        result_statuses=RESULT_STATUSES,
        orders=ORDERS,
        fragile_choices=FRAGILE_CHOICES,
    )


@router.get("/evaluations/{evaluation_id}/progress")
def evaluation_progress(
    request: Request,
    evaluation_id: str,
    session: SessionDep,
    signed_in: SignedIn,
    hx_request: Annotated[str | None, Header()] = None,
) -> HTMLResponse:
    """The live part of the evaluation page (htmx polls it while the evaluation runs)."""
    evaluation = _evaluation(session, signed_in, evaluation_id)
    summary = read_model.to_schema(session, evaluation)
    return live_page(
        request,
        "_progress.html",
        signed_in,
        live=summary.status not in TERMINAL_STATUSES,
        hx_request=hx_request,
        evaluation=summary,
        histograms=reads.score_histogram(session, signed_in.tenant, evaluation),
        **_naming(session, evaluation),
    )


@router.get("/evaluations/{evaluation_id}/export")
def export_results(
    evaluation_id: str,
    session: SessionDep,
    signed_in: SignedIn,
    runtime: RuntimeDep,
    format: str = "csv",
    metric: str | None = None,
    status: str | None = None,
) -> Response:
    """The results shown (same filters) as a CSV or JSON Lines download."""
    evaluation = _evaluation(session, signed_in, evaluation_id)
    metric = metric or None
    service.check_metric(evaluation, metric)
    chosen = _choice(format, ("csv", "jsonl"), "format") or "csv"
    return export.stream(
        runtime, evaluation, chosen, metric, _choice(status, RESULT_STATUSES, "status")
    )


@router.post("/evaluations/{evaluation_id}/cancel")
def cancel_evaluation(
    request: Request,
    evaluation_id: str,
    session: SessionDep,
    signed_in: SignedIn,
    runtime: RuntimeDep,
    csrf_token: Annotated[str, Form(max_length=128)] = "",
) -> Response:
    csrf.check(request, runtime.settings, signed_in.form_nonce, csrf_token)
    evaluation = service.get_for_update(session, signed_in.tenant, evaluation_id, kinds.listed())
    evaluation = lifecycle.cancel(session, runtime, evaluation)
    session.commit()
    page = kinds.kind_of(evaluation).console_path(evaluation)
    return see_other(page)


@router.get("/evaluations/{evaluation_id}/cases/{index}")
def test_case_page(
    request: Request,
    evaluation_id: str,
    index: Annotated[int, Path(ge=0, le=MAX_POSITION)],
    session: SessionDep,
    signed_in: SignedIn,
) -> HTMLResponse:
    evaluation = _evaluation(session, signed_in, evaluation_id)
    case = reads.test_case_at(session, signed_in.tenant, evaluation, index)
    if case is None:
        raise ProblemError(404, "Not Found", f"No test case {index} in this evaluation.")
    results = reads.results_of_case(session, signed_in.tenant, evaluation, index)
    # Metrics by their kind's labels (an eval run's results' `metric` is the criterion's id).
    labels = kinds.naming_of(session, evaluation).metric_labels
    # Each result's version against people (one read for the page).
    checked = calibration.agreement_of(session, signed_in.tenant.id, results)

    def named(metric: str) -> str:
        return labels.get(metric, metric)

    return page(
        request,
        "test_case.html",
        signed_in,
        evaluation=evaluation,
        case=case,
        results=[
            read_model.result_to_schema(row).model_copy(
                update={
                    "metric": named(row.metric),
                    "agreement": checked.get(row.metric_version or ""),
                }
            )
            for row in results
        ],
        specs={named(spec.get("name") or spec["type"]): spec for spec in evaluation.metrics},
    )


@router.get("/media/{sha256}")
def media(
    sha256: str,
    session: SessionDep,
    signed_in: SignedIn,
    if_none_match: Annotated[str | None, Header()] = None,
) -> Response:
    """An image or audio clip the signed-in tenant's rows reference (404 otherwise); a
    reviewer without `read` loads only those of the items they hold or labelled."""
    if READ not in signed_in.scopes and not access.may_load(
        session, signed_in.tenant.id, signed_in.actor, sha256
    ):
        raise not_found(sha256)
    return blob_response(session, signed_in.tenant.id, sha256, if_none_match)
