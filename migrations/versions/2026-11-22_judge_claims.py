"""judge claims: one job makes each shared judge answer, the others wait for it

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-22 23:45:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "judge_claim",
        sa.Column("scope", sa.String(length=80), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("holder", sa.String(length=40), nullable=False),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("scope", "key", name=op.f("pk_judge_claim")),
    )


def downgrade() -> None:
    op.drop_table("judge_claim")
