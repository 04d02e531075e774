"""openai evals: eval definitions, eval runs (evaluations of kind eval_run), eval files

Revision ID: e013
Revises: ops1
Create Date: 2026-11-23 05:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "e013"
down_revision: str | None = "ops1"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _json() -> sa.types.TypeEngine:
    return sa.JSON(none_as_null=True).with_variant(
        postgresql.JSONB(none_as_null=True, astext_type=sa.Text()), "postgresql"
    )


def upgrade() -> None:
    op.create_table(
        "eval_definition",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("tenant_id", sa.String(length=40), nullable=False),
        sa.Column("name", sa.String(length=256), nullable=False),
        sa.Column("metadata", _json(), nullable=True),
        sa.Column("data_source_config", _json(), nullable=False),
        sa.Column("testing_criteria", _json(), nullable=False),
        sa.Column("specs", _json(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["tenant_id"],
            ["tenant.id"],
            name=op.f("fk_eval_definition_tenant_id_tenant"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_eval_definition")),
    )
    op.create_index(
        "ix_eval_definition_tenant_id_created_at",
        "eval_definition",
        ["tenant_id", "created_at"],
    )
    op.create_table(
        "eval_run",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("tenant_id", sa.String(length=40), nullable=False),
        sa.Column("eval_id", sa.String(length=40), nullable=False),
        sa.Column("data_source", _json(), nullable=False),
        sa.Column("model", sa.String(length=256), nullable=True),
        sa.Column("model_id", sa.String(length=40), nullable=True),
        sa.ForeignKeyConstraint(
            ["id"], ["evaluation.id"], name=op.f("fk_eval_run_id_evaluation"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["tenant_id"],
            ["tenant.id"],
            name=op.f("fk_eval_run_tenant_id_tenant"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["eval_id"],
            ["eval_definition.id"],
            name=op.f("fk_eval_run_eval_id_eval_definition"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["model_id"],
            ["candidate_model.id"],
            name=op.f("fk_eval_run_model_id_candidate_model"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_eval_run")),
    )
    op.create_index("ix_eval_run_eval_id", "eval_run", ["eval_id"])
    op.create_table(
        "eval_file",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("tenant_id", sa.String(length=40), nullable=False),
        sa.Column("filename", sa.String(length=512), nullable=False),
        sa.Column("purpose", sa.String(length=32), nullable=False),
        sa.Column("bytes", sa.Integer(), nullable=False),
        sa.Column("content", sa.LargeBinary(), nullable=False),
        sa.Column("line_count", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["tenant_id"],
            ["tenant.id"],
            name=op.f("fk_eval_file_tenant_id_tenant"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_eval_file")),
    )
    op.create_index("ix_eval_file_tenant_id_created_at", "eval_file", ["tenant_id", "created_at"])


def downgrade() -> None:
    op.drop_table("eval_file")
    op.drop_table("eval_run")
    op.drop_table("eval_definition")
