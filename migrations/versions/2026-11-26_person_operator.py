"""person.operator: whether the person was in one of LOUPE_OIDC_OPERATOR_GROUPS at their last
sign-in (the console's Operator page across teams)

Revision ID: teams4
Revises: teams3
Create Date: 2026-11-26 22:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "teams4"
down_revision: str | None = "teams3"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("person") as batch:
        batch.add_column(
            sa.Column("operator", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("person") as batch:
        batch.drop_column("operator")
