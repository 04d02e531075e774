"""Prompt tokens the provider served from its prompt cache, kept per result and summed per
metric and per usage day: an OpenAI eval run's `per_model_usage[].cached_tokens` read 0, and
neither an evaluation's `usage` nor `GET /v1/usage` showed them. Results stored before this
count none (the provider's answer was not kept).

Revision ID: cached_prompt_tokens
Revises: summary_tokens_bigint
Create Date: 2026-11-28 22:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "cached_prompt_tokens"
down_revision: str | None = "summary_tokens_bigint"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_COLUMNS = {
    "result": (
        ("cached_prompt_tokens", sa.Integer),
        ("candidate_cached_prompt_tokens", sa.Integer),
    ),
    "metric_summary": (
        ("cached_prompt_tokens", sa.BigInteger),
        ("candidate_cached_prompt_tokens", sa.BigInteger),
    ),
    "usage_day": (("cached_prompt_tokens", sa.BigInteger),),
}


def upgrade() -> None:
    # Plain ADD COLUMNs with a constant default: no table rewrite on PostgreSQL 11+.
    for table, columns in _COLUMNS.items():
        for name, type_ in columns:
            op.add_column(
                table, sa.Column(name, type_(), nullable=False, server_default=sa.text("0"))
            )


def downgrade() -> None:
    for table, columns in _COLUMNS.items():
        with op.batch_alter_table(table) as batch:
            for name, _ in columns:
                batch.drop_column(name)
