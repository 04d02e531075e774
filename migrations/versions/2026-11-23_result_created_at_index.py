"""result.created_at index: today's spend (budget checks) and GET /v1/usage read a time range

Revision ID: cost4
Revises: cost3
Create Date: 2026-11-23 07:00:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "cost4"
down_revision: str | None = "cost3"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        # `result` is the largest table and workers insert into it while `loupe migrate` runs:
        # build the index without the lock that would hold their writes until it is done.
        with op.get_context().autocommit_block():
            op.create_index(
                "ix_result_created_at", "result", ["created_at"], postgresql_concurrently=True
            )
    else:
        op.create_index("ix_result_created_at", "result", ["created_at"])


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        with op.get_context().autocommit_block():
            op.drop_index("ix_result_created_at", table_name="result", postgresql_concurrently=True)
    else:
        op.drop_index("ix_result_created_at", table_name="result")
