from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, Integer, String, UniqueConstraint, text
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, JSONType, UTCDateTime, utcnow


class ReviewQueue(Base):
    """Judged results of some evaluations and online rules routed to people to label
    (app/review): which metric, which items (routing), how many people per item, and how long
    a claim holds."""

    __tablename__ = "review_queue"
    __table_args__ = (Index("ix_review_queue_tenant_id", "tenant_id"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenant.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(256))
    # The metric's name, as the sources' results carry it.
    metric: Mapped[str] = mapped_column(String(128))
    # Plain ids (no foreign keys): a source deleted later simply feeds no more items.
    evaluation_ids: Mapped[list[str]] = mapped_column(JSONType, default=list)
    online_rule_ids: Mapped[list[str]] = mapped_column(JSONType, default=list)
    # `{near_threshold: {width} | null, fragile, lowest: {share} | null, audit_share}`.
    routing: Mapped[dict[str, Any]] = mapped_column(JSONType)
    reviewers_per_item: Mapped[int] = mapped_column(Integer)
    reservation_minutes: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class ReviewItem(Base):
    """One judged result a queue has taken in, and why (`reason`; None: routing passed it
    over, kept so it is decided once)."""

    __tablename__ = "review_item"
    __table_args__ = (
        UniqueConstraint("queue_id", "result_id"),
        Index("ix_review_item_queue_id_priority", "queue_id", "priority"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenant.id", ondelete="CASCADE"))
    queue_id: Mapped[str] = mapped_column(ForeignKey("review_queue.id", ondelete="CASCADE"))
    # The result it was taken in from (plain id: labels outlive the evaluation).
    result_id: Mapped[str] = mapped_column(String(40))
    evaluation_id: Mapped[str] = mapped_column(String(40))
    test_case_index: Mapped[int] = mapped_column(Integer)
    metric_version: Mapped[str] = mapped_column(String(40))
    item_key: Mapped[str] = mapped_column(String(64))
    # `near_threshold`, `fragile`, `lowest` (routed), `audit` (the random share), or None.
    reason: Mapped[str | None] = mapped_column(String(16), nullable=True)
    # 0 routed, 1 audit (offered after the routed ones), 2 not offered.
    priority: Mapped[int] = mapped_column(Integer)
    # How many people have labelled it in this queue.
    labelled: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class ReviewAssignment(Base):
    """An item offered to one person: reserved (until `expires_at`), labelled, released or
    withdrawn.

    The unique (item, slot) pair is what keeps an item with at most `reviewers_per_item`
    people: a claim takes a free slot by inserting, so two claims of the last slot cannot both
    succeed on PostgreSQL or SQLite; a released claim gives its slot up (NULL), a lapsed one
    is deleted by the claim that takes its slot. (item, actor) is unique: never twice to one
    person. (queue, actor) is unique among reserved rows: a person holds one item of a queue at
    a time, even when claiming from several requests at once (a claim drops the person's lapsed
    reservations first)."""

    __tablename__ = "review_assignment"
    __table_args__ = (
        UniqueConstraint("item_id", "slot"),
        UniqueConstraint("item_id", "actor"),
        Index("ix_review_assignment_queue_id_actor", "queue_id", "actor"),
        Index(
            "uq_review_assignment_reserved",
            "queue_id",
            "actor",
            unique=True,
            postgresql_where=text("status = 'reserved'"),
            sqlite_where=text("status = 'reserved'"),
        ),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenant.id", ondelete="CASCADE"))
    queue_id: Mapped[str] = mapped_column(ForeignKey("review_queue.id", ondelete="CASCADE"))
    item_id: Mapped[str] = mapped_column(ForeignKey("review_item.id", ondelete="CASCADE"))
    actor: Mapped[str] = mapped_column(String(80))
    # 0 .. reviewers_per_item - 1 while reserved or labelled; None once released.
    slot: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # `reserved`, `labelled`, `released` or `withdrawn` (its label deleted since).
    status: Mapped[str] = mapped_column(String(16))
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
