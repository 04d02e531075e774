"""Console pages comparing two evaluations (or two runs, or two OpenAI eval runs):
`app/comparisons` does the statistics."""

from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.api.deps import RuntimeDep, SessionDep
from app.comparisons import service as comparisons
from app.comparisons.repository import ComparisonRepository
from app.comparisons.schemas import ComparisonCreate
from app.console import csrf, reading
from app.console._render import SECURITY_HEADERS, SignedIn, page
from app.evals.labels import RunLabels, run_labels
from app.evals.service import KIND as EVAL_RUN
from app.evaluations.repository import EvaluationRepository
from app.models import Evaluation
from app.problems import ProblemError
from app.runs.repository import RunRepository

router = APIRouter(prefix="/console", include_in_schema=False)

CHOICES = 50
ITEMS_PAGE_SIZE = 20
DIRECTIONS = ("regressed", "improved")


@router.get("/compare")
def compare_form(
    request: Request,
    session: SessionDep,
    signed_in: SignedIn,
    baseline: str | None = None,
    candidate: str | None = None,
) -> HTMLResponse:
    """Pick a baseline and a candidate among the tenant's recent finished evaluations, runs and
    OpenAI eval runs (named `<eval name> · <run name>`, as their pages are)."""
    tenant_id = signed_in.tenant.id
    finished = EvaluationRepository(session, tenant_id).page(None, CHOICES, status="completed")
    eval_runs = EvaluationRepository(session, tenant_id, (EVAL_RUN,)).page(
        None, CHOICES, status="completed"
    )[:CHOICES]
    labels = run_labels(session, tenant_id, [row.id for row in eval_runs])
    runs = [
        (run, evaluation)
        for run, evaluation in RunRepository(session, tenant_id).page(None, CHOICES)
        if evaluation.status == "completed"
    ]
    return page(
        request,
        "compare.html",
        signed_in,
        evaluations=finished[:CHOICES],
        runs=runs[:CHOICES],
        eval_runs=[(row, _eval_run_name(row, labels.get(row.id))) for row in eval_runs],
        baseline=baseline or "",
        candidate=candidate or "",
    )


def _eval_run_name(run: Evaluation, labels: RunLabels | None) -> str:
    """An eval run as its page names it: `<eval name> · <run name>`."""
    name = run.name or run.id
    return f"{labels.eval_name or labels.eval_id} · {name}" if labels else name


@router.post("/compare")
def compare(
    request: Request,
    session: SessionDep,
    signed_in: SignedIn,
    runtime: RuntimeDep,
    baseline_id: Annotated[str, Form(max_length=40)] = "",
    candidate_id: Annotated[str, Form(max_length=40)] = "",
    csrf_token: Annotated[str, Form(max_length=128)] = "",
) -> Response:
    csrf.check(request, runtime.settings, signed_in.nonce, csrf_token)
    if not baseline_id or not candidate_id:
        raise ProblemError(400, "Bad Request", "Pick both a baseline and a candidate.")
    comparison = comparisons.create(
        session,
        signed_in.tenant,
        ComparisonCreate(baseline_id=baseline_id, candidate_id=candidate_id),
    )
    session.commit()
    return RedirectResponse(
        f"/console/comparisons/{comparison.id}", status_code=303, headers=SECURITY_HEADERS
    )


@router.get("/comparisons/{comparison_id}")
def comparison_page(
    request: Request,
    comparison_id: str,
    session: SessionDep,
    signed_in: SignedIn,
    direction: str | None = None,
    after: str | None = None,
) -> HTMLResponse:
    """Per-metric differences with intervals and verdicts, then the items that moved side by
    side: the test case once, both answers, both scores, both reasons."""
    stored = comparisons.get_or_404(session, signed_in.tenant, comparison_id)
    if direction and direction not in DIRECTIONS:
        raise ProblemError(
            400, "Bad Request", f"direction: {direction!r} is not one of {DIRECTIONS}"
        )
    items, has_more = comparisons.items(
        session,
        signed_in.tenant,
        comparison_id,
        None,
        direction or None,  # type: ignore[arg-type]
        after or None,
        ITEMS_PAGE_SIZE,
    )
    ids = [item.test_case_id for item in items]
    # Each side by its name beside its id (None once it has been deleted).
    sides = ComparisonRepository(session, signed_in.tenant.id)
    found = {
        "baseline": sides.side(stored.baseline_id),
        "candidate": sides.side(stored.candidate_id),
    }
    # Runs name items `subset/row_index`; their samples are on the run pages.
    cases: dict[str, dict[str, Any]] = {"baseline": {}, "candidate": {}}
    if stored.kind in ("evaluation", EVAL_RUN):
        evaluations = EvaluationRepository(session, signed_in.tenant.id)
        for side, evaluation in found.items():
            if evaluation is not None:
                cases[side] = evaluations.test_cases_by_client_id(evaluation, ids)
    names = {side: getattr(row, "name", None) for side, row in found.items()}
    # An eval run by its eval's name and its own, its criteria by their names.
    metric_labels: dict[str, str] = {}
    if stored.kind == EVAL_RUN:
        labels = run_labels(session, signed_in.tenant.id, [stored.baseline_id, stored.candidate_id])
        for side, row in found.items():
            if row is not None:
                names[side] = _eval_run_name(row, labels.get(row.id))
        for side_labels in labels.values():
            metric_labels |= side_labels.criteria
    comparison = comparisons.to_schema(stored)
    return page(
        request,
        "comparison.html",
        signed_in,
        comparison=comparison,
        types={m.metric: m.type for m in comparison.metrics},
        labels=metric_labels,
        names=names,
        items=items,
        # A test case once, its images once, with every metric that moved on it.
        case_groups=reading.by_test_case(items),
        has_more=has_more,
        cases=cases,
        direction=direction or "",
        directions=DIRECTIONS,
    )
