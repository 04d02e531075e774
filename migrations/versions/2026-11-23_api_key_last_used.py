"""api_key.last_used_at: when a key last authenticated a request (`loupe keys list`)

Revision ID: firsthour1
Revises: e013
Create Date: 2026-11-23 05:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from app.db import UTCDateTime

revision: str = "firsthour1"
down_revision: str | None = "e013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("api_key", sa.Column("last_used_at", UTCDateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("api_key") as batch:
        batch.drop_column("last_used_at")
