"""An evaluation's result counts: what its summary rows stored, and what never will be."""

from typing import Any

from app.evaluations.schemas import ResultCounts
from app.models import Evaluation

_TOTALS = ("passed", "failed", "errored", "stored")


def summary_totals(evaluation: Evaluation, by_index: dict[int, dict[str, Any]]) -> dict[str, int]:
    """Passed, failed, errored and stored results over its metrics' summary rows by index."""
    rows = [by_index.get(index, {}) for index in range(len(evaluation.metrics))]
    return {key: sum(row.get(key, 0) for row in rows) for key in _TOTALS}


def pass_rate(passed: int, failed: int) -> float | None:
    return passed / (passed + failed) if passed + failed else None


def result_counts(evaluation: Evaluation, totals: dict[str, int]) -> ResultCounts:
    """The evaluation's result counts from its `summary_totals`."""
    total = evaluation.total_test_cases * len(evaluation.metrics)
    return ResultCounts(
        total=total,
        passed=totals["passed"],
        failed=totals["failed"],
        errored=totals["errored"],
        **unscored(evaluation, total - totals["stored"]),
    )


def unscored(evaluation: Evaluation, count: int) -> dict[str, int]:
    """Results not stored: pending, or, once the evaluation was canceled or failed (it keeps
    what it stored; the rest will never come), canceled or skipped."""
    status = evaluation.status
    return {
        "pending": 0 if status in ("canceled", "failed") else count,
        "canceled": count if status == "canceled" else 0,
        "skipped": count if status == "failed" else 0,
    }


def completed_with_errors(evaluation: Evaluation, totals: dict[str, int]) -> bool:
    return evaluation.status == "completed" and totals["errored"] > 0
