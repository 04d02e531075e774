"""metric_summary.interval: a completed evaluation's interval of each metric's mean score,
stored once with the sums it was made for, so no read bootstraps the scores again; the
evaluations completed before keep theirs computed on read

Revision ID: summary_interval
Revises: score_bins
Create Date: 2026-11-28 00:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "summary_interval"
down_revision: str | None = "score_bins"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("metric_summary") as batch:
        batch.add_column(
            sa.Column(
                "interval",
                sa.JSON(none_as_null=True).with_variant(JSONB(none_as_null=True), "postgresql"),
                nullable=True,
            )
        )


def downgrade() -> None:
    with op.batch_alter_table("metric_summary") as batch:
        batch.drop_column("interval")
