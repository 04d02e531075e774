"""otlp pending: GenAI spans and the log records carrying their messages, each kept until the
other arrives in its own request (at most LOUPE_OTLP_JOIN_SECONDS)

Revision ID: online4
Revises: online3
Create Date: 2026-11-26 18:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

import app.db

revision: str = "online4"
down_revision: str | None = "online3"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _json() -> sa.types.TypeEngine:
    return sa.JSON(none_as_null=True).with_variant(
        postgresql.JSONB(none_as_null=True, astext_type=sa.Text()), "postgresql"
    )


def upgrade() -> None:
    op.create_table(
        "otlp_pending",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("tenant_id", sa.String(length=40), nullable=False),
        sa.Column("trace_id", sa.String(length=32), nullable=False),
        sa.Column("span_id", sa.String(length=16), nullable=False),
        sa.Column("what", sa.String(length=8), nullable=False),
        sa.Column("body", _json(), nullable=False),
        sa.Column("received_at", app.db.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["tenant_id"],
            ["tenant.id"],
            name=op.f("fk_otlp_pending_tenant_id_tenant"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_otlp_pending")),
    )
    op.create_index("ix_otlp_pending_span", "otlp_pending", ["tenant_id", "span_id"])
    op.create_index(
        op.f("ix_otlp_pending_received_at"), "otlp_pending", ["received_at"], unique=False
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_otlp_pending_received_at"), table_name="otlp_pending")
    op.drop_index("ix_otlp_pending_span", table_name="otlp_pending")
    op.drop_table("otlp_pending")
