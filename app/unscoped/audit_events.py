"""The retention sweep's delete of audit events across tenants, by age alone."""

from datetime import datetime

from sqlalchemy import delete
from sqlalchemy.orm import Session

from app.models import AuditEvent


class UnscopedAuditRepository:
    """Audit events of every tenant (the ticker's retention)."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def delete_before(self, cutoff: datetime) -> int:
        """Delete every event recorded before `cutoff`; returns how many."""
        deleted = self.session.execute(delete(AuditEvent).where(AuditEvent.at < cutoff))
        return int(deleted.rowcount or 0)  # type: ignore[attr-defined]
