"""evaluation.appended_at: an open evaluation's last batch, so retention can delete one left
open and idle past LOUPE_RETENTION_DAYS; those open at the upgrade count from the upgrade
(nothing is deleted for being old on the day the column appears)

Revision ID: open_appended_at
Revises: summary_interval
Create Date: 2026-11-28 06:00:00
"""

from collections.abc import Sequence
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision: str = "open_appended_at"
down_revision: str | None = "summary_interval"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("evaluation") as batch:
        batch.add_column(sa.Column("appended_at", sa.DateTime(timezone=True), nullable=True))
    evaluation = sa.table(
        "evaluation",
        sa.column("open", sa.Boolean),
        sa.column("appended_at", sa.DateTime(timezone=True)),
    )
    op.execute(
        evaluation.update().where(evaluation.c.open.is_(True)).values(appended_at=datetime.now(UTC))
    )


def downgrade() -> None:
    with op.batch_alter_table("evaluation") as batch:
        batch.drop_column("appended_at")
