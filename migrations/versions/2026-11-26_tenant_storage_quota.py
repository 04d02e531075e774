"""tenant storage quota: tenant.storage_bytes (an operator's per-tenant quota, unset: the
LOUPE_TENANT_STORAGE_BYTES default) and dataset.stored_bytes (what a dataset's rows take),
backfilled from the rows already stored

Revision ID: quota1
Revises: stats3
Create Date: 2026-11-26 11:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "quota1"
down_revision: str | None = "stats3"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The rows' JSON and text as the database holds them: near enough to what the upload counted
# (compact JSON), and the same on SQLite (JSON as text) and PostgreSQL (jsonb cast to text).
_BACKFILL = """
UPDATE dataset SET stored_bytes = COALESCE((
    SELECT SUM(
        LENGTH(CAST(dataset_row.messages AS TEXT))
        + COALESCE(LENGTH(dataset_row.answer), 0)
        + COALESCE(LENGTH(CAST(dataset_row.labels AS TEXT)), 0)
        + COALESCE(LENGTH(CAST(dataset_row.options AS TEXT)), 0)
        + COALESCE(LENGTH(CAST(dataset_row.extra AS TEXT)), 0)
    )
    FROM dataset_row WHERE dataset_row.dataset_id = dataset.id
), 0)
"""


def upgrade() -> None:
    op.add_column("tenant", sa.Column("storage_bytes", sa.BigInteger(), nullable=True))
    op.add_column(
        "dataset",
        sa.Column("stored_bytes", sa.BigInteger(), nullable=False, server_default="0"),
    )
    op.execute(_BACKFILL)


def downgrade() -> None:
    with op.batch_alter_table("dataset") as batch:
        batch.drop_column("stored_bytes")
    with op.batch_alter_table("tenant") as batch:
        batch.drop_column("storage_bytes")
