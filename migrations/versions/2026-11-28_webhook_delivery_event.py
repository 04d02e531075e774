"""webhook_delivery (event_id): an event's attempts found by index, so deleting events (retention
past LOUPE_RETENTION_DAYS, an endpoint's deletion, and the cascade of each) reads no other
event's attempts

Revision ID: webhook_delivery_event
Revises: rule_day_config
Create Date: 2026-11-28 12:00:00

On PostgreSQL the index is built CONCURRENTLY (outside the migration's transaction): deliveries
go on while `loupe migrate` runs.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "webhook_delivery_event"
down_revision: str | None = "rule_day_config"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

NAME = "ix_webhook_delivery_event_id"


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        op.create_index(NAME, "webhook_delivery", ["event_id"])
        return
    with op.get_context().autocommit_block():
        op.create_index(
            NAME,
            "webhook_delivery",
            ["event_id"],
            postgresql_concurrently=True,
            if_not_exists=True,
        )


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        with op.get_context().autocommit_block():
            op.drop_index(NAME, table_name="webhook_delivery", postgresql_concurrently=True)
    else:
        op.drop_index(NAME, table_name="webhook_delivery")
