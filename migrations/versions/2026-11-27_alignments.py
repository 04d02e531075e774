"""alignment: a candidate metric version proposed from labelled disagreements, and the split of
its labelled items (issue 29 item 6)

Revision ID: align1
Revises: review2
Create Date: 2026-11-27 01:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

import app.db

revision: str = "align1"
down_revision: str | None = "review2"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _json() -> sa.types.TypeEngine:
    return sa.JSON(none_as_null=True).with_variant(
        postgresql.JSONB(none_as_null=True, astext_type=sa.Text()), "postgresql"
    )


def upgrade() -> None:
    op.create_table(
        "alignment",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("tenant_id", sa.String(length=40), nullable=False),
        sa.Column("metric_version", sa.String(length=40), nullable=False),
        sa.Column("candidate_version", sa.String(length=40), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("held_out_share", sa.Float(), nullable=False),
        sa.Column("proposal_items", _json(), nullable=False),
        sa.Column("held_out_items", _json(), nullable=False),
        sa.Column("notes_usage", _json(), nullable=False),
        sa.Column("decision", sa.String(length=16), nullable=True),
        sa.Column("decided_by", sa.String(length=80), nullable=True),
        sa.Column("decided_at", app.db.UTCDateTime(timezone=True), nullable=True),
        sa.Column("created_at", app.db.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["id"],
            ["evaluation.id"],
            name=op.f("fk_alignment_id_evaluation"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["tenant_id"],
            ["tenant.id"],
            name=op.f("fk_alignment_tenant_id_tenant"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_alignment")),
    )
    op.create_index(
        op.f("ix_alignment_tenant_id_metric_version"),
        "alignment",
        ["tenant_id", "metric_version"],
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_alignment_tenant_id_metric_version"), table_name="alignment")
    op.drop_table("alignment")
