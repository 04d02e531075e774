"""Console pages comparing two evaluations of a kind (two evaluations, two runs, two OpenAI
eval runs...): `app/comparisons` does the statistics; each kind says what it is called, how its
sides and metrics are named and whether its items are test cases."""

from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from sqlalchemy.orm import Session

from app.api.deps import RuntimeDep, SessionDep
from app.comparisons import service as comparisons
from app.comparisons.schemas import ComparisonCreate
from app.console import csrf, reading
from app.console._render import SECURITY_HEADERS, SignedIn, page
from app.evaluations import kinds, reads
from app.models import Evaluation
from app.problems import ProblemError

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
    """Pick a baseline and a candidate among the tenant's recent finished evaluations of each
    kind, grouped by kind (those listed beside evaluations first) and named as their pages
    name them (an eval run `<eval name> · <run name>`)."""
    listed = kinds.listed()
    groups = []
    for name in (*listed, *(name for name in kinds.names() if name not in listed)):
        finished = reads.page(session, signed_in.tenant, (name,), None, CHOICES, status="completed")
        if finished:
            choices = [(row, _title(session, row)) for row in finished[:CHOICES]]
            groups.append((_plural(kinds.by_name(name).label), choices))
    return page(
        request,
        "compare.html",
        signed_in,
        groups=groups,
        baseline=baseline or "",
        candidate=candidate or "",
    )


def _plural(label: str) -> str:
    """A kind's label as a group's heading: "dataset run" -> "Dataset runs"."""
    return f"{label[:1].upper()}{label[1:]}s"


def _title(session: Session, evaluation: Evaluation) -> str:
    """An evaluation as its page names it (an eval run `<eval name> · <run name>`)."""
    return kinds.naming_of(session, evaluation).title or evaluation.name or evaluation.id


@router.post("/compare")
def compare(
    request: Request,
    session: SessionDep,
    signed_in: SignedIn,
    runtime: RuntimeDep,
    baseline_id: Annotated[str, Form(max_length=40)] = "",
    candidate_id: Annotated[str, Form(max_length=40)] = "",
    fragile: Annotated[str, Form(max_length=16)] = "",
    csrf_token: Annotated[str, Form(max_length=128)] = "",
) -> Response:
    csrf.check(request, runtime.settings, signed_in.nonce, csrf_token)
    if not baseline_id or not candidate_id:
        raise ProblemError(400, "Bad Request", "Pick both a baseline and a candidate.")
    if fragile not in ("", "exclude"):
        raise ProblemError(400, "Bad Request", f"fragile: {fragile!r} is not 'exclude'")
    comparison = comparisons.create(
        session,
        signed_in.tenant,
        ComparisonCreate(
            baseline_id=baseline_id,
            candidate_id=candidate_id,
            fragile="exclude" if fragile else "include",
        ),
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
    # Each side by its name beside its id, linked to its page (None once it has been deleted).
    found = comparisons.sides(session, signed_in.tenant, stored)
    kind = kinds.by_name(stored.kind)
    # A kind whose items are not test cases (a run's `subset/row_index` samples) shows them on
    # its own pages.
    cases: dict[str, dict[str, Any]] = {"baseline": {}, "candidate": {}}
    if kind.items_are_test_cases:
        for side, evaluation in found.items():
            if evaluation is not None:
                cases[side] = reads.test_cases_by_client_id(
                    session, signed_in.tenant, evaluation, ids
                )
    # Each side as its kind names it (an eval run by its eval's name and its own), its metrics
    # by their labels (an eval run's criteria by their names).
    names: dict[str, str | None] = {}
    links: dict[str, str | None] = {}
    metric_labels: dict[str, str] = {}
    for side, row in found.items():
        naming = kinds.naming_of(session, row) if row is not None else None
        names[side] = (naming.title if naming else None) or getattr(row, "name", None)
        links[side] = kind.console_path(row) if row is not None else None
        metric_labels |= naming.metric_labels if naming else {}
    comparison = comparisons.to_schema(stored)
    return page(
        request,
        "comparison.html",
        signed_in,
        comparison=comparison,
        types={m.metric: m.type for m in comparison.metrics},
        labels=metric_labels,
        names=names,
        links=links,
        items=items,
        # A test case once, its images once, with every metric that moved on it.
        case_groups=reading.by_test_case(items),
        has_more=has_more,
        cases=cases,
        direction=direction or "",
        directions=DIRECTIONS,
    )
