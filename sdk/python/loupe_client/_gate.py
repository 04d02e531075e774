"""The comparison gate for CI (`loupe-client compare`, also `loupe compare`): a table of the
per-metric verdicts `POST /v1/comparisons` returns, and whether the gate passes.

Prints one line per compared metric (baseline → candidate, the difference with its 95% interval, the
Holm-adjusted p, the errored items per side, the fragile items per side and those set aside when any
metric has some, and the verdict), every note the comparison carries, and says whether the gate
fails (exit 1: a regressed metric, or a metric of the baseline the candidate lacks unless that is
allowed, and whatever `--fail-on` adds), passes (0), or cannot be decided (2: no metric compared
at all, a metric with nothing to compare, a metric whose 95% interval cannot be made — too few
pairs; the comparison's note says how many are needed —, or a metric whose settings differ between
the sides unless those are accepted).
"""

from collections.abc import Sequence
from typing import Any

COLUMNS = (
    "metric",
    "baseline → candidate",
    "difference [95% CI]",
    "p (Holm)",
    "errored",
    "verdict",
)
# What `--fail-on` takes: a metric that regressed, a candidate with more errored items, a
# candidate with fragile items (judgments straddling the threshold) in a compared metric, a
# candidate lacking some of the baseline's items (or ids a side repeats, left out).
FAIL_ON = ("regressed", "errored", "fragile", "unmatched")
FRAGILE_COLUMN = "fragile"
PASSED, GATE_FAILED, CANNOT = 0, 1, 2


def _number(value: float | None, digits: int = 3) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def _signed(value: float | None) -> str:
    return "—" if value is None else f"{value:+.3f}"


def _errored(metric: dict[str, Any]) -> tuple[int, int]:
    counts = metric.get("errored") or {}
    return counts.get("baseline", 0), counts.get("candidate", 0)


def _fragile(metric: dict[str, Any]) -> tuple[int, int, int, int]:
    """Matched items fragile on the baseline, on the candidate, and set aside, then the
    candidate's fragile items the baseline lacks (0 from a server before each was counted)."""
    counts = metric.get("fragile") or {}
    return (
        counts.get("baseline", 0),
        counts.get("candidate", 0),
        counts.get("set_aside", 0),
        counts.get("candidate_unmatched", 0),
    )


def _fragile_cell(metric: dict[str, Any]) -> str:
    base_fragile, cand_fragile, set_aside, new_fragile = _fragile(metric)
    cell = f"{base_fragile} → {cand_fragile}"
    if new_fragile:
        cell += f" (+{new_fragile} unmatched)"
    return cell + (f" ({set_aside} set aside)" if set_aside else "")


def _name(metric: dict[str, Any]) -> str:
    """A compared metric as people call it: an OpenAI eval run's criterion by its name (the
    server's `label`; its `metric` is `<name>-<uuid>`), others by their name."""
    return metric.get("label") or metric["metric"]


def _verdict(metric: dict[str, Any]) -> str:
    if metric["n"] == 0:
        return "NOTHING TO COMPARE"
    # The server says `undecided` itself when pairs made no interval (servers before it said
    # no_detectable_change with a null ci95).
    if metric["verdict"] == "undecided" or (
        metric.get("ci95") is None and metric["verdict"] != "regressed"
    ):
        return "CANNOT DECIDE"
    words = metric["verdict"].replace("_", " ")
    return words.upper() if metric["verdict"] == "regressed" else words


