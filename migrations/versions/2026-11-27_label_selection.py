"""label.selection (direct, random or routed: whether a label may stand for a random sample)
and label.queue_id (the review queue it was given in)

Revision ID: review2
Revises: review1
Create Date: 2026-11-27 00:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "review2"
down_revision: str | None = "review1"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("label") as batch:
        batch.add_column(
            sa.Column("selection", sa.String(length=16), nullable=False, server_default="direct")
        )
        batch.add_column(sa.Column("queue_id", sa.String(length=40), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("label") as batch:
        batch.drop_column("queue_id")
        batch.drop_column("selection")
