"""comparison fragile: whether a comparison set aside the items fragile on either side
(`fragile: exclude`) or compared them like the others (`include`, as every comparison before)

Revision ID: cmpfrag1
Revises: stable1
Create Date: 2026-11-26 22:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "cmpfrag1"
down_revision: str | None = "stable1"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "comparison",
        sa.Column("fragile", sa.String(8), nullable=False, server_default="include"),
    )


def downgrade() -> None:
    with op.batch_alter_table("comparison") as batch:
        batch.drop_column("fragile")
