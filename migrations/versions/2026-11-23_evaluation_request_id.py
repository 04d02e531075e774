"""evaluation.request_id: the submitting request's X-Request-Id, for worker log lines

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-23 04:45:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("evaluation", sa.Column("request_id", sa.String(length=128), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("evaluation") as batch:
        batch.drop_column("request_id")