def table(comparison: dict[str, Any]) -> str:
    """The comparison as a fixed-width table, one row per metric, then the unmatched items."""
    # The fragile column only where some metric has fragile items (a metric judged once never
    # has): a column of zeros would say nothing.
    fragile = any(any(_fragile(metric)) for metric in comparison["metrics"])
    columns = (*COLUMNS[:-1], FRAGILE_COLUMN, COLUMNS[-1]) if fragile else COLUMNS
    rows: list[tuple[str, ...]] = [columns]
    for metric in comparison["metrics"]:
        interval = metric.get("ci95")
        difference = _signed(metric.get("mean_difference"))
        if interval:
            difference += f" [{_signed(interval[0])}, {_signed(interval[1])}]"
            # How the interval was made (`paired bootstrap bca`); comparisons stored before
            # the server named it had a paired t interval.
            difference += " " + (metric.get("ci_method") or "t").replace("_", " ")
        elif metric["n"]:
            difference += " [no interval]"
        p_value = metric.get("adjusted_p_value")
        base_errored, cand_errored = _errored(metric)
        errored = f"{base_errored} → {cand_errored}"
        if cand_errored > base_errored:
            errored += " MORE"
        rows.append(
            (
                f"{_name(metric)} (n={metric['n']})",
                f"{_number(metric.get('baseline_mean'))} → {_number(metric.get('candidate_mean'))}",
                difference,
                "—" if p_value is None else f"{p_value:.3g}",
                errored,
                *((_fragile_cell(metric),) if fragile else ()),
                _verdict(metric),
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(columns))]
    lines = [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True))
        for row in rows
    ]
    lines.insert(1, "  ".join("-" * width for width in widths))
    if not comparison["metrics"]:
        # Nothing was compared (the gate says why): a header over no row says nothing.
        lines = []
    unmatched = comparison["unmatched"]
    if unmatched["baseline_only"] or unmatched["candidate_only"]:
        lines.append(
            f"unmatched items: {unmatched['baseline_only']} only in the baseline, "
            f"{unmatched['candidate_only']} only in the candidate"
        )
    if unmatched.get("duplicate_ids"):
        lines.append(f"ids repeated on a side, left out: {unmatched['duplicate_ids']}")
    mismatched = {m["metric"] for m in unmatched.get("mismatched_metrics") or []}
    for mismatch in unmatched.get("mismatched_metrics") or []:
        lines.append(f"not compared: {mismatch['metric']}: {mismatch['reason']}")
    if comparison["metrics"]:
        # (With nothing compared, the gate's reason names them.)
        missing = set(missing_metrics(comparison))
        for name in unmatched.get("metrics") or []:
            if name in mismatched:
                continue
            side = "the baseline" if name in missing else "the candidate"
            if "missing_metrics" not in unmatched:
                side = "one side"  # a server that did not say which
            lines.append(f"not compared: {name}: only in {side}")
    for note in comparison.get("notes") or []:
        lines.append(f"note: {note}")
    for metric in comparison["metrics"]:
        for note in metric.get("notes") or []:
            lines.append(f"note: {_name(metric)}: {note}")
    handling = comparison.get("fragile") or "include"
    lines.append(
        f"comparison {comparison['id']} (alpha {comparison['alpha']}"
        + (", fragile items set aside)" if handling == "exclude" else ")")
    )
    return "\n".join(line.rstrip() for line in lines)


def missing_metrics(comparison: dict[str, Any]) -> list[str]:
    """The baseline's metrics the candidate has no metric of that name and type for (the
    server's `unmatched.missing_metrics`; none from a server before it said so)."""
    return list(comparison["unmatched"].get("missing_metrics") or [])


def missing_items(comparison: dict[str, Any]) -> str | None:
    """How many of the baseline's items were never compared (the candidate lacks them, or a
    side repeats their id), or None when every one was matched."""
    unmatched = comparison["unmatched"]
    parts = []
    if unmatched["baseline_only"]:
        count = unmatched["baseline_only"]
        parts.append(
            f"{count} item{'' if count == 1 else 's'} of the baseline not in the candidate"
        )
    if unmatched.get("duplicate_ids"):
        count = unmatched["duplicate_ids"]
        parts.append(f"{count} id{'' if count == 1 else 's'} repeated on a side, left out")
    return "; ".join(parts) or None


