"""Which items and metrics of two sides pair up: scores per test-case id, the metrics both
sides share, what is left unmatched, and which matched items moved."""

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from app.comparisons.repository import ComparisonRepository
from app.comparisons.schemas import (
    ComparisonCreate,
    Direction,
    FragileCounts,
    MetricMismatch,
    Unmatched,
    UnmatchedItem,
)
from app.evaluations.kinds import kind_of
from app.models import Evaluation
from app.problems import ProblemError, field_error

# Unmatched items listed in a comparison; the counts cover all of them.
MAX_UNMATCHED_LISTED = 100

# (score, passed, fragile) per test-case id, per metric name; fragile is None for a result
# judged once.
Scored = tuple[float | None, bool | None, bool | None]
SideScores = dict[str, dict[str, Scored]]


def _by_metric(rows: Sequence[Any]) -> tuple[SideScores, set[str]]:
    """(score, passed, fragile) per test-case id per metric, and the ids that name more than
    one case (evaluations stored before such ids were refused at submit)."""
    found: SideScores = defaultdict(dict)
    repeated: set[str] = set()
    for case_id, metric, score, passed, fragile in rows:
        if case_id in found[metric]:
            repeated.add(case_id)
        found[metric][case_id] = (score, passed, fragile)
    return found, repeated


def set_aside_fragile(
    base: dict[str, Scored], cand: dict[str, Scored], exclude: bool
) -> tuple[dict[str, Scored], dict[str, Scored], FragileCounts]:
    """One metric's two sides with the matched items fragile on either side left out when
    `exclude`, and the counts: matched items fragile per side, those set aside, and the
    candidate's fragile items the baseline lacks."""
    matched = base.keys() & cand.keys()
    on_base = {case_id for case_id in matched if base[case_id][2]}
    on_cand = {case_id for case_id in matched if cand[case_id][2]}
    fragile = on_base | on_cand
    counts = FragileCounts(
        baseline=len(on_base),
        candidate=len(on_cand),
        set_aside=len(fragile) if exclude else 0,
        candidate_unmatched=sum(1 for case_id in cand.keys() - matched if cand[case_id][2]),
    )
    if not exclude or not fragile:
        return base, cand, counts
    return (
        {case_id: scored for case_id, scored in base.items() if case_id not in fragile},
        {case_id: scored for case_id, scored in cand.items() if case_id not in fragile},
        counts,
    )


def sides(
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


def clusters(
    repo: ComparisonRepository, baseline: Evaluation, candidate: Evaluation
) -> tuple[str, dict[str, Any]] | None:
    """What clusters the items (the metadata key, and each test-case id's value of it): the
    `cluster_by` the baseline was submitted with, else the candidate's; None when neither
    declared one (or their kind keeps its clusters elsewhere: a run's are per report row)."""
    for side in (baseline, candidate):
        if side.cluster_by and kind_of(side).summary_clusters:
            return side.cluster_by, repo.clusters(side.id, side.cluster_by)
    return None


def metric_specs(evaluation: Evaluation) -> dict[str, dict[str, Any]]:
    """The evaluation's metric specs by metric name."""
    return {spec.get("name") or spec["type"]: spec for spec in evaluation.metrics}


def compared_metrics(
    payload: ComparisonCreate,
    ours: dict[str, dict[str, Any]],
    theirs: dict[str, dict[str, Any]],
    labels: dict[str, str] | None = None,
) -> tuple[list[str], list[str], list[MetricMismatch]]:
    """The metric names to compare (same name and type on both sides), the names not compared,
    and the names both sides give to metrics of different types.

    `labels` maps a metric name to what a person calls it (an OpenAI eval run's criterion id,
    `<name>-<uuid>`, to the criterion's name): `payload.metrics` may name either."""
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
    labels = labels or {}
    by_label = {labels[name]: name for name in shared if name in labels}
    asked = [
        name if name in ours or name in theirs else by_label.get(name, name)
        for name in payload.metrics
    ]
    why = {mismatch.metric: mismatch.reason for mismatch in mismatched}
    errors = [
        field_error(
            ["metrics", index],
            f"{named!r} is {why[name]}"
            if name in why
            else f"{named!r} is not a metric of both sides",
            "type_mismatch" if name in why else "unknown",
        )
        for index, (named, name) in enumerate(zip(payload.metrics, asked, strict=True))
        if name not in shared
    ]
    if errors:
        both = [f"{labels[name]} ({name})" if name in labels else name for name in shared]
        raise ProblemError(
            422,
            "Invalid request",
            f"{errors[0].loc}: {errors[0].msg}; both have {both}",
            slug="validation",
            errors=errors,
        )
    return list(dict.fromkeys(asked)), not_compared, mismatched


def unmatched(
    base: SideScores,
    cand: SideScores,
    not_compared: list[str],
    mismatched: list[MetricMismatch],
    base_repeated: set[str],
    cand_repeated: set[str],
    missing: list[str],
) -> Unmatched:
    """What was never compared: items on one side only or with a repeated id, and metrics
    (`missing`: the baseline's that the candidate has no metric of that name and type for)."""
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
        missing_metrics=missing,
    )


def moved(
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
        (b_score, b_passed, _), (c_score, c_passed, _) = base[case_id], cand[case_id]
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
