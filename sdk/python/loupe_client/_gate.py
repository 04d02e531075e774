"""The comparison gate for CI (`loupe-client compare`, also `loupe compare`): a table of the
per-metric verdicts `POST /v1/comparisons` returns, and which of them regressed.

Prints one line per compared metric (baseline → candidate, the difference with its 95%
interval, the Holm-adjusted p and the verdict) and says whether the gate fails.
"""

from typing import Any

COLUMNS = ("metric", "baseline → candidate", "difference [95% CI]", "p (Holm)", "verdict")


def _number(value: float | None, digits: int = 3) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def _signed(value: float | None) -> str:
    return "—" if value is None else f"{value:+.3f}"


def table(comparison: dict[str, Any]) -> str:
    """The comparison as a fixed-width table, one row per metric, then the unmatched items."""
    rows = [COLUMNS]
    for metric in comparison["metrics"]:
        interval = metric.get("ci95")
        difference = _signed(metric.get("mean_difference"))
        if interval:
            difference += f" [{_signed(interval[0])}, {_signed(interval[1])}]"
        p_value = metric.get("adjusted_p_value")
        rows.append(
            (
                f"{metric['metric']} (n={metric['n']})",
                f"{_number(metric.get('baseline_mean'))} → {_number(metric.get('candidate_mean'))}",
                difference,
                "—" if p_value is None else f"{p_value:.3g}",
                metric["verdict"].replace("_", " ").upper()
                if metric["verdict"] == "regressed"
                else metric["verdict"].replace("_", " "),
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(COLUMNS))]
    lines = [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True))
        for row in rows
    ]
    lines.insert(1, "  ".join("-" * width for width in widths))
    unmatched = comparison["unmatched"]
    if unmatched["baseline_only"] or unmatched["candidate_only"]:
        lines.append(
            f"unmatched items: {unmatched['baseline_only']} only in the baseline, "
            f"{unmatched['candidate_only']} only in the candidate"
        )
    lines.append(f"comparison {comparison['id']} (alpha {comparison['alpha']})")
    return "\n".join(line.rstrip() for line in lines)


def regressed(comparison: dict[str, Any]) -> list[str]:
    """Names of the compared metrics whose verdict is regressed."""
    return [m["metric"] for m in comparison["metrics"] if m["verdict"] == "regressed"]
