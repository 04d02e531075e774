"""tenant.max_active_evaluations: an operator's limit on a tenant's queued or running evaluations

Revision ID: ops2
Revises: firsthour1
Create Date: 2026-11-23 05:40:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "ops2"
down_revision: str | None = "firsthour1"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("tenant", sa.Column("max_active_evaluations", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tenant") as batch:
        batch.drop_column("max_active_evaluations")
