"""Comparison decisions: match two evaluations' (or runs') items, test each metric, store it.

Services flush but never commit; callers are endpoints or pages: `(session, tenant, ...)`.
"""

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from sqlalchemy.orm import Session

from app.comparisons.repository import ComparisonRepository
from app.comparisons.schemas import Comparison as ComparisonSchema
from app.comparisons.schemas import (
    ComparisonCreate,
    ComparisonItem,
    Direction,
    ItemSide,
    MetricComparison,
    MetricMismatch,
    Unmatched,
    UnmatchedItem,
)
from app.evaluations.intervals import metric_bounds
from app.ids import new_id
from app.models import Comparison, Evaluation, Tenant
from app.problems import Collected, ProblemError, field_error
from app.stats import Bounds, compare_metric, holm_adjust

# Unmatched items listed in a comparison; the counts cover all of them.
MAX_UNMATCHED_LISTED = 100

# (score, passed) per test-case id, per metric name.
SideScores = dict[str, dict[str, tuple[float | None, bool | None]]]


def _side(repo: ComparisonRepository, field: str, evaluation_id: str) -> Evaluation:
    side = repo.side(evaluation_id)
    if side is None:
        raise ProblemError(
            404,
            "Not Found",
            f"{field}: no evaluation or run {evaluation_id!r}.",
            slug="not-found",
            errors=[field_error([field], "no such evaluation or run", "not_found")],
        )
    if side.status != "completed":
        raise ProblemError(
            409,
            "Conflict",
            f"{field}: the {side.kind} is {side.status}; compare completed ones.",
            slug="comparison-not-completed",
            errors=[field_error([field], f"is {side.status}, not completed", "not_completed")],
        )
    return side


def _by_metric(rows: Sequence[Any]) -> tuple[SideScores, set[str]]:
    """(score, passed) per test-case id per metric, and the ids that name more than one case
    (evaluations stored before such ids were refused at submit)."""
    found: SideScores = defaultdict(dict)
    repeated: set[str] = set()
    for case_id, metric, score, passed in rows:
        if case_id in found[metric]:
            repeated.add(case_id)
        found[metric][case_id] = (score, passed)
    return found, repeated


def _sides(
    repo: ComparisonRepository,
    baseline_id: str,
    candidate_id: str,
    metrics: Sequence[str] | None = None,
) -> tuple[SideScores, SideScores, set[str], set[str]]:
    """Both sides' scores with every id either side repeats left out (which of two cases is
    the partner is unknowable), and those ids per side."""
    base, base_repeated = _by_metric(repo.scores(baseline_id, metrics))
    cand, cand_repeated = _by_metric(repo.scores(candidate_id, metrics))
    ambiguous = base_repeated | cand_repeated
    if ambiguous:
        for cases in (*base.values(), *cand.values()):
            for case_id in ambiguous:
                cases.pop(case_id, None)
    return base, cand, base_repeated, cand_repeated


def _metric_specs(evaluation: Evaluation) -> dict[str, dict[str, Any]]:
    return {spec.get("name") or spec["type"]: spec for spec in evaluation.metrics}


def _compared_metrics(
    payload: ComparisonCreate, ours: dict[str, dict[str, Any]], theirs: dict[str, dict[str, Any]]
) -> tuple[list[str], list[str], list[MetricMismatch]]:
    """The metric names to compare (same name and type on both sides), the names not compared,
    and the names both sides give to metrics of different types."""
    shared = [
        name for name in ours if name in theirs and ours[name]["type"] == theirs[name]["type"]
    ]
    mismatched = [
        MetricMismatch(
            metric=name,
            baseline_type=ours[name]["type"],
            candidate_type=theirs[name]["type"],
            reason=f"{ours[name]['type']} on the baseline, {theirs[name]['type']} on the "
            "candidate: scores of different metrics are not comparable",
        )
        for name in ours
        if name in theirs and name not in shared
    ]
    not_compared = list(dict.fromkeys(name for name in [*ours, *theirs] if name not in shared))
    if payload.metrics is None:
        return shared, not_compared, mismatched
    why = {mismatch.metric: mismatch.reason for mismatch in mismatched}
    errors = [
        field_error(
            ["metrics", index],
            f"{name!r} is {why[name]}"
            if name in why
            else f"{name!r} is not a metric of both sides",
            "type_mismatch" if name in why else "unknown",
        )
        for index, name in enumerate(payload.metrics)
        if name not in shared
    ]
    if errors:
        raise ProblemError(
            422,
            "Invalid request",
            f"{errors[0].loc}: {errors[0].msg}; both have {shared}",
            slug="validation",
            errors=errors,
        )
    return list(dict.fromkeys(payload.metrics)), not_compared, mismatched


