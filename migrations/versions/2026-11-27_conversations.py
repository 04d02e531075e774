"""test_case: a conversation's turns and the fields about it (scenario, expected_outcome,
chatbot_role, user_description), and the tool calls a case made or should make

Revision ID: conv1
Revises: review4
Create Date: 2026-11-27 02:40:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "conv1"
down_revision: str | None = "review4"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON_COLUMNS = ("turns", "scenario", "expected_outcome", "tools_called", "expected_tools")
TEXT_COLUMNS = ("chatbot_role", "user_description")


def _json() -> sa.types.TypeEngine:
    return sa.JSON(none_as_null=True).with_variant(
        postgresql.JSONB(none_as_null=True, astext_type=sa.Text()), "postgresql"
    )


def upgrade() -> None:
    with op.batch_alter_table("test_case") as batch:
        for name in JSON_COLUMNS:
            batch.add_column(sa.Column(name, _json(), nullable=True))
        for name in TEXT_COLUMNS:
            batch.add_column(sa.Column(name, sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("test_case") as batch:
        for name in (*TEXT_COLUMNS, *JSON_COLUMNS):
            batch.drop_column(name)
