from datetime import datetime

from sqlalchemy import Boolean, Float, ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, UTCDateTime, utcnow


class Label(Base):
    """A person's verdict on one judged item, for one metric version (issue 29).

    Bound to the version and to the item's content (`item_key`), not to a result row: deleting
    the evaluation keeps the label, and a re-run of the same version finds it again. The judge's
    score on the labelled result is kept beside it (`judge_*`), so agreement needs no result."""

    __tablename__ = "label"
    __table_args__ = (
        # One label per person (or key) per item and version: labelling again replaces it.
        UniqueConstraint("tenant_id", "metric_version", "item_key", "actor"),
        Index("ix_label_tenant_id_metric_version", "tenant_id", "metric_version"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenant.id", ondelete="CASCADE"))
    metric_version: Mapped[str] = mapped_column(String(40))
    # sha256 of the judged test case's content (app/review: the same content, the same key).
    item_key: Mapped[str] = mapped_column(String(64))
    # Where the label was given; plain ids (no foreign key): they may since have been deleted.
    result_id: Mapped[str | None] = mapped_column(String(40), nullable=True)
    evaluation_id: Mapped[str | None] = mapped_column(String(40), nullable=True)
    test_case_id: Mapped[str | None] = mapped_column(String(256), nullable=True)
    metric: Mapped[str] = mapped_column(String(128))
    # The person's value on the metric's scale, or None for a pass/fail label.
    value: Mapped[float | None] = mapped_column(Float, nullable=True)
    # The person's pass/fail: given, or the value against the threshold.
    passed: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    rationale: Mapped[str | None] = mapped_column(Text, nullable=True)
    # The judge's verdict on the labelled result, as it was when the label was given.
    judge_score: Mapped[float | None] = mapped_column(Float, nullable=True)
    judge_passed: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    threshold: Mapped[float | None] = mapped_column(Float, nullable=True)
    # How the item came to be labelled: `direct` (posted or imported), `random` (a review
    # queue's audit share: a random sample, the only labels the calibrated mean may use with
    # `direct` ones) or `routed` (a queue picked it for being near the threshold, fragile or
    # among the lowest scores: not a random sample).
    selection: Mapped[str] = mapped_column(String(16), server_default="direct")
    # The review queue it was labelled in (None: posted or imported).
    queue_id: Mapped[str | None] = mapped_column(String(40), nullable=True)
    # Who gave it: `person:<id>` or `key:<id>`, and their email or the key's name.
    actor: Mapped[str] = mapped_column(String(80))
    actor_name: Mapped[str | None] = mapped_column(String(320), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
