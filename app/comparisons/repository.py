"""All SQL about comparisons: the stored rows and the two sides' results, scoped to one tenant."""

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import select

from app.db import plain_rows
from app.models import Comparison, Evaluation, Result
from app.repository import TenantScopedRepository


class ComparisonRepository(TenantScopedRepository[Comparison]):
    """One tenant's comparisons, and its evaluations' and runs' results as their sides."""

    model = Comparison

    def get(self, comparison_id: str) -> Comparison | None:
        return self.get_by_id(comparison_id)

    def page(self, after: str | None, limit: int) -> Sequence[Comparison]:
        """Newest first; `limit + 1` rows so the caller can tell whether more follow."""
        return self.keyset_page(
            self.get_base_statement(), Comparison.id, after or None, limit, descending=True
        )

    def side(self, evaluation_id: str) -> Evaluation | None:
        """The tenant's evaluation or run with this id (runs are evaluations of kind run)."""
        return self.session.scalars(
            select(Evaluation).where(
                Evaluation.tenant_id == self.tenant_id, Evaluation.id == evaluation_id
            )
        ).one_or_none()

    def add(self, comparison: Comparison) -> None:
        self.session.add(comparison)
        self.session.flush()

    def delete(self, comparison: Comparison) -> None:
        self.session.delete(self.owned(comparison))
        self.session.flush()

    def scores(
        self, evaluation_id: str, metrics: Sequence[str] | None = None
    ) -> list[tuple[str, str, float | None, bool | None, bool | None]]:
        """(test_case_id, metric, score, passed, fragile) of every stored result of the
        tenant's evaluation or run with this id (none for another tenant's or a deleted one);
        fragile is None for a result judged once.

        One query per side, no reasons or logs, read on the driver: through the ORM, 20,000
        rows cost ~0.4 s of row processing; this way ~0.05 s.
        """
        sql = (
            "SELECT r.test_case_id, r.metric, r.score, r.passed, r.fragile FROM result r "
            "JOIN evaluation e ON e.id = r.evaluation_id "
            "WHERE r.evaluation_id = ? AND e.tenant_id = ?"
        )
        parameters: list[str] = [evaluation_id, self.tenant_id]
        if metrics is not None:
            sql += f" AND r.metric IN ({', '.join('?' * len(metrics))})"
            parameters.extend(metrics)
        # SQLite hands booleans back as 0/1.
        return [
            (
                case_id,
                metric,
                score,
                None if passed is None else bool(passed),
                None if fragile is None else bool(fragile),
            )
            for case_id, metric, score, passed, fragile in plain_rows(self.session, sql, parameters)
        ]

    def clusters(self, evaluation_id: str, key: str) -> dict[str, Any]:
        """Each test case's `metadata[key]` by its test-case id, of the tenant's evaluation with
        this id (its `cluster_by`)."""
        sql = (
            "SELECT t.client_id, t.metadata FROM test_case t "
            "JOIN evaluation e ON e.id = t.evaluation_id "
            "WHERE t.evaluation_id = ? AND e.tenant_id = ?"
        )
        found = {}
        for case_id, metadata in plain_rows(self.session, sql, [evaluation_id, self.tenant_id]):
            if isinstance(metadata, str):
                metadata = json.loads(metadata)
            found[case_id] = (metadata or {}).get(key)
        return found

    def reasons(
        self, evaluation_id: str, metrics: Sequence[str], test_case_ids: Sequence[str]
    ) -> dict[tuple[str, str], str | None]:
        """Each listed result's reason, by (metric, test_case_id), of the tenant's evaluation
        or run with this id."""
        if not test_case_ids:
            return {}
        rows = self.session.execute(
            select(Result.metric, Result.test_case_id, Result.reason)
            .join(Evaluation, Evaluation.id == Result.evaluation_id)
            .where(
                Evaluation.tenant_id == self.tenant_id,
                Result.evaluation_id == evaluation_id,
                Result.metric.in_(list(metrics)),
                Result.test_case_id.in_(list(test_case_ids)),
            )
        )
        return {(metric, case_id): reason for metric, case_id, reason in rows}
