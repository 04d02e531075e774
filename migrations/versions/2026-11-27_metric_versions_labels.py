"""metric versions and labels: metric_version (a judged metric's verdict-changing definition,
hashed), result.metric_version, label (a person's verdict on an item for a version)

Revision ID: review1
Revises: teams4
Create Date: 2026-11-27 00:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

import app.db

revision: str = "review1"
down_revision: str | None = "teams4"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _json() -> sa.types.TypeEngine:
    return sa.JSON(none_as_null=True).with_variant(
        postgresql.JSONB(none_as_null=True, astext_type=sa.Text()), "postgresql"
    )


def upgrade() -> None:
    op.create_table(
        "metric_version",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("tenant_id", sa.String(length=40), nullable=False),
        sa.Column("type", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=128), nullable=False),
        sa.Column("definition", _json(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("parent_id", sa.String(length=40), nullable=True),
        sa.Column("created_at", app.db.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["tenant_id"],
            ["tenant.id"],
            name=op.f("fk_metric_version_tenant_id_tenant"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_metric_version")),
    )
    op.create_index(
        "ix_metric_version_tenant_id_created_at", "metric_version", ["tenant_id", "created_at"]
    )
    op.create_table(
        "label",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("tenant_id", sa.String(length=40), nullable=False),
        sa.Column("metric_version", sa.String(length=40), nullable=False),
        sa.Column("item_key", sa.String(length=64), nullable=False),
        sa.Column("result_id", sa.String(length=40), nullable=True),
        sa.Column("evaluation_id", sa.String(length=40), nullable=True),
        sa.Column("test_case_id", sa.String(length=256), nullable=True),
        sa.Column("metric", sa.String(length=128), nullable=False),
        sa.Column("value", sa.Float(), nullable=True),
        sa.Column("passed", sa.Boolean(), nullable=True),
        sa.Column("rationale", sa.Text(), nullable=True),
        sa.Column("judge_score", sa.Float(), nullable=True),
        sa.Column("judge_passed", sa.Boolean(), nullable=True),
        sa.Column("threshold", sa.Float(), nullable=True),
        sa.Column("actor", sa.String(length=80), nullable=False),
        sa.Column("actor_name", sa.String(length=320), nullable=True),
        sa.Column("created_at", app.db.UTCDateTime(timezone=True), nullable=False),
        sa.Column("updated_at", app.db.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["tenant_id"],
            ["tenant.id"],
            name=op.f("fk_label_tenant_id_tenant"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_label")),
        sa.UniqueConstraint(
            "tenant_id",
            "metric_version",
            "item_key",
            "actor",
            name=op.f("uq_label_tenant_id_metric_version_item_key_actor"),
        ),
    )
    op.create_index("ix_label_tenant_id_metric_version", "label", ["tenant_id", "metric_version"])
    with op.batch_alter_table("result") as batch:
        batch.add_column(sa.Column("metric_version", sa.String(length=40), nullable=True))
    op.create_index("ix_result_metric_version", "result", ["metric_version"])


def downgrade() -> None:
    op.drop_index("ix_result_metric_version", table_name="result")
    with op.batch_alter_table("result") as batch:
        batch.drop_column("metric_version")
    op.drop_index("ix_label_tenant_id_metric_version", table_name="label")
    op.drop_table("label")
    op.drop_index("ix_metric_version_tenant_id_created_at", table_name="metric_version")
    op.drop_table("metric_version")
