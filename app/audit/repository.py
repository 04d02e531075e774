"""All SQL about a tenant's audit events."""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from app.models import AuditEvent
from app.repository import TenantScopedRepository


@dataclass(frozen=True)
class AuditFilter:
    """Which events a list shows (None: any)."""

    actor: str | None = None
    action: str | None = None
    object_type: str | None = None
    object_id: str | None = None
    since: datetime | None = None
    until: datetime | None = None


class AuditRepository(TenantScopedRepository[AuditEvent]):
    """One tenant's audit events."""

    model = AuditEvent

    def page(self, where: AuditFilter, after: str | None, limit: int) -> Sequence[AuditEvent]:
        """`limit + 1` of the tenant's events matching `where`, newest first, past `after`."""
        statement = self.get_base_statement()
        for column, value in (
            (AuditEvent.actor, where.actor),
            (AuditEvent.action, where.action),
            (AuditEvent.object_type, where.object_type),
            (AuditEvent.object_id, where.object_id),
        ):
            if value is not None:
                statement = statement.where(column == value)
        if where.since is not None:
            statement = statement.where(AuditEvent.at >= where.since)
        if where.until is not None:
            statement = statement.where(AuditEvent.at < where.until)
        # Ids sort by creation time, so id order is the order the events were recorded in.
        return self.keyset_page(statement, AuditEvent.id, after, limit, descending=True)
