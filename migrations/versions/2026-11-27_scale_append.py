"""evaluation.open: an evaluation taking its test cases in batches until closed; an index on
test_case (evaluation_id, client_id), so each batch is checked for ids the earlier ones hold
without reading them

Revision ID: scale_append
Revises: conv2
Create Date: 2026-11-27 06:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "scale_append"
down_revision: str | None = "conv2"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("evaluation") as batch:
        batch.add_column(sa.Column("open", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_index(
        "ix_test_case_evaluation_id_client_id", "test_case", ["evaluation_id", "client_id"]
    )


def downgrade() -> None:
    op.drop_index("ix_test_case_evaluation_id_client_id", table_name="test_case")
    with op.batch_alter_table("evaluation") as batch:
        batch.drop_column("open")
