"""Console pages comparing two evaluations of a kind (two evaluations, two runs, two OpenAI
eval runs...): `app/comparisons` does the statistics; each kind says what it is called, how its
sides and metrics are named and whether its items are test cases."""

import re
from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response
from sqlalchemy.orm import Session

from app.api.deps import RuntimeDep, SessionDep
from app.comparisons import service as comparisons
from app.comparisons.schemas import ComparisonCreate
from app.console import csrf, reading
from app.console._render import SignedIn, page, see_other
from app.console.auth import ConsoleSession
from app.evaluations import kinds, reads
from app.models import Comparison, Evaluation
from app.problems import ProblemError, field_error

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
    return _form(request, session, signed_in, baseline or "", candidate or "")


def _form(
    request: Request,
    session: Session,
    signed_in: ConsoleSession,
    baseline: str,
    candidate: str,
    fragile: str = "",
    problem: ProblemError | None = None,
) -> HTMLResponse:
    """Pick a baseline and a candidate among the tenant's recent finished evaluations of each
    kind, grouped by kind (those listed beside evaluations first), each named as its page names
    it (an eval run `<eval name> · <run name>`) with what tells it from another of that name:
    its short id, when it was created and what its kind adds (a run's model and dataset).
    A refused comparison comes back here, its choices kept and its problem said in words."""
    listed = kinds.listed()
    groups = []
    for name in (*listed, *(name for name in kinds.names() if name not in listed)):
        finished = reads.page(session, signed_in.tenant, (name,), None, CHOICES, status="completed")
        if finished:
            kind = kinds.by_name(name)
            shown = finished[:CHOICES]
            details = kind.told_apart(session, shown)
            choices = [(row, _choice(session, row, details.get(row.id))) for row in shown]
            groups.append((_plural(kind.label), choices))
    return page(
        request,
        "compare.html",
        signed_in,
        status_code=problem.status if problem else 200,
        groups=groups,
        baseline=baseline,
        candidate=candidate,
        fragile=fragile,
        problems=_in_words(problem) if problem else [],
        at_fault={error.loc for error in problem.errors or []} if problem else set(),
    )


def _plural(label: str) -> str:
    """A kind's label as a group's heading: "dataset run" -> "Dataset runs"."""
    return f"{label[:1].upper()}{label[1:]}s"


def short_id(evaluation_id: str) -> str:
    """An id as a picker tells it apart: its prefix and last six characters (`evn_…9f3a0c`);
    the characters after the prefix start with the creation time, alike for ids made together."""
    prefix, _, rest = evaluation_id.partition("_")
    return f"{prefix}_…{rest[-6:]}" if rest and len(rest) > 8 else evaluation_id


def _choice(session: Session, evaluation: Evaluation, detail: str | None) -> str:
    """An evaluation as the pickers list it: its title (an eval run `<eval name> · <run
    name>`), short id, creation time and what its kind adds (a run's model and dataset)."""
    title = kinds.naming_of(session, evaluation).title or evaluation.name
    said = [title] if title else []
    said += [short_id(evaluation.id), f"{evaluation.created_at:%Y-%m-%d %H:%M:%S}"]
    return " · ".join(said + ([detail] if detail else []))


# A comparison's fields by what the form calls them.
_SIDES = {"baseline_id": "baseline", "candidate_id": "candidate"}
_FIELD = re.compile(r"\b(baseline_id|candidate_id)\b")


def _in_words(problem: ProblemError) -> list[str]:
    """A refused comparison's problem as sentences naming the form's fields: one for each
    field at fault (a problem naming several joins their details with `; `)."""
    detail = problem.detail or problem.title
    said = []
    for part in re.split(r"; (?=(?:baseline_id|candidate_id): )", detail):
        field, colon, rest = part.partition(": ")
        if colon and field in _SIDES:
            part = f"{_SIDES[field].capitalize()}: {rest}"
        part = _FIELD.sub(lambda found: "the " + _SIDES[found.group(1)], part)
        said.append(part if part.endswith(".") else part + ".")
    return said


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
    csrf.check(request, runtime.settings, signed_in.form_nonce, csrf_token)
    try:
        comparison = _create(session, signed_in, baseline_id, candidate_id, fragile)
    except ProblemError as problem:
        if not 400 <= problem.status < 500 or problem.status == 429:
            raise
        kept = fragile if fragile == "exclude" else ""
        return _form(request, session, signed_in, baseline_id, candidate_id, kept, problem)
    session.commit()
    return see_other(f"/console/comparisons/{comparison.id}")


def _create(
    session: Session, signed_in: ConsoleSession, baseline_id: str, candidate_id: str, fragile: str
) -> Comparison:
    """The comparison the form asks for, or the problem naming every field at fault."""
    missing = [
        field_error([field], "pick one", "missing")
        for field, value in (("baseline_id", baseline_id), ("candidate_id", candidate_id))
        if not value
    ]
    if missing:
        raise ProblemError(
            400,
            "Bad Request",
            "; ".join(f"{error.loc}: pick one" for error in missing),
            errors=missing,
        )
    if fragile not in ("", "exclude"):
        raise ProblemError(400, "Bad Request", f"fragile: {fragile!r} is not 'exclude'")
    return comparisons.create(
        session,
        signed_in.tenant,
        ComparisonCreate(
            baseline_id=baseline_id,
            candidate_id=candidate_id,
            fragile="exclude" if fragile else "include",
        ),
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
