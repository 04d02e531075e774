"""review_assignment: one live reservation per person and queue (a unique partial index on
(queue_id, actor) among reserved rows), so concurrent claims of one person get one item; a
person's extra reservations made before it are released

Revision ID: review4
Revises: review3
Create Date: 2026-11-27 01:05:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "review4"
down_revision: str | None = "review3"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

RESERVED = sa.text("status = 'reserved'")


def upgrade() -> None:
    # Keep each person's oldest reservation in a queue; give the others back (slot freed).
    op.execute(
        "UPDATE review_assignment SET status = 'released', slot = NULL "
        "WHERE status = 'reserved' AND EXISTS (SELECT 1 FROM review_assignment AS other "
        "WHERE other.queue_id = review_assignment.queue_id "
        "AND other.actor = review_assignment.actor "
        "AND other.status = 'reserved' AND other.id < review_assignment.id)"
    )
    op.create_index(
        "uq_review_assignment_reserved",
        "review_assignment",
        ["queue_id", "actor"],
        unique=True,
        postgresql_where=RESERVED,
        sqlite_where=RESERVED,
    )


def downgrade() -> None:
    op.drop_index("uq_review_assignment_reserved", table_name="review_assignment")
