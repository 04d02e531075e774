"""Reads of an evaluation's per-metric running summaries (the `metric_summary` rows)."""

from typing import Any

from sqlalchemy import select

from app.models import Evaluation, MetricSummary
from app.repository import TenantScopedRepository


class SummaryReads(TenantScopedRepository[Evaluation]):
    """Per metric: counts, mean score and usage sums, kept as results are stored."""

    def result_summary(self, evaluation: Evaluation) -> list[dict[str, Any]]:
        """Per metric index: counts, mean score and usage sums (kept as results are stored)."""
        session, evaluation_id = self.session, self.owned(evaluation).id
        rows = session.scalars(
            select(MetricSummary).where(MetricSummary.evaluation_id == evaluation_id)
        )
        return [
            {
                "metric_index": row.metric_index,
                "stored": row.stored,
                "passed": row.passed,
                "failed": row.failed,
                "errored": row.errored,
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
            }
            for row in rows
        ]
