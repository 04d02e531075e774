"""judge stability: metric summaries count results some of whose judgments failed

Revision ID: stable2
Revises: online8
Create Date: 2026-11-26 22:10:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "stable2"
down_revision: str | None = "online8"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("metric_summary") as batch:
        batch.add_column(
            sa.Column("incomplete", sa.Integer(), server_default=sa.text("0"), nullable=False)
        )


def downgrade() -> None:
    with op.batch_alter_table("metric_summary") as batch:
        batch.drop_column("incomplete")
