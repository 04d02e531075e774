from datetime import datetime
from typing import Any

from sqlalchemy import Float, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, JSONType, UTCDateTime, utcnow


class Comparison(Base):
    """A paired comparison of two evaluations (or two runs) of one tenant, as computed.

    The statistics are stored as answered, so a link to a comparison shows the same numbers;
    its items are recomputed from the two sides' results, which no longer change.
    """

    __tablename__ = "comparison"
    __table_args__ = (Index("ix_comparison_tenant_id_id", "tenant_id", "id"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenant.id", ondelete="CASCADE"))
    # "evaluation" or "run": what both sides are.
    kind: Mapped[str] = mapped_column(String(16))
    baseline_id: Mapped[str] = mapped_column(ForeignKey("evaluation.id", ondelete="CASCADE"))
    candidate_id: Mapped[str] = mapped_column(ForeignKey("evaluation.id", ondelete="CASCADE"))
    alpha: Mapped[float] = mapped_column(Float)
    # "include" or "exclude": whether items fragile on either side were compared (as asked).
    fragile: Mapped[str] = mapped_column(String(8), server_default="include", default="include")
    # Per compared metric: the statistics and verdict (app/comparisons/schemas.MetricComparison).
    metrics: Mapped[list[dict[str, Any]]] = mapped_column(JSONType)
    # Items on one side only, counted and listed (capped), and metrics on one side only.
    unmatched: Mapped[dict[str, Any]] = mapped_column(JSONType)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
