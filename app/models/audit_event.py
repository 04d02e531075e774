from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, JSONType, UTCDateTime, utcnow


class AuditEvent(Base):
    """Who changed what in a tenant and when: one row per state change, written in the same
    transaction as the change (a rolled-back change leaves none)."""

    __tablename__ = "audit_event"
    # The list reads a tenant's events newest first, by time (and id to break ties).
    __table_args__ = (Index("ix_audit_event_tenant_id_at", "tenant_id", "at"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenant.id", ondelete="CASCADE"))
    # `key:<key id>`, `person:<person id>`, `operator` (the CLI) or `system` (jobs, the ticker).
    actor: Mapped[str] = mapped_column(String(80))
    # `<object type>.<verb>`: evaluation.create, online_rule.disable, api_key.revoke, ...
    action: Mapped[str] = mapped_column(String(64))
    object_type: Mapped[str] = mapped_column(String(32))
    object_id: Mapped[str] = mapped_column(String(80))
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    # What else the change was about (a name, a kind, a status); never a secret.
    details: Mapped[dict[str, Any]] = mapped_column(JSONType, default=dict)