def _unmatched(
    base: SideScores,
    cand: SideScores,
    not_compared: list[str],
    mismatched: list[MetricMismatch],
    base_repeated: set[str],
    cand_repeated: set[str],
) -> Unmatched:
    base_ids = {case_id for cases in base.values() for case_id in cases}
    cand_ids = {case_id for cases in cand.values() for case_id in cases}
    baseline_only, candidate_only = sorted(base_ids - cand_ids), sorted(cand_ids - base_ids)
    listed = [UnmatchedItem(side="baseline", test_case_id=i) for i in baseline_only] + [
        UnmatchedItem(side="candidate", test_case_id=i) for i in candidate_only
    ]
    ambiguous = sorted(base_repeated | cand_repeated)
    listed += [
        UnmatchedItem(side=side, test_case_id=case_id, reason="duplicate_id")
        for case_id in ambiguous
        for side, repeated in (("baseline", base_repeated), ("candidate", cand_repeated))
        if case_id in repeated
    ]
    return Unmatched(
        baseline_only=len(baseline_only),
        candidate_only=len(candidate_only),
        duplicate_ids=len(ambiguous),
        items=listed[:MAX_UNMATCHED_LISTED],
        metrics=not_compared,
        mismatched_metrics=mismatched,
    )


def _settings_differ(ours: dict[str, Any], theirs: dict[str, Any]) -> list[str]:
    """The settings two same-type specs set differently, but for name and threshold."""
    return sorted(
        key
        for key in {*ours, *theirs} - {"name", "type", "threshold"}
        if ours.get(key) != theirs.get(key)
    )


def _settings_notes(ours: dict[str, Any], theirs: dict[str, Any]) -> list[str]:
    """Notes on how two same-type specs differ: thresholds (pass/fail then differs with equal
    scores) and other settings (the scores may then measure different things)."""
    notes = []
    if ours.get("threshold") != theirs.get("threshold"):
        notes.append(
            f"thresholds differ (baseline {ours.get('threshold')}, candidate "
            f"{theirs.get('threshold')}): a pass on one side is not a pass on the other, so the "
            "pass-rate figures are null; the score statistics stand"
        )
    settings = _settings_differ(ours, theirs)
    if settings:
        notes.append(
            f"the metric's settings differ ({', '.join(settings)}): the two sides' scores may "
            "not measure the same thing"
        )
    return notes


def _bounds(ours: dict[str, Any], theirs: dict[str, Any]) -> Bounds:
    """The range both sides' scores lie in (psnr's `max_db` may differ between them)."""
    (low, high), (their_low, their_high) = metric_bounds(ours), metric_bounds(theirs)
    return min(low, their_low), max(high, their_high)


