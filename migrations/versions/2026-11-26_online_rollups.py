"""online rollups: online_rollup (per rule, metric and UTC hour: results stored, scored,
passed, failed, errored, and the scores' sum and sum of squares), what a rule's trend reads

Revision ID: online2
Revises: online1
Create Date: 2026-11-26 18:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import app.db

revision: str = "online2"
down_revision: str | None = "online1"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "online_rollup",
        sa.Column("rule_id", sa.String(length=40), nullable=False),
        sa.Column("metric", sa.String(length=256), nullable=False),
        sa.Column("bucket_start", app.db.UTCDateTime(timezone=True), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("scored", sa.Integer(), nullable=False),
        sa.Column("passed", sa.Integer(), nullable=False),
        sa.Column("failed", sa.Integer(), nullable=False),
        sa.Column("errored", sa.Integer(), nullable=False),
        sa.Column("score_sum", sa.Float(), nullable=False),
        sa.Column("score_sq_sum", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["rule_id"],
            ["online_rule.id"],
            name=op.f("fk_online_rollup_rule_id_online_rule"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("rule_id", "metric", "bucket_start", name=op.f("pk_online_rollup")),
    )


def downgrade() -> None:
    op.drop_table("online_rollup")