def regressed(comparison: dict[str, Any]) -> list[str]:
    """Names of the compared metrics whose verdict is regressed."""
    return [_name(m) for m in comparison["metrics"] if m["verdict"] == "regressed"]


def more_errored(comparison: dict[str, Any]) -> list[str]:
    """`name (b → c)` of the compared metrics where the candidate errored on more items."""
    found = []
    for metric in comparison["metrics"]:
        base_errored, cand_errored = _errored(metric)
        if cand_errored > base_errored:
            found.append(f"{_name(metric)} ({base_errored} → {cand_errored})")
    return found


def fragile_in_candidate(comparison: dict[str, Any]) -> list[str]:
    """`name (n)` of the compared metrics where the candidate has fragile items: matched ones
    (counted whether or not they were set aside) and those the baseline lacks."""
    found = []
    for metric in comparison["metrics"]:
        _, cand_fragile, _, new_fragile = _fragile(metric)
        if new_fragile:
            found.append(f"{_name(metric)} ({cand_fragile} + {new_fragile} unmatched)")
        elif cand_fragile:
            found.append(f"{_name(metric)} ({cand_fragile})")
    return found


def uncompared(comparison: dict[str, Any]) -> list[str]:
    """Why each compared metric with no pair to compare (n = 0) could not be compared."""
    reasons = []
    for metric in comparison["metrics"]:
        if metric["n"]:
            continue
        base_errored, cand_errored = _errored(metric)
        reasons.append(
            f"{_name(metric)}: no item has a score on both sides (errored items: baseline "
            f"{base_errored}, candidate {cand_errored})"
        )
    return reasons


def nothing_compared(comparison: dict[str, Any]) -> str | None:
    """Why no metric was compared at all (the sides share none), or None when one was."""
    if comparison["metrics"]:
        return None
    unmatched = comparison["unmatched"]
    mismatched = {m["metric"] for m in unmatched.get("mismatched_metrics") or []}
    only = [name for name in unmatched.get("metrics") or [] if name not in mismatched]
    why = "the two sides share no metric (same name and type)"
    if only:
        why += f"; on one side only: {', '.join(only)}"
    if mismatched:
        why += f"; of another type on each side: {', '.join(sorted(mismatched))}"
    return why


def undecidable(comparison: dict[str, Any]) -> list[str]:
    """Why each compared metric with pairs but no 95% interval (too few pairs: the comparison's
    notes say how many are needed) cannot decide the gate: without an interval no change can be
    told from noise."""
    reasons = []
    for metric in comparison["metrics"]:
        if not metric["n"] or (metric.get("ci95") is not None and metric["verdict"] != "undecided"):
            continue
        reasons.append(
            f"{_name(metric)} (n={metric['n']}): no 95% interval of the difference can be made "
            f"from {metric['n']} pair{'' if metric['n'] == 1 else 's'}"
        )
    return reasons


def settings_differ(comparison: dict[str, Any]) -> list[str]:
    """`name (settings)` of the compared metrics whose sides' specs differ beyond the
    threshold (the server's `settings_differ`)."""
    return [
        f"{_name(metric)} ({', '.join(metric['settings_differ'])})"
        for metric in comparison["metrics"]
        if metric.get("settings_differ")
    ]


