"""idempotency reservations: a key's row exists (response NULL) while its first request runs

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-22 23:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")


def _nullable(nullable: bool) -> None:
    with op.batch_alter_table("idempotency_key", schema=None) as batch_op:
        batch_op.alter_column("status_code", existing_type=sa.Integer(), nullable=nullable)
        batch_op.alter_column("response_body", existing_type=_JSON, nullable=nullable)


def upgrade() -> None:
    _nullable(True)


def downgrade() -> None:
    # Reservations have no response to keep; their requests' clients retry.
    op.execute("DELETE FROM idempotency_key WHERE status_code IS NULL")
    _nullable(False)
