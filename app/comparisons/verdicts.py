"""How one metric's matched pairs are tested and judged: the paired statistics, notes on how
the two sides' specs differ, and the verdict after Holm's adjustment."""

from typing import Any

from app.comparisons.matching import Scored
from app.comparisons.schemas import FragileCounts, FragileHandling
from app.evaluations.intervals import metric_bounds
from app.stats import Bounds, compare_metric, with_clusters

# What clusters a comparison's items: the metadata key and each test-case id's value of it.
Clusters = tuple[str, dict[str, Any]]


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


def compare(
    metric: str,
    specs: tuple[dict[str, Any], dict[str, Any]],
    base: dict[str, Scored],
    cand: dict[str, Scored],
    alpha: float,
    clusters: Clusters | None = None,
) -> dict[str, Any]:
    """One metric's paired statistics over the items both sides scored, as a row of
    MetricComparison fields (without the adjusted p-value and verdict, which need every row);
    with `clusters`, its test, interval and detectable effect count clusters, not items."""
    ours, theirs = specs
    matched = sorted(base.keys() & cand.keys())
    paired_ids = [i for i in matched if base[i][0] is not None and cand[i][0] is not None]
    pairs = [(base[i], cand[i]) for i in paired_ids]
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
    if clusters is not None:
        cluster_by, of_case = clusters
        paired = with_clusters(
            paired,
            [b[0] for b, _ in pairs],  # type: ignore[misc]
            [c[0] for _, c in pairs],  # type: ignore[misc]
            [of_case.get(i) for i in paired_ids],
            alpha,
            _bounds(ours, theirs),
            cluster_by,
        )
    fields = dict(paired.__dict__)
    fields["cluster_by"] = clusters[0] if clusters is not None and paired.clusters else None
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


def fragile_notes(counts: FragileCounts, handling: FragileHandling) -> list[str]:
    """What a metric's fragile items mean for its figures: how many were set aside, or that
    the figures count them; and the candidate's fragile items the baseline lacks."""
    notes = _matched_fragile_notes(counts, handling)
    if counts.candidate_unmatched:
        notes.append(
            f"{counts.candidate_unmatched} fragile item"
            f"{'' if counts.candidate_unmatched == 1 else 's'} of the candidate not in the "
            "baseline (not compared)"
        )
    return notes


def _matched_fragile_notes(counts: FragileCounts, handling: FragileHandling) -> list[str]:
    if counts.set_aside:
        return [
            f"{counts.set_aside} matched item{'' if counts.set_aside == 1 else 's'} fragile on "
            f"either side (baseline {counts.baseline}, candidate {counts.candidate}: the "
            "judgments straddle the threshold) set aside; the figures cover the others"
        ]
    if handling == "include" and (counts.baseline or counts.candidate):
        return [
            f"fragile items (the judgments straddle the threshold): baseline {counts.baseline}, "
            f"candidate {counts.candidate}; their pass/fail is as much the judge's as the "
            "output's (fragile: exclude sets them aside)"
        ]
    return []


# The note a metric gets when its verdict is undecided.
UNDECIDED_NOTE = (
    "the verdict is undecided: without a 95% interval of the difference no change can be told "
    "from noise, so 'no detectable change' would claim more than these pairs show"
)
# Its note when no item was scored on both sides: nothing was measured at all.
NOTHING_COMPARED_NOTE = (
    "the verdict is undecided: no item was scored on both sides (no shared test-case id, or "
    "every shared one errored on a side), so nothing was compared"
)


def verdict(row: dict[str, Any], adjusted: float | None, alpha: float) -> str:
    """improved / regressed on a significant adjusted p; undecided when no interval could be
    made (no pair at all, n = 1, or below the bootstrap's minimum); else no_detectable_change.
    """
    difference = row["mean_difference"]
    if adjusted is not None and difference is not None and adjusted < alpha and difference != 0:
        return "improved" if difference > 0 else "regressed"
    if row["ci95"] is None:
        return "undecided"
    return "no_detectable_change"


def undecided_note(row: dict[str, Any]) -> str:
    return UNDECIDED_NOTE if row["n"] else NOTHING_COMPARED_NOTE
