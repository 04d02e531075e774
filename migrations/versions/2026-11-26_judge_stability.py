"""judge stability: a result judged more than once keeps every judgment (`stability`) and
whether they straddle the threshold (`fragile`); metric summaries count fragile results and
those whose every judgment passed (pass^k)

Revision ID: stable1
Revises: online7
Create Date: 2026-11-26 21:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "stable1"
down_revision: str | None = "online7"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _json() -> sa.types.TypeEngine:
    return sa.JSON(none_as_null=True).with_variant(
        postgresql.JSONB(none_as_null=True, astext_type=sa.Text()), "postgresql"
    )


def upgrade() -> None:
    with op.batch_alter_table("result") as batch:
        batch.add_column(sa.Column("stability", _json(), nullable=True))
        batch.add_column(sa.Column("fragile", sa.Boolean(), nullable=True))
    with op.batch_alter_table("metric_summary") as batch:
        batch.add_column(
            sa.Column("fragile", sa.Integer(), server_default=sa.text("0"), nullable=False)
        )
        batch.add_column(
            sa.Column("all_passed", sa.Integer(), server_default=sa.text("0"), nullable=False)
        )


def downgrade() -> None:
    with op.batch_alter_table("metric_summary") as batch:
        batch.drop_column("all_passed")
        batch.drop_column("fragile")
    with op.batch_alter_table("result") as batch:
        batch.drop_column("fragile")
        batch.drop_column("stability")
