"""review queues: review_queue (sources, metric, routing, people per item, reservation time),
review_item (a result taken in, and why) and review_assignment (an item offered to a person:
reserved, labelled or released, in one of the item's slots)

Revision ID: review3
Revises: align1
Create Date: 2026-11-27 01:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

import app.db

revision: str = "review3"
down_revision: str | None = "align1"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _json() -> sa.types.TypeEngine:
    return sa.JSON(none_as_null=True).with_variant(
        postgresql.JSONB(none_as_null=True, astext_type=sa.Text()), "postgresql"
    )


def _tenant(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["tenant_id"], ["tenant.id"], name=op.f(f"fk_{table}_tenant_id_tenant"), ondelete="CASCADE"
    )


def upgrade() -> None:
    op.create_table(
        "review_queue",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("tenant_id", sa.String(length=40), nullable=False),
        sa.Column("name", sa.String(length=256), nullable=False),
        sa.Column("metric", sa.String(length=128), nullable=False),
        sa.Column("evaluation_ids", _json(), nullable=False),
        sa.Column("online_rule_ids", _json(), nullable=False),
        sa.Column("routing", _json(), nullable=False),
        sa.Column("reviewers_per_item", sa.Integer(), nullable=False),
        sa.Column("reservation_minutes", sa.Integer(), nullable=False),
        sa.Column("created_at", app.db.UTCDateTime(timezone=True), nullable=False),
        _tenant("review_queue"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_review_queue")),
    )
    op.create_index("ix_review_queue_tenant_id", "review_queue", ["tenant_id"])
    op.create_table(
        "review_item",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("tenant_id", sa.String(length=40), nullable=False),
        sa.Column("queue_id", sa.String(length=40), nullable=False),
        sa.Column("result_id", sa.String(length=40), nullable=False),
        sa.Column("evaluation_id", sa.String(length=40), nullable=False),
        sa.Column("test_case_index", sa.Integer(), nullable=False),
        sa.Column("metric_version", sa.String(length=40), nullable=False),
        sa.Column("item_key", sa.String(length=64), nullable=False),
        sa.Column("reason", sa.String(length=16), nullable=True),
        sa.Column("priority", sa.Integer(), nullable=False),
        sa.Column("labelled", sa.Integer(), nullable=False),
        sa.Column("created_at", app.db.UTCDateTime(timezone=True), nullable=False),
        _tenant("review_item"),
        sa.ForeignKeyConstraint(
            ["queue_id"],
            ["review_queue.id"],
            name=op.f("fk_review_item_queue_id_review_queue"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_review_item")),
        sa.UniqueConstraint(
            "queue_id", "result_id", name=op.f("uq_review_item_queue_id_result_id")
        ),
    )
    op.create_index("ix_review_item_queue_id_priority", "review_item", ["queue_id", "priority"])
    op.create_table(
        "review_assignment",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("tenant_id", sa.String(length=40), nullable=False),
        sa.Column("queue_id", sa.String(length=40), nullable=False),
        sa.Column("item_id", sa.String(length=40), nullable=False),
        sa.Column("actor", sa.String(length=80), nullable=False),
        sa.Column("slot", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("expires_at", app.db.UTCDateTime(timezone=True), nullable=False),
        sa.Column("created_at", app.db.UTCDateTime(timezone=True), nullable=False),
        _tenant("review_assignment"),
        sa.ForeignKeyConstraint(
            ["queue_id"],
            ["review_queue.id"],
            name=op.f("fk_review_assignment_queue_id_review_queue"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["item_id"],
            ["review_item.id"],
            name=op.f("fk_review_assignment_item_id_review_item"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_review_assignment")),
        sa.UniqueConstraint("item_id", "slot", name=op.f("uq_review_assignment_item_id_slot")),
        sa.UniqueConstraint("item_id", "actor", name=op.f("uq_review_assignment_item_id_actor")),
    )
    op.create_index(
        "ix_review_assignment_queue_id_actor", "review_assignment", ["queue_id", "actor"]
    )


def downgrade() -> None:
    op.drop_index("ix_review_assignment_queue_id_actor", table_name="review_assignment")
    op.drop_table("review_assignment")
    op.drop_index("ix_review_item_queue_id_priority", table_name="review_item")
    op.drop_table("review_item")
    op.drop_index("ix_review_queue_tenant_id", table_name="review_queue")
    op.drop_table("review_queue")
