"""datasets, candidate models and runs

Revision ID: 0004
Revises: 0002
Create Date: 2026-11-22 21:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

import app.db

revision: str = "0004"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _json() -> sa.types.TypeEngine:
    return sa.JSON(none_as_null=True).with_variant(
        postgresql.JSONB(none_as_null=True, astext_type=sa.Text()), "postgresql"
    )


def upgrade() -> None:
    op.create_table(
        "candidate_model",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("tenant_id", sa.String(length=40), nullable=False),
        sa.Column("name", sa.String(length=256), nullable=True),
        sa.Column("base_url", sa.String(length=2048), nullable=False),
        sa.Column("model", sa.String(length=256), nullable=False),
        sa.Column("api_key_encrypted", sa.LargeBinary(), nullable=True),
        sa.Column("created_at", app.db.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["tenant_id"],
            ["tenant.id"],
            name=op.f("fk_candidate_model_tenant_id_tenant"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_candidate_model")),
    )
    op.create_index(
        "ix_candidate_model_tenant_id_id", "candidate_model", ["tenant_id", "id"], unique=False
    )
    op.create_table(
        "dataset",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("tenant_id", sa.String(length=40), nullable=False),
        sa.Column("name", sa.String(length=256), nullable=False),
        sa.Column("format", sa.String(length=32), nullable=False),
        sa.Column("filename", sa.String(length=512), nullable=False),
        sa.Column("subsets", _json(), nullable=False),
        sa.Column("row_count", sa.Integer(), nullable=False),
        sa.Column("created_at", app.db.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["tenant_id"],
            ["tenant.id"],
            name=op.f("fk_dataset_tenant_id_tenant"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_dataset")),
    )
    op.create_index("ix_dataset_tenant_id_id", "dataset", ["tenant_id", "id"], unique=False)
    op.create_table(
        "dataset_row",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("dataset_id", sa.String(length=40), nullable=False),
        sa.Column("subset", sa.String(length=256), nullable=False),
        sa.Column("index", sa.Integer(), nullable=False),
        sa.Column("line", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("messages", _json(), nullable=False),
        sa.Column("answer", sa.Text(), nullable=True),
        sa.Column("labels", _json(), nullable=True),
        sa.Column("options", _json(), nullable=True),
        sa.Column("extra", _json(), nullable=True),
        sa.ForeignKeyConstraint(
            ["dataset_id"],
            ["dataset.id"],
            name=op.f("fk_dataset_row_dataset_id_dataset"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_dataset_row")),
        sa.UniqueConstraint(
            "dataset_id", "subset", "index", name=op.f("uq_dataset_row_dataset_id_subset_index")
        ),
    )
    op.create_table(
        "run",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("tenant_id", sa.String(length=40), nullable=False),
        sa.Column("dataset_id", sa.String(length=40), nullable=False),
        sa.Column("model_id", sa.String(length=40), nullable=True),
        sa.Column("options", _json(), nullable=False),
        sa.ForeignKeyConstraint(
            ["dataset_id"],
            ["dataset.id"],
            name=op.f("fk_run_dataset_id_dataset"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["id"], ["evaluation.id"], name=op.f("fk_run_id_evaluation"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["model_id"],
            ["candidate_model.id"],
            name=op.f("fk_run_model_id_candidate_model"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["tenant_id"], ["tenant.id"], name=op.f("fk_run_tenant_id_tenant"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_run")),
    )
    # Existing rows are evaluations; the server default only fills them in.
    op.add_column(
        "evaluation",
        sa.Column("kind", sa.String(length=16), nullable=False, server_default="evaluation"),
    )
    op.add_column("test_case", sa.Column("messages", _json(), nullable=True))


def downgrade() -> None:
    op.drop_column("test_case", "messages")
    op.drop_column("evaluation", "kind")
    op.drop_table("run")
    op.drop_table("dataset_row")
    op.drop_index("ix_dataset_tenant_id_id", table_name="dataset")
    op.drop_table("dataset")
    op.drop_index("ix_candidate_model_tenant_id_id", table_name="candidate_model")
    op.drop_table("candidate_model")
