from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, JSONType, UTCDateTime, utcnow


class Alignment(Base):
    """What an evaluation of kind `alignment` (same id) was made from: a metric version, the
    candidate version proposed from its labelled disagreements, and how its labelled items were
    split between proposing the candidate and judging it (issue 29).

    Status, test cases (the held-out items), results (each held-out item judged by the current
    version, metric 0, and the candidate, metric 1), usage and cancel are the evaluation's."""

    __tablename__ = "alignment"
    __table_args__ = (
        Index("ix_alignment_tenant_id_metric_version", "tenant_id", "metric_version"),
    )

    id: Mapped[str] = mapped_column(
        ForeignKey("evaluation.id", ondelete="CASCADE"), primary_key=True
    )
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenant.id", ondelete="CASCADE"))
    # The version aligned (the candidate's parent) and the candidate proposed.
    metric_version: Mapped[str] = mapped_column(String(40))
    candidate_version: Mapped[str] = mapped_column(String(40))
    # The split: seed, held-out share asked for, and the item keys on each side.
    seed: Mapped[int] = mapped_column()
    held_out_share: Mapped[float] = mapped_column()
    proposal_items: Mapped[list[str]] = mapped_column(JSONType)
    held_out_items: Mapped[list[str]] = mapped_column(JSONType)
    # The one judge call that summarised the disagreements into notes: calls, tokens, cost.
    notes_usage: Mapped[dict[str, Any]] = mapped_column(JSONType, default=dict)
    # `activated` or `declined` once decided (None: not yet), by whom and when.
    decision: Mapped[str | None] = mapped_column(String(16), nullable=True)
    decided_by: Mapped[str | None] = mapped_column(String(80), nullable=True)
    decided_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
