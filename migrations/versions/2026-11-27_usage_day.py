"""usage_day: model calls, tokens and cost of each evaluation's results per UTC day, role and
model, kept by the scoring write; what GET /v1/usage and the daily-budget check read instead of
summing results. Results stored before it are summed into it once.

Revision ID: usage_day
Revises: scale_indexes
Create Date: 2026-11-27 14:00:00

Workers of the release before this one that store results after the migration ran do not add
them here: replace the workers right after the migration (docs/operations.md, "At scale").
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "usage_day"
down_revision: str | None = "scale_indexes"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_COLUMNS = (
    "evaluation_id",
    "day",
    "role",
    "model",
    "tenant_id",
    "calls",
    "failed_calls",
    "prompt_tokens",
    "completion_tokens",
    "cost_usd",
    "unpriced",
)


def upgrade() -> None:
    op.create_table(
        "usage_day",
        sa.Column("evaluation_id", sa.String(length=40), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("model", sa.String(length=256), nullable=False),
        sa.Column("tenant_id", sa.String(length=40), nullable=False),
        sa.Column("calls", sa.BigInteger(), nullable=False),
        sa.Column("failed_calls", sa.BigInteger(), nullable=False),
        sa.Column("prompt_tokens", sa.BigInteger(), nullable=False),
        sa.Column("completion_tokens", sa.BigInteger(), nullable=False),
        sa.Column("cost_usd", sa.Float(), nullable=False),
        sa.Column("unpriced", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["evaluation_id"],
            ["evaluation.id"],
            name=op.f("fk_usage_day_evaluation_id_evaluation"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("evaluation_id", "day", "role", "model", name=op.f("pk_usage_day")),
    )
    op.create_index("ix_usage_day_tenant_id_day", "usage_day", ["tenant_id", "day"])
    _backfill()


def _backfill() -> None:
    """Sum the results already stored, as the scoring write adds new ones."""
    result = sa.table(
        "result",
        *(
            sa.column(name)
            for name in (
                "evaluation_id",
                "created_at",
                "judge_model",
                "judge_calls",
                "judge_failed_calls",
                "prompt_tokens",
                "completion_tokens",
                "judge_cost_usd",
                "candidate_model",
                "candidate_calls",
                "candidate_failed_calls",
                "candidate_prompt_tokens",
                "candidate_completion_tokens",
                "candidate_cost_usd",
            )
        ),
    )
    evaluation = sa.table("evaluation", sa.column("id"), sa.column("tenant_id"))
    usage = sa.table("usage_day", *(sa.column(name) for name in _COLUMNS))
    if op.get_bind().dialect.name == "postgresql":
        day = sa.func.date(sa.func.timezone("UTC", result.c.created_at))
    else:
        day = sa.func.date(result.c.created_at)
    c = result.c
    for role, model, calls, failed, prompt, completion, cost in (
        (
            "judge",
            c.judge_model,
            c.judge_calls,
            c.judge_failed_calls,
            c.prompt_tokens,
            c.completion_tokens,
            c.judge_cost_usd,
        ),
        (
            "candidate",
            c.candidate_model,
            c.candidate_calls,
            c.candidate_failed_calls,
            c.candidate_prompt_tokens,
            c.candidate_completion_tokens,
            c.candidate_cost_usd,
        ),
    ):
        named = sa.func.coalesce(model, "")
        op.execute(
            usage.insert().from_select(
                list(_COLUMNS),
                sa.select(
                    c.evaluation_id,
                    day,
                    sa.literal(role),
                    named,
                    evaluation.c.tenant_id,
                    sa.func.coalesce(sa.func.sum(calls), 0),
                    sa.func.coalesce(sa.func.sum(failed), 0),
                    sa.func.coalesce(sa.func.sum(prompt), 0),
                    sa.func.coalesce(sa.func.sum(completion), 0),
                    sa.func.coalesce(sa.func.sum(cost), 0.0),
                    sa.func.coalesce(sa.func.sum(sa.case((cost.is_(None), 1), else_=0)), 0),
                )
                .select_from(result.join(evaluation, evaluation.c.id == c.evaluation_id))
                .where((calls > 0) | (failed > 0))
                .group_by(c.evaluation_id, day, named, evaluation.c.tenant_id),
            )
        )


def downgrade() -> None:
    op.drop_index("ix_usage_day_tenant_id_day", table_name="usage_day")
    op.drop_table("usage_day")
