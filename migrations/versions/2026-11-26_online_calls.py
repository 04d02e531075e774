"""online calls: the calls rules stored, with their span's and resource's scalar attributes,
so a rule made later can filter them (a backfill over the kept calls)

Revision ID: online6
Revises: online5
Create Date: 2026-11-26 21:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

import app.db

revision: str = "online6"
down_revision: str | None = "online5"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _json() -> sa.types.TypeEngine:
    return sa.JSON(none_as_null=True).with_variant(
        postgresql.JSONB(none_as_null=True, astext_type=sa.Text()), "postgresql"
    )


def upgrade() -> None:
    op.create_table(
        "online_call",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("tenant_id", sa.String(length=40), nullable=False),
        sa.Column("evaluation_id", sa.String(length=40), nullable=False),
        sa.Column("test_case_index", sa.Integer(), nullable=False),
        sa.Column("trace_id", sa.String(length=32), nullable=False),
        sa.Column("span_id", sa.String(length=16), nullable=False),
        sa.Column("received_at", app.db.UTCDateTime(timezone=True), nullable=False),
        sa.Column("attributes", _json(), nullable=False),
        sa.Column("resource", _json(), nullable=False),
        sa.ForeignKeyConstraint(
            ["tenant_id"],
            ["tenant.id"],
            name=op.f("fk_online_call_tenant_id_tenant"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["evaluation_id"],
            ["evaluation.id"],
            name=op.f("fk_online_call_evaluation_id_evaluation"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_online_call")),
    )
    op.create_index(
        "ix_online_call_tenant_id_received_at", "online_call", ["tenant_id", "received_at"]
    )
    op.create_index("ix_online_call_evaluation_id", "online_call", ["evaluation_id"])


def downgrade() -> None:
    op.drop_index("ix_online_call_evaluation_id", table_name="online_call")
    op.drop_index("ix_online_call_tenant_id_received_at", table_name="online_call")
    op.drop_table("online_call")
