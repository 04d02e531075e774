"""All SQL about a tenant's metric versions."""

from collections.abc import Sequence
from typing import Any

from sqlalchemy import and_, or_

from app.db import insert_ignoring_duplicates
from app.models import MetricVersion
from app.repository import TenantScopedRepository


class MetricVersionRepository(TenantScopedRepository[MetricVersion]):
    """One tenant's metric versions."""

    model = MetricVersion

    def get(self, version_id: str) -> MetricVersion | None:
        return self.get_by_id(version_id)

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
