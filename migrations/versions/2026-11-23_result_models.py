"""result.judge_model and result.candidate_model: what GET /v1/usage groups by

Revision ID: cost2
Revises: cost1
Create Date: 2026-11-23 06:10:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "cost2"
down_revision: str | None = "cost1"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("result", sa.Column("judge_model", sa.String(256), nullable=True))
    op.add_column("result", sa.Column("candidate_model", sa.String(256), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("result") as batch:
        batch.drop_column("candidate_model")
        batch.drop_column("judge_model")
