"""webhook_endpoint.failing_since and disabled_reason: since when an endpoint's attempts have all
failed, so one failing past LOUPE_WEBHOOK_DISABLE_AFTER_HOURS is disabled, and why an endpoint
was disabled. Endpoints disabled before it were disabled by a 410 Gone (the only way then), and
say so; those failing at the upgrade count from their next failed attempt.

Revision ID: webhook_failing_since
Revises: usage_outlives_evaluation
Create Date: 2026-11-28 16:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "webhook_failing_since"
down_revision: str | None = "usage_outlives_evaluation"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The words app/webhooks/disabling.py gives a 410's disable (a migration never imports the app).
_GONE = "the receiver answered 410 Gone"


def upgrade() -> None:
    with op.batch_alter_table("webhook_endpoint") as batch:
        batch.add_column(sa.Column("failing_since", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("disabled_reason", sa.String(512), nullable=True))
    endpoint = sa.table(
        "webhook_endpoint",
        sa.column("enabled", sa.Boolean),
        sa.column("disabled_reason", sa.String),
    )
    op.execute(endpoint.update().where(endpoint.c.enabled.is_(False)).values(disabled_reason=_GONE))


def downgrade() -> None:
    with op.batch_alter_table("webhook_endpoint") as batch:
        batch.drop_column("disabled_reason")
        batch.drop_column("failing_since")