def decide(
    comparison: dict[str, Any],
    fail_on: Sequence[str],
    accept_settings_change: bool = False,
    allow_missing_metrics: bool = False,
    metrics_named: bool = False,
) -> tuple[int, list[str]]:
    """The gate's exit code and the lines saying why.

    A failure (a regressed metric, more errored items when `fail_on` has "errored", fragile items in
    the candidate when it has "fragile", baseline items the candidate lacks when it has "unmatched",
    a metric of the baseline the candidate lacks unless `allow_missing_metrics` or `metrics_named`)
    is 1 whatever else holds; otherwise the gate cannot decide (2) when no metric was compared, a
    metric has nothing to compare or no interval, or a metric's settings differ between the sides
    (unless `accept_settings_change`); otherwise 0.

    Args:
        metrics_named: the caller named the metrics to gate on (`--metric`): the server refuses
            one the candidate lacks, and the others are not the gate's.
    """
    lines = []
    failed = False
    # A candidate could pass by dropping the metric that would regress: no verdict covers it.
    # With nothing compared at all the gate cannot decide (2), which already says why.
    dropped = missing_metrics(comparison) if comparison["metrics"] and not metrics_named else []
    if dropped and allow_missing_metrics:
        lines.append(
            "WARNING: metrics of the baseline missing from the candidate, not compared (allowed "
            f"by --allow-missing-metrics): {', '.join(dropped)}"
        )
    elif dropped:
        lines.append(
            f"FAIL: metrics of the baseline missing from the candidate: {', '.join(dropped)} (no "
            "verdict covers them; --allow-missing-metrics passes without them)"
        )
        failed = True
    fell = regressed(comparison)
    if fell and "regressed" in fail_on:
        lines.append(f"FAIL: regressed: {', '.join(fell)}")
        failed = True
    elif fell:
        # A --fail-on list without `regressed` leaves regressions out of the gate, as asked;
        # they are said all the same, as the other conditions left out are.
        lines.append(f"WARNING: regressed: {', '.join(fell)} (--fail-on regressed fails on this)")
    errored = more_errored(comparison)
    if errored and "errored" in fail_on:
        lines.append(f"FAIL: more errored items in the candidate: {', '.join(errored)}")
        failed = True
    elif errored:
        lines.append(
            f"WARNING: more errored items in the candidate: {', '.join(errored)} "
            "(--fail-on errored fails on this)"
        )
    shaky = fragile_in_candidate(comparison)
    if shaky and "fragile" in fail_on:
        lines.append(f"FAIL: fragile items in the candidate: {', '.join(shaky)}")
        failed = True
    elif shaky:
        lines.append(
            f"WARNING: fragile items in the candidate: {', '.join(shaky)} "
            "(--fail-on fragile fails on this)"
        )
    uncovered = missing_items(comparison)
    if uncovered and "unmatched" in fail_on:
        lines.append(f"FAIL: unmatched items: {uncovered}")
        failed = True
    elif uncovered:
        lines.append(
            f"WARNING: unmatched items: {uncovered}; the gate saw only the items both sides have "
            "(--fail-on unmatched fails on this)"
        )
    cannot = []
    nothing = nothing_compared(comparison)
    if nothing:
        cannot.append(f"CANNOT: nothing was compared: {nothing}")
    empty = uncompared(comparison)
    if empty:
        cannot.append("CANNOT: the comparison cannot be made for " + "; ".join(empty))
    small = undecidable(comparison)
    if small:
        cannot.append("CANNOT: the gate cannot decide on " + "; ".join(small))
    changed = settings_differ(comparison)
    if changed and accept_settings_change:
        lines.append(
            "WARNING: the metric's settings differ (accepted by --accept-settings-change): "
            + ", ".join(changed)
        )
    elif changed:
        cannot.append(
            "CANNOT: the metric's settings differ, so the scores may not measure the same "
            f"thing: {', '.join(changed)} (--accept-settings-change accepts this)"
        )
    lines.extend(cannot)
    if failed:
        return GATE_FAILED, lines
    if cannot:
        return CANNOT, lines
    watched = {
        "regressed": "regressed",
        "errored": "has more errored items",
        "fragile": "has fragile items",
    }
    said = [watched[f] for f in FAIL_ON if f in fail_on and f in watched]
    found = ["no compared metric " + " or ".join(said)] if said else []
    if "unmatched" in fail_on:
        found.append("the candidate has every item of the baseline")
    lines.append("OK: " + "; ".join(found))
    return PASSED, lines
