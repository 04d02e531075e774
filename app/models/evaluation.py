from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, ForeignKey, Index, Integer, String, false
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, JSONType, UTCDateTime, utcnow


class Evaluation(Base):
    __tablename__ = "evaluation"
    __table_args__ = (
        Index("ix_evaluation_tenant_id_id", "tenant_id", "id"),
        Index("ix_evaluation_status_heartbeat_at", "status", "heartbeat_at"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenant.id", ondelete="CASCADE"))
    # "evaluation", or "run" for a dataset run (app/runs) that reuses the whole pipeline.
    kind: Mapped[str] = mapped_column(String(16), default="evaluation", server_default="evaluation")
    name: Mapped[str | None] = mapped_column(String(256), nullable=True)
    metadata_: Mapped[dict[str, str]] = mapped_column("metadata", JSONType, default=dict)
    # Validated metric specs as JSON, in submission order; a result's metric_index points here.
    metrics: Mapped[list[dict[str, Any]]] = mapped_column(JSONType)
    judge: Mapped[dict[str, Any] | None] = mapped_column(JSONType, nullable=True)
    webhook_endpoint_id: Mapped[str | None] = mapped_column(
        ForeignKey("webhook_endpoint.id", ondelete="SET NULL"), nullable=True
    )
    # False: judge answers are not reused from or shared with other evaluations.
    use_cache: Mapped[bool] = mapped_column(Boolean, default=True)
    status: Mapped[str] = mapped_column(String(16), default="queued")
    # Taking more test cases in batches until closed (`"open": true` at submit): never
    # completed while set (app/evaluations/batches.py).
    # No default on the Python side: rows inserted at revisions before the column stay valid.
    open: Mapped[bool] = mapped_column(Boolean, server_default=false())
    # A test-case metadata key grouping correlated cases (e.g. one image, several questions):
    # aggregates then add a cluster-robust standard error.
    cluster_by: Mapped[str | None] = mapped_column(String(256), nullable=True)
    total_test_cases: Mapped[int] = mapped_column(Integer)
    error: Mapped[dict[str, Any] | None] = mapped_column(JSONType, nullable=True)
    # How many times the evaluation's jobs were enqueued (the first time included).
    dispatch_attempts: Mapped[int] = mapped_column(Integer, default=0)
    # The X-Request-Id of the request that submitted it: worker log lines name it too.
    request_id: Mapped[str | None] = mapped_column(String(128), nullable=True)
    # Last sign of life from a job; the ticker re-enqueues evaluations whose heartbeat is stale.
    heartbeat_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    completed_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    # An open evaluation's last batch of test cases (its submit, then each append): retention
    # deletes one left open and idle past LOUPE_RETENTION_DAYS. None for the others.
    appended_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
