"""metric_summary's token sums as 64-bit integers: an evaluation's results together pass
2^31 - 1 tokens (a million results of some 2,200 tokens each, an online rule's busy day), and
PostgreSQL refused the job's write that took a sum past it, leaving the evaluation in progress.
SQLite's integers were 64-bit already.

Revision ID: summary_tokens_bigint
Revises: webhook_failing_since
Create Date: 2026-11-28 19:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "summary_tokens_bigint"
down_revision: str | None = "webhook_failing_since"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_SUMS = (
    "prompt_tokens",
    "completion_tokens",
    "candidate_prompt_tokens",
    "candidate_completion_tokens",
)


def upgrade() -> None:
    with op.batch_alter_table("metric_summary") as batch:
        for name in _SUMS:
            batch.alter_column(name, type_=sa.BigInteger(), existing_type=sa.Integer())


def downgrade() -> None:
    with op.batch_alter_table("metric_summary") as batch:
        for name in _SUMS:
            batch.alter_column(name, type_=sa.Integer(), existing_type=sa.BigInteger())
