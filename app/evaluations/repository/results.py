"""Reads of an evaluation's results, through the evaluation (checked to be the tenant's)."""

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, or_, select, tuple_

from app.db import plain_rows
from app.models import Evaluation, MetricSummary, Result
from app.models.metric_summary import BIN_COLUMNS, HISTOGRAM_BINS
from app.repository import TenantScopedRepository

__all__ = ["HISTOGRAM_BINS", "ResultReads"]


class ResultReads(TenantScopedRepository[Evaluation]):
    """An evaluation's results: pages, one case's, scores and their aggregates."""

    def result_page(
        self,
        evaluation: Evaluation,
        after: str | None,
        limit: int,
        *,
        metric: str | None = None,
        status: str | None = None,
        order: str | None = None,
        fragile: bool | None = None,
    ) -> Sequence[Result] | None:
        """Results after the result `after`; `limit + 1` rows. None when `after` is not a result
        of this evaluation.

        Args:
            metric: only this metric's results.
            status: `passed`, `failed` or `errored` (as the per-metric summary counts them).
            order: `score_asc` or `score_desc`; results without a score come last. By default,
                (test case, metric) order.
            fragile: only results whose judgments straddle the threshold (True) or only those
                judged more than once whose judgments agree (False).
        """
        session, evaluation_id = self.session, self.owned(evaluation).id
        statement = select(Result).where(Result.evaluation_id == evaluation_id)
        if metric is not None:
            statement = statement.where(Result.metric == metric)
        if status == "passed":
            statement = statement.where(Result.passed.is_(True))
        elif status == "failed":
            statement = statement.where(Result.passed.is_(False))
        elif status == "errored":
            statement = statement.where(Result.error.is_not(None))
        if fragile is not None:
            statement = statement.where(Result.fragile.is_(fragile))
        anchor = None
        if after:
            anchor = session.execute(
                select(Result.score, Result.test_case_index, Result.metric_index).where(
                    Result.evaluation_id == evaluation_id, Result.id == after
                )
            ).one_or_none()
            if anchor is None:
                return None
        # Row comparisons, not ORs: an index range starts at the anchor, so a deep page reads
        # a page of index entries, not every entry before it.
        key = (Result.test_case_index, Result.metric_index)
        later_key = tuple_(*key) > tuple_(anchor[1], anchor[2]) if anchor else None
        if order is None:
            if later_key is not None:
                statement = statement.where(later_key)
            return session.scalars(statement.order_by(*key).limit(limit + 1)).all()
        # Scored results by score, then the unscored ones in (test case, metric) order: two
        # reads along ix_result_evaluation_id_score (descending: walked backwards, ties put in
        # test-case order as they come), never a sort of the whole evaluation.
        scored: list[Result] = []
        if anchor is None or anchor[0] is not None:
            by_score = statement.where(Result.score.is_not(None))
            if anchor is not None:
                score = anchor[0]
                bound = Result.score >= score if order == "score_asc" else Result.score <= score
                beyond = Result.score > score if order == "score_asc" else Result.score < score
                by_score = by_score.where(bound, or_(beyond, later_key))
            ranked = Result.score.asc() if order == "score_asc" else Result.score.desc()
            scored = list(session.scalars(by_score.order_by(ranked, *key).limit(limit + 1)))
            if len(scored) > limit:
                return scored
        unscored = statement.where(Result.score.is_(None))
        if anchor is not None and anchor[0] is None:
            unscored = unscored.where(later_key)
        rest = session.scalars(unscored.order_by(*key).limit(limit + 1 - len(scored)))
        return [*scored, *rest]

    def results_of_case(self, evaluation: Evaluation, index: int) -> Sequence[Result]:
        """Every metric's result on the test case at `index`, in metric order."""
        session, evaluation_id = self.session, self.owned(evaluation).id
        return session.scalars(
            select(Result)
            .where(Result.evaluation_id == evaluation_id, Result.test_case_index == index)
            .order_by(Result.metric_index)
        ).all()

    def metric_scores(self, evaluation: Evaluation, metric_index: int) -> list[float]:
        """One metric's stored scores (errored results have none), for its bootstrap interval."""
        session, evaluation_id = self.session, self.owned(evaluation).id
        return [
            float(score)
            for (score,) in plain_rows(
                session,
                "SELECT score FROM result WHERE evaluation_id = ? AND metric_index = ? "
                "AND score IS NOT NULL",
                [evaluation_id, metric_index],
            )
        ]

    def scores_by_case(self, evaluation: Evaluation, metric_index: int) -> list[tuple[int, float]]:
        """(test case index, score) of the metric's scored results, in test case order."""
        session, evaluation_id = self.session, self.owned(evaluation).id
        return [
            (int(index), float(score))
            for index, score in plain_rows(
                session,
                "SELECT test_case_index, score FROM result WHERE evaluation_id = ? "
                "AND metric_index = ? AND score IS NOT NULL ORDER BY test_case_index",
                [evaluation_id, metric_index],
            )
        ]

    def scores_by_cluster(
        self, evaluation: Evaluation, key: str
    ) -> dict[int, tuple[list[float], list[Any]]]:
        """Per metric index: the stored scores and their test cases' `metadata[key]`.

        Read on the driver (every poll of a clustered evaluation reads every score).
        """
        session, evaluation_id = self.session, self.owned(evaluation).id
        clusters = {}
        for index, metadata in plain_rows(
            session,
            'SELECT "index", metadata FROM test_case WHERE evaluation_id = ?',
            [evaluation_id],
        ):
            if isinstance(metadata, str):
                metadata = json.loads(metadata)
            clusters[index] = (metadata or {}).get(key)
        by_metric: dict[int, tuple[list[float], list[Any]]] = {}
        for metric_index, case_index, score in plain_rows(
            session,
            "SELECT metric_index, test_case_index, score FROM result "
            "WHERE evaluation_id = ? AND score IS NOT NULL",
            [evaluation_id],
        ):
            scores, groups = by_metric.setdefault(metric_index, ([], []))
            scores.append(score)
            groups.append(clusters.get(case_index))
        return by_metric

    def position_inconsistent_counts(
        self, evaluation: Evaluation, metric_indexes: list[int]
    ) -> dict[int, int]:
        """Per metric index: results whose two judge orders disagreed (pairwise metrics)."""
        session, evaluation_id = self.session, self.owned(evaluation).id
        if not metric_indexes:
            return {}
        rows = session.execute(
            select(Result.metric_index, func.count())
            .where(
                Result.evaluation_id == evaluation_id,
                Result.metric_index.in_(metric_indexes),
                Result.logs["position_consistent"].as_boolean().is_(False),
            )
            .group_by(Result.metric_index)
        )
        return {index: count for index, count in rows}

    def score_histogram(self, evaluation: Evaluation) -> dict[int, list[int]]:
        """Per metric index, how many scores fall in each tenth of [0, 1] (1.0 in the last):
        the counts its metric summaries keep as results are stored, not a read of them."""
        evaluation_id = self.owned(evaluation).id
        bins = [MetricSummary.__table__.c[name] for name in BIN_COLUMNS]
        rows = self.session.execute(
            select(MetricSummary.metric_index, *bins).where(
                MetricSummary.evaluation_id == evaluation_id, MetricSummary.scored > 0
            )
        )
        return {row[0]: [int(count) for count in row[1:]] for row in rows}
