"""Evaluations as a list page shows them (the console's list): status, result counts and each
metric's pass rate, from their summary rows in one read.

None of what an evaluation read adds per metric (intervals, agreement with people, usage,
stability) is made: a page of 25 evaluations of ten metrics would make it 250 times for a
table that shows a pass rate. The counts are `read_model`'s own (`summary_totals`,
`result_counts`, `completed_with_errors`, `pass_rate`), so the list and an evaluation's page
cannot disagree.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from app.evaluations.counts import (
    completed_with_errors,
    pass_rate,
    result_counts,
    summary_totals,
)
from app.evaluations.repository import EvaluationRepository
from app.evaluations.schemas import ResultCounts
from app.models import Evaluation


@dataclass(frozen=True)
class ListedMetric:
    metric: str
    pass_rate: float | None
    errored: int


@dataclass(frozen=True)
class ListedEvaluation:
    id: str
    name: str | None
    status: str
    completed_with_errors: bool
    created_at: datetime
    result_counts: ResultCounts
    per_metric: list[ListedMetric]


def listed(session: Session, evaluations: Sequence[Evaluation]) -> list[ListedEvaluation]:
    """Each evaluation (one tenant's, a list page's) as a list shows it."""
    if not evaluations:
        return []
    summaries = EvaluationRepository(session, evaluations[0].tenant_id).result_summaries(
        evaluations
    )
    return [_listed(evaluation, summaries[evaluation.id]) for evaluation in evaluations]


def _listed(evaluation: Evaluation, summary: list[dict[str, Any]]) -> ListedEvaluation:
    by_index = {row["metric_index"]: row for row in summary}
    totals = summary_totals(evaluation, by_index)
    per_metric = []
    for index, spec in enumerate(evaluation.metrics):
        row = by_index.get(index, {})
        per_metric.append(
            ListedMetric(
                metric=spec.get("name") or spec["type"],
                pass_rate=pass_rate(row.get("passed", 0), row.get("failed", 0)),
                errored=row.get("errored", 0),
            )
        )
    return ListedEvaluation(
        id=evaluation.id,
        name=evaluation.name,
        status=evaluation.status,
        completed_with_errors=completed_with_errors(evaluation, totals),
        created_at=evaluation.created_at,
        result_counts=result_counts(evaluation, totals),
        per_metric=per_metric,
    )
