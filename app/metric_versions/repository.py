"""All SQL about a tenant's metric versions."""

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import and_, func, or_, select

from app.db import insert_ignoring_duplicates
from app.models import Evaluation, Label, MetricVersion, Result
from app.repository import TenantScopedRepository


class MetricVersionRepository(TenantScopedRepository[MetricVersion]):
    """One tenant's metric versions."""

    model = MetricVersion

    def get(self, version_id: str) -> MetricVersion | None:
        return self.get_by_id(version_id)

    def many(self, version_ids: Iterable[str]) -> dict[str, MetricVersion]:
        """The tenant's versions with these ids, by id, in one query."""
        wanted = sorted(set(version_ids))
        if not wanted:
            return {}
        rows = self.session.scalars(self.get_base_statement().where(MetricVersion.id.in_(wanted)))
        return {row.id: row for row in rows}

    def label_stamps(self, version_ids: Iterable[str]) -> dict[str, tuple[int, datetime]]:
        """Per version with labels: how many, and when the newest was given or changed (what
        a cached agreement is keyed by), in one query."""
        wanted = sorted(set(version_ids))
        if not wanted:
            return {}
        rows = self.session.execute(
            select(Label.metric_version, func.count(), func.max(Label.updated_at))
            .where(Label.tenant_id == self.tenant_id, Label.metric_version.in_(wanted))
            .group_by(Label.metric_version)
        ).all()
        return {version: (int(count), newest) for version, count, newest in rows}

    def result_places(self, result_ids: Iterable[str]) -> dict[str, int]:
        """The test case index of each of these results that still exists, in one query."""
        wanted = sorted(set(result_ids))
        if not wanted:
            return {}
        rows = self.session.execute(
            select(Result.id, Result.test_case_index)
            .join(Evaluation, Evaluation.id == Result.evaluation_id)
            .where(Evaluation.tenant_id == self.tenant_id, Result.id.in_(wanted))
        ).all()
        return {result_id: int(index) for result_id, index in rows}

    def add_missing(self, rows: list[dict[str, Any]]) -> None:
        """Insert the versions not stored yet; one another submission stored first (at the
        same moment included) is left as it is (INSERT ... ON CONFLICT DO NOTHING)."""
        for row in rows:
            if row["tenant_id"] != self.tenant_id:  # pragma: no cover - a caller's bug
                raise ValueError("a metric version of another tenant")
        insert_ignoring_duplicates(self.session, MetricVersion, rows)

    def page(
        self, type_: str | None, name: str | None, after: str | None, limit: int
    ) -> Sequence[MetricVersion]:
        """`limit + 1` of the tenant's versions, newest first (created_at, then id), past the
        version `after` (an unknown cursor answers from the start)."""
        statement = self.get_base_statement()
        if type_ is not None:
            statement = statement.where(MetricVersion.type == type_)
        if name is not None:
            statement = statement.where(MetricVersion.name == name)
        cursor = self.get(after) if after else None
        if cursor is not None:
            statement = statement.where(
                or_(
                    MetricVersion.created_at < cursor.created_at,
                    and_(
                        MetricVersion.created_at == cursor.created_at,
                        MetricVersion.id < cursor.id,
                    ),
                )
            )
        ordered = statement.order_by(MetricVersion.created_at.desc(), MetricVersion.id.desc())
        return self.session.scalars(ordered.limit(limit + 1)).all()

    def activated_children(self, parent_ids: Iterable[str]) -> dict[str, str]:
        """Per version, the newest version made from it and activated (by an alignment), in
        one query; versions with none are absent."""
        wanted = sorted(set(parent_ids))
        if not wanted:
            return {}
        rows = self.session.execute(
            self.get_base_statement()
            .with_only_columns(MetricVersion.parent_id, MetricVersion.id)
            .where(MetricVersion.parent_id.in_(wanted), MetricVersion.status == "active")
            .order_by(MetricVersion.created_at, MetricVersion.id)
        ).all()
        return {parent: child for parent, child in rows}
