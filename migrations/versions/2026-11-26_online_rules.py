"""online rules: online_rule (what production spans a tenant has judged), online_rule_count
(per rule, per UTC day: received, matched, sampled, judged, skipped by reason) and
online_rule_day (the evaluation holding a rule's judged calls of a day)

Revision ID: online1
Revises: fail1
Create Date: 2026-11-26 17:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

import app.db

revision: str = "online1"
down_revision: str | None = "fail1"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _json() -> sa.types.TypeEngine:
    return sa.JSON(none_as_null=True).with_variant(
        postgresql.JSONB(none_as_null=True, astext_type=sa.Text()), "postgresql"
    )


def upgrade() -> None:
    op.create_table(
        "online_rule",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("tenant_id", sa.String(length=40), nullable=False),
        sa.Column("name", sa.String(length=256), nullable=False),
        sa.Column("filter", _json(), nullable=False),
        sa.Column("sampling_rate", sa.Float(), nullable=False),
        sa.Column("metrics", _json(), nullable=False),
        sa.Column("judge", _json(), nullable=True),
        sa.Column("target", sa.String(length=16), nullable=False),
        sa.Column("daily_usd", sa.Float(), nullable=True),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        sa.Column("created_at", app.db.UTCDateTime(timezone=True), nullable=False),
        sa.Column("updated_at", app.db.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["tenant_id"],
            ["tenant.id"],
            name=op.f("fk_online_rule_tenant_id_tenant"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_online_rule")),
    )
    op.create_index("ix_online_rule_tenant_id", "online_rule", ["tenant_id"])
    op.create_table(
        "online_rule_count",
        sa.Column("rule_id", sa.String(length=40), nullable=False),
        sa.Column("day", sa.String(length=10), nullable=False),
        sa.Column("counter", sa.String(length=64), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["rule_id"],
            ["online_rule.id"],
            name=op.f("fk_online_rule_count_rule_id_online_rule"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("rule_id", "day", "counter", name=op.f("pk_online_rule_count")),
    )

    op.create_table(
        "online_rule_day",
        sa.Column("rule_id", sa.String(length=40), nullable=False),
        sa.Column("day", sa.String(length=10), nullable=False),
        sa.Column("evaluation_id", sa.String(length=40), nullable=False),
        sa.ForeignKeyConstraint(
            ["rule_id"],
            ["online_rule.id"],
            name=op.f("fk_online_rule_day_rule_id_online_rule"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["evaluation_id"],
            ["evaluation.id"],
            name=op.f("fk_online_rule_day_evaluation_id_evaluation"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("rule_id", "day", name=op.f("pk_online_rule_day")),
        sa.UniqueConstraint("evaluation_id", name=op.f("uq_online_rule_day_evaluation_id")),
    )


def downgrade() -> None:
    op.drop_table("online_rule_day")
    op.drop_table("online_rule_count")
    op.drop_index("ix_online_rule_tenant_id", table_name="online_rule")
    op.drop_table("online_rule")
