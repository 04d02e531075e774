"""test_case.context_hash: which retrieval contexts more than one job scores

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-22 23:50:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Rows stored before have none: their jobs coordinate every truths answer, as before.
    op.add_column("test_case", sa.Column("context_hash", sa.String(length=64), nullable=True))
    op.create_index(
        "ix_test_case_evaluation_id_context_hash",
        "test_case",
        ["evaluation_id", "context_hash"],
    )


def downgrade() -> None:
    op.drop_index("ix_test_case_evaluation_id_context_hash", table_name="test_case")
    op.drop_column("test_case", "context_hash")
