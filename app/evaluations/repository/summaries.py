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
    return {
        "metric_index": row.metric_index,
        "stored": row.stored,
        "passed": row.passed,
        "failed": row.failed,
        "errored": row.errored,
        "fragile": row.fragile,
        "all_passed": row.all_passed,
        "incomplete": row.incomplete,
        "mean_score": row.score_sum / row.scored if row.scored else None,
        "scored": row.scored,
        "score_sum": row.score_sum,
        "score_sq_sum": row.score_sq_sum,
        "calls": row.calls,
        "failed_calls": row.failed_calls,
        "prompt_tokens": row.prompt_tokens,
        "completion_tokens": row.completion_tokens,
        "judge_cost_usd": None if row.judge_unpriced else row.judge_cost_usd,
        "candidate_calls": row.candidate_calls,
        "candidate_failed_calls": row.candidate_failed_calls,
        "candidate_prompt_tokens": row.candidate_prompt_tokens,
        "candidate_completion_tokens": row.candidate_completion_tokens,
        "candidate_cost_usd": None if row.candidate_unpriced else row.candidate_cost_usd,
        "interval": row.interval,
    }