def _compare(
    metric: str,
    specs: tuple[dict[str, Any], dict[str, Any]],
    base: dict[str, tuple[float | None, bool | None]],
    cand: dict[str, tuple[float | None, bool | None]],
    alpha: float,
) -> dict[str, Any]:
    ours, theirs = specs
    matched = sorted(base.keys() & cand.keys())
    pairs = [
        (base[i], cand[i]) for i in matched if base[i][0] is not None and cand[i][0] is not None
    ]
    same_threshold = ours.get("threshold") == theirs.get("threshold")
    thresholded = (
        same_threshold
        and bool(pairs)
        and all(b[1] is not None and c[1] is not None for b, c in pairs)
    )
    paired = compare_metric(
        [b[0] for b, _ in pairs],  # type: ignore[misc]
        [c[0] for _, c in pairs],  # type: ignore[misc]
        [bool(b[1]) for b, _ in pairs] if thresholded else None,
        [bool(c[1]) for _, c in pairs] if thresholded else None,
        alpha,
        _bounds(ours, theirs),
    )
    fields = dict(paired.__dict__)
    fields["ci95"] = list(paired.ci95) if paired.ci95 else None
    fields["notes"] = [*paired.notes, *_settings_notes(ours, theirs)]
    fields["settings_differ"] = _settings_differ(ours, theirs)
    return {
        "metric": metric,
        "type": ours["type"],
        "baseline_threshold": ours.get("threshold"),
        "candidate_threshold": theirs.get("threshold"),
        **fields,
        "errored": {
            # A result without a score is an errored one (metrics score whatever they judge).
            "baseline": sum(1 for i in matched if base[i][0] is None),
            "candidate": sum(1 for i in matched if cand[i][0] is None),
        },
    }


# The note a metric gets when its verdict is undecided.
UNDECIDED_NOTE = (
    "the verdict is undecided: without a 95% interval of the difference no change can be told "
    "from noise, so 'no detectable change' would claim more than these pairs show"
)


def _verdict(row: dict[str, Any], adjusted: float | None, alpha: float) -> str:
    """improved / regressed on a significant adjusted p; undecided when pairs were compared
    but no interval could be made (n = 1, or below the bootstrap's minimum); else
    no_detectable_change."""
    difference = row["mean_difference"]
    if adjusted is not None and difference is not None and adjusted < alpha and difference != 0:
        return "improved" if difference > 0 else "regressed"
    if row["n"] and row["ci95"] is None:
        return "undecided"
    return "no_detectable_change"


def create(session: Session, tenant: Tenant, payload: ComparisonCreate) -> Comparison:
    """Compare two completed evaluations (or two runs) of the tenant, and store the answer."""
    repo = ComparisonRepository(session, tenant.id)
    # Both sides are looked up before either is refused: one answer names both.
    problems = Collected()
    with problems.catch():
        baseline = _side(repo, "baseline_id", payload.baseline_id)
    with problems.catch():
        candidate = _side(repo, "candidate_id", payload.candidate_id)
    problems.raise_if_any()
    if baseline.kind != candidate.kind:
        raise ProblemError(
            422,
            "Invalid request",
            f"candidate_id: a {candidate.kind}, but baseline_id is a {baseline.kind}; "
            "compare two evaluations or two runs",
            slug="validation",
            errors=[field_error(["candidate_id"], f"not a {baseline.kind}", "kind_mismatch")],
        )
    ours, theirs = _metric_specs(baseline), _metric_specs(candidate)
    names, not_compared, mismatched = _compared_metrics(payload, ours, theirs)
    base, cand, base_repeated, cand_repeated = _sides(repo, baseline.id, candidate.id)
    compared = [
        _compare(
            name, (ours[name], theirs[name]), base.get(name, {}), cand.get(name, {}), payload.alpha
        )
        for name in names
    ]
    for row, adjusted in zip(
        compared, holm_adjust([row["p_value"] for row in compared]), strict=True
    ):
        row["adjusted_p_value"] = adjusted
        row["verdict"] = _verdict(row, adjusted, payload.alpha)
        if row["verdict"] == "undecided":
            row["notes"].append(UNDECIDED_NOTE)
    comparison = Comparison(
        id=new_id("cmp"),
        tenant_id=tenant.id,
        kind=baseline.kind,
        baseline_id=baseline.id,
        candidate_id=candidate.id,
        alpha=payload.alpha,
        metrics=[MetricComparison(**row).model_dump(mode="json") for row in compared],
        unmatched=_unmatched(
            base, cand, not_compared, mismatched, base_repeated, cand_repeated
        ).model_dump(mode="json"),
    )
    repo.add(comparison)
    return comparison


def get_or_404(session: Session, tenant: Tenant, comparison_id: str) -> Comparison:
    comparison = ComparisonRepository(session, tenant.id).get(comparison_id)
    if comparison is None:
        raise ProblemError(404, "Not Found", f"No comparison {comparison_id!r}.", slug="not-found")
    return comparison


