"""evaluation.request_id: the submitting request's X-Request-Id, for worker log lines

Revision ID: ops1
Revises: stats2
Create Date: 2026-11-23 04:45:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "ops1"
down_revision: str | None = "stats2"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("evaluation", sa.Column("request_id", sa.String(length=128), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("evaluation") as batch:
        batch.drop_column("request_id")
