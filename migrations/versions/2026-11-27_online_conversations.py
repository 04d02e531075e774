"""online conversation calls: the calls a conversation rule sampled, held until their
conversation has been idle LOUPE_ONLINE_CONVERSATION_IDLE_SECONDS

Revision ID: conv2
Revises: conv1
Create Date: 2026-11-27 03:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

import app.db

revision: str = "conv2"
down_revision: str | None = "conv1"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _json() -> sa.types.TypeEngine:
    return sa.JSON(none_as_null=True).with_variant(
        postgresql.JSONB(none_as_null=True, astext_type=sa.Text()), "postgresql"
    )


def upgrade() -> None:
    op.create_table(
        "online_conversation_call",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("tenant_id", sa.String(length=40), nullable=False),
        sa.Column("rule_id", sa.String(length=40), nullable=False),
        sa.Column("conversation_key", sa.String(length=64), nullable=False),
        sa.Column("conversation_id", sa.Text(), nullable=False),
        sa.Column("trace_id", sa.String(length=32), nullable=False),
        sa.Column("span_id", sa.String(length=16), nullable=False),
        sa.Column("start_ns", sa.BigInteger(), nullable=False),
        sa.Column("exchange", _json(), nullable=False),
        sa.Column("received_at", app.db.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["tenant_id"],
            ["tenant.id"],
            name=op.f("fk_online_conversation_call_tenant_id_tenant"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["rule_id"],
            ["online_rule.id"],
            name=op.f("fk_online_conversation_call_rule_id_online_rule"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_online_conversation_call")),
    )
    op.create_index(
        "ix_online_conversation_call_conversation",
        "online_conversation_call",
        ["rule_id", "conversation_key"],
    )
    op.create_index(
        op.f("ix_online_conversation_call_received_at"),
        "online_conversation_call",
        ["received_at"],
        unique=False,
    )


def downgrade() -> None:
    op.drop_index(
        op.f("ix_online_conversation_call_received_at"), table_name="online_conversation_call"
    )
    op.drop_index("ix_online_conversation_call_conversation", table_name="online_conversation_call")
    op.drop_table("online_conversation_call")
