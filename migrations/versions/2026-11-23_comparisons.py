"""comparisons: stored paired comparisons of two evaluations or two runs

Revision ID: stats2
Revises: stats1
Create Date: 2026-11-23 05:10:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

import app.db

revision: str = "stats2"
down_revision: str | None = "stats1"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _json() -> sa.types.TypeEngine:
    return sa.JSON(none_as_null=True).with_variant(
        postgresql.JSONB(none_as_null=True, astext_type=sa.Text()), "postgresql"
    )


def upgrade() -> None:
    op.create_table(
        "comparison",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("tenant_id", sa.String(length=40), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("baseline_id", sa.String(length=40), nullable=False),
        sa.Column("candidate_id", sa.String(length=40), nullable=False),
        sa.Column("alpha", sa.Float(), nullable=False),
        sa.Column("metrics", _json(), nullable=False),
        sa.Column("unmatched", _json(), nullable=False),
        sa.Column("created_at", app.db.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["tenant_id"],
            ["tenant.id"],
            name=op.f("fk_comparison_tenant_id_tenant"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["baseline_id"],
            ["evaluation.id"],
            name=op.f("fk_comparison_baseline_id_evaluation"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["candidate_id"],
            ["evaluation.id"],
            name=op.f("fk_comparison_candidate_id_evaluation"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_comparison")),
    )
    op.create_index("ix_comparison_tenant_id_id", "comparison", ["tenant_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_comparison_tenant_id_id", table_name="comparison")
    op.drop_table("comparison")
