"""tenant.daily_usd: an operator's daily spending budget for a tenant

Revision ID: cost3
Revises: cost2
Create Date: 2026-11-23 06:15:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "cost3"
down_revision: str | None = "cost2"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("tenant", sa.Column("daily_usd", sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tenant") as batch:
        batch.drop_column("daily_usd")
