"""Reads of an evaluation's per-metric running summaries (the `metric_summary` rows)."""

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Row, select

from app.models import Evaluation, MetricSummary, Result
from app.repository import TenantScopedRepository

# Read as rows, not mapped objects: a list page reads hundreds, and only copies their values.
_SUMMARY = MetricSummary.__table__


class SummaryReads(TenantScopedRepository[Evaluation]):
    """Per metric: counts, mean score and usage sums, kept as results are stored."""

    def result_summary(self, evaluation: Evaluation) -> list[dict[str, Any]]:
        """Per metric index: counts, mean score and usage sums (kept as results are stored)."""
        session, evaluation_id = self.session, self.owned(evaluation).id
        rows = session.execute(select(_SUMMARY).where(_SUMMARY.c.evaluation_id == evaluation_id))
        return [_summary(row) for row in rows]

    def result_summaries(
        self, evaluations: Sequence[Evaluation]
    ) -> dict[str, list[dict[str, Any]]]:
        """`result_summary` of each evaluation (by id) in one read: a list page's rows."""
        ids = [self.owned(evaluation).id for evaluation in evaluations]
        found: dict[str, list[dict[str, Any]]] = {evaluation_id: [] for evaluation_id in ids}
        if ids:
            for row in self.session.execute(
                select(_SUMMARY).where(_SUMMARY.c.evaluation_id.in_(ids))
            ):
                found[row.evaluation_id].append(_summary(row))
        return found

    def stabilities(self, evaluation: Evaluation, metric_index: int) -> list[dict[str, Any]]:
        """The `stability` of the metric's results judged more than once (a panel's agreement
        is computed from its members' scores in them)."""
        evaluation_id = self.owned(evaluation).id
        return [
            stability
            for stability in self.session.scalars(
                select(Result.stability).where(
                    Result.evaluation_id == evaluation_id,
                    Result.metric_index == metric_index,
                    Result.stability.is_not(None),
                )
            )
            if stability
        ]


def _summary(row: Row[Any]) -> dict[str, Any]:
    """Every column of a summary row by name (one call: a third of the time of copying them one
    by one, on a list page's hundreds), with what reads derive from them: the mean score, and
    no cost (None) where some call had no price."""
    summary = row._asdict()
    summary["mean_score"] = summary["score_sum"] / summary["scored"] if summary["scored"] else None
    if summary["judge_unpriced"]:
        summary["judge_cost_usd"] = None
    if summary["candidate_unpriced"]:
        summary["candidate_cost_usd"] = None
    return summary