def to_schema(comparison: Comparison) -> ComparisonSchema:
    return ComparisonSchema(
        id=comparison.id,
        kind=comparison.kind,  # type: ignore[arg-type]
        baseline_id=comparison.baseline_id,
        candidate_id=comparison.candidate_id,
        alpha=comparison.alpha,
        metrics=[MetricComparison(**row) for row in comparison.metrics],
        unmatched=Unmatched(**comparison.unmatched),
        created_at=comparison.created_at,
    )


def _moved(
    metric: str,
    base: dict[str, Any],
    cand: dict[str, Any],
    direction: Direction | None,
    same_threshold: bool,
) -> list[tuple[float, str, str]]:
    """(difference, metric, test_case_id) of matched items whose score or pass/fail moved
    (pass/fail only under one threshold: under two, equal scores can pass on one side)."""
    moved = []
    for case_id in base.keys() & cand.keys():
        (b_score, b_passed), (c_score, c_passed) = base[case_id], cand[case_id]
        if b_score is None or c_score is None:
            continue
        if not same_threshold:
            b_passed = c_passed = None
        difference = c_score - b_score
        down = difference < 0 or (b_passed is True and c_passed is False)
        up = difference > 0 or (b_passed is False and c_passed is True)
        if (
            (direction == "regressed" and down)
            or (direction == "improved" and up)
            or direction is None
            and (up or down)
        ):
            moved.append((difference, metric, case_id))
    return moved


def items(
    session: Session,
    tenant: Tenant,
    comparison_id: str,
    metric: str | None,
    direction: Direction | None,
    after: str | None,
    limit: int,
) -> tuple[list[ComparisonItem], bool]:
    """The items that moved most: regressed ones most negative first, improved ones most
    positive first (both: largest change first); every pass/fail flip is among them."""
    comparison = get_or_404(session, tenant, comparison_id)
    names = [row["metric"] for row in comparison.metrics]
    if metric is not None and metric not in names:
        raise ProblemError(
            400,
            "Bad Request",
            f"metric: {metric!r} is not compared here ({names})",
            slug="bad-metric",
            field=["query", "metric"],
        )
    wanted = [metric] if metric is not None else names
    repo = ComparisonRepository(session, tenant.id)
    base, cand, _, _ = _sides(repo, comparison.baseline_id, comparison.candidate_id, wanted)
    # Comparisons stored before thresholds were recorded hold neither: one threshold, as then.
    same_threshold = {
        row["metric"]: row.get("baseline_threshold") == row.get("candidate_threshold")
        for row in comparison.metrics
    }
    moved = [
        entry
        for name in wanted
        for entry in _moved(name, base[name], cand[name], direction, same_threshold[name])
    ]
    if direction == "improved":
        moved.sort(key=lambda entry: (-entry[0], entry[1], entry[2]))
    elif direction == "regressed":
        moved.sort()
    else:
        moved.sort(key=lambda entry: (-abs(entry[0]), entry[1], entry[2]))
    ids = [f"{name}/{case_id}" for _, name, case_id in moved]
    start = 0
    if after is not None:
        if after not in ids:
            raise ProblemError(
                400,
                "Bad Request",
                f"after: {after!r} is not an item here",
                slug="bad-cursor",
                field=["query", "after"],
            )
        start = ids.index(after) + 1
    page = moved[start : start + limit]
    case_ids = [case_id for _, _, case_id in page]
    base_reasons = repo.reasons(comparison.baseline_id, wanted, case_ids)
    cand_reasons = repo.reasons(comparison.candidate_id, wanted, case_ids)
    return [
        ComparisonItem(
            id=f"{name}/{case_id}",
            metric=name,
            test_case_id=case_id,
            difference=difference,
            baseline=_item_side(base[name][case_id], base_reasons.get((name, case_id))),
            candidate=_item_side(cand[name][case_id], cand_reasons.get((name, case_id))),
        )
        for difference, name, case_id in page
    ], start + limit < len(moved)


def _item_side(scored: tuple[float | None, bool | None], reason: str | None) -> ItemSide:
    return ItemSide(score=scored[0], passed=scored[1], reason=reason)
