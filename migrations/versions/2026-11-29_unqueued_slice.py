"""unqueued_slice: slices of test cases committed for scoring whose job Redis did not take
(away past the request's patience, or refusing writes), queued by the ticker once it does

Revision ID: unqueued_slice
Revises: cached_prompt_tokens
Create Date: 2026-11-29 02:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "unqueued_slice"
down_revision: str | None = "cached_prompt_tokens"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "unqueued_slice",
        sa.Column(
            "evaluation_id",
            sa.String(40),
            sa.ForeignKey("evaluation.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("start", sa.Integer, primary_key=True),
        sa.Column("stop", sa.Integer, nullable=False),
        sa.Column("turn", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("unqueued_slice")
