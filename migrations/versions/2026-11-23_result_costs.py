"""result and metric_summary costs (LOUPE_MODEL_PRICES) and a run's candidate usage

Revision ID: cost1
Revises: ops2
Create Date: 2026-11-23 06:05:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "cost1"
down_revision: str | None = "ops2"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_COUNTS = ("candidate_calls", "candidate_prompt_tokens", "candidate_completion_tokens")


def upgrade() -> None:
    op.add_column("result", sa.Column("judge_cost_usd", sa.Float(), nullable=True))
    for name in _COUNTS:
        op.add_column(
            "result", sa.Column(name, sa.Integer(), nullable=False, server_default=sa.text("0"))
        )
    op.add_column("result", sa.Column("candidate_cost_usd", sa.Float(), nullable=True))
    for name, kind in (
        ("judge_cost_usd", sa.Float()),
        ("judge_unpriced", sa.Integer()),
        *((name, sa.Integer()) for name in _COUNTS),
        ("candidate_cost_usd", sa.Float()),
        ("candidate_unpriced", sa.Integer()),
    ):
        op.add_column(
            "metric_summary",
            sa.Column(name, kind, nullable=False, server_default=sa.text("0")),
        )
    # Results stored before prices existed have an unknown cost, not a zero one.
    op.execute("UPDATE metric_summary SET judge_unpriced = stored WHERE calls > 0")


def downgrade() -> None:
    with op.batch_alter_table("metric_summary") as batch:
        for name in (
            "judge_cost_usd",
            "judge_unpriced",
            *_COUNTS,
            "candidate_cost_usd",
            "candidate_unpriced",
        ):
            batch.drop_column(name)
    with op.batch_alter_table("result") as batch:
        for name in ("judge_cost_usd", *_COUNTS, "candidate_cost_usd"):
            batch.drop_column(name)
