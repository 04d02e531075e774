"""online alerts: online_rule.alert (a metric's pass rate threshold over a window, and the
webhook endpoint told when it is crossed) and alert_since (the open episode's start)

Revision ID: online5
Revises: online4
Create Date: 2026-11-26 20:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

import app.db

revision: str = "online5"
down_revision: str | None = "online4"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _json() -> sa.types.TypeEngine:
    return sa.JSON(none_as_null=True).with_variant(
        postgresql.JSONB(none_as_null=True, astext_type=sa.Text()), "postgresql"
    )


def upgrade() -> None:
    with op.batch_alter_table("online_rule") as batch:
        batch.add_column(sa.Column("alert", _json(), nullable=True))
        batch.add_column(sa.Column("alert_since", app.db.UTCDateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("online_rule") as batch:
        batch.drop_column("alert_since")
        batch.drop_column("alert")
