"""online export: online_rule.export_endpoint (a rule's own OTLP/HTTP collector), and its export
state: export_cursor (the last result exported), export_due_at (lease or backoff) and
export_failures

Revision ID: online3
Revises: online2
Create Date: 2026-11-26 19:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import app.db

revision: str = "online3"
down_revision: str | None = "online2"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("online_rule") as batch:
        batch.add_column(sa.Column("export_endpoint", sa.String(length=2048), nullable=True))
        batch.add_column(sa.Column("export_cursor", sa.String(length=40), nullable=True))
        batch.add_column(
            sa.Column("export_due_at", app.db.UTCDateTime(timezone=True), nullable=True)
        )
        batch.add_column(
            sa.Column("export_failures", sa.Integer(), nullable=False, server_default="0")
        )


def downgrade() -> None:
    with op.batch_alter_table("online_rule") as batch:
        batch.drop_column("export_failures")
        batch.drop_column("export_due_at")
        batch.drop_column("export_cursor")
        batch.drop_column("export_endpoint")
