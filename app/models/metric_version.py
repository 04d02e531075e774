from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, JSONType, UTCDateTime, utcnow


class MetricVersion(Base):
    """One version of a judged metric in a tenant: what changes its verdicts (type, criteria,
    steps or rubric, the options the prompt reads, the judge), hashed into its id.

    Results record the version that scored them; labels and agreement are bound to it, so a
    changed prompt or judge is a new version that earns its agreement again (issue 29)."""

    __tablename__ = "metric_version"
    __table_args__ = (Index("ix_metric_version_tenant_id_created_at", "tenant_id", "created_at"),)

    # `mv_` and the first 24 hex digits of sha256(tenant id, canonical definition).
    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenant.id", ondelete="CASCADE"))
    type: Mapped[str] = mapped_column(String(64))
    # The metric's name when the version was first seen (a version may carry several names).
    name: Mapped[str] = mapped_column(String(128))
    # Exactly what was hashed, so a reader sees what the version is.
    definition: Mapped[dict[str, Any]] = mapped_column(JSONType)
    # `active` (used by submissions), `candidate` (proposed by an alignment, not yet used),
    # `declined` (a candidate turned down).
    status: Mapped[str] = mapped_column(String(16), default="active")
    # The version an alignment derived this one from (None: written by a submission).
    parent_id: Mapped[str | None] = mapped_column(String(40), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
