"""metric summaries: running counts and sums of each metric's results per evaluation

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-22 23:55:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "metric_summary",
        sa.Column("evaluation_id", sa.String(length=40), nullable=False),
        sa.Column("metric_index", sa.Integer(), nullable=False),
        sa.Column("stored", sa.Integer(), nullable=False),
        sa.Column("passed", sa.Integer(), nullable=False),
        sa.Column("failed", sa.Integer(), nullable=False),
        sa.Column("errored", sa.Integer(), nullable=False),
        sa.Column("score_sum", sa.Float(), nullable=False),
        sa.Column("scored", sa.Integer(), nullable=False),
        sa.Column("calls", sa.Integer(), nullable=False),
        sa.Column("prompt_tokens", sa.Integer(), nullable=False),
        sa.Column("completion_tokens", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["evaluation_id"],
            ["evaluation.id"],
            name=op.f("fk_metric_summary_evaluation_id_evaluation"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("evaluation_id", "metric_index", name=op.f("pk_metric_summary")),
    )
    # Evaluations stored before this revision: sum their results once.
    json = sa.JSON(none_as_null=True).with_variant(
        postgresql.JSONB(none_as_null=True, astext_type=sa.Text()), "postgresql"
    )
    result = sa.table(
        "result",
        sa.column("evaluation_id", sa.String),
        sa.column("metric_index", sa.Integer),
        sa.column("score", sa.Float),
        sa.column("passed", sa.Boolean),
        sa.column("error", json),
        sa.column("judge_calls", sa.Integer),
        sa.column("prompt_tokens", sa.Integer),
        sa.column("completion_tokens", sa.Integer),
    )
    summary = sa.table(
        "metric_summary",
        *(
            sa.column(name)
            for name in (
                "evaluation_id",
                "metric_index",
                "stored",
                "passed",
                "failed",
                "errored",
                "score_sum",
                "scored",
                "calls",
                "prompt_tokens",
                "completion_tokens",
            )
        ),
    )

    def count(condition: sa.ColumnElement[bool]) -> sa.ColumnElement[int]:
        return sa.func.coalesce(sa.func.sum(sa.case((condition, 1), else_=0)), 0)

    op.execute(
        summary.insert().from_select(
            [column.name for column in summary.columns],
            sa.select(
                result.c.evaluation_id,
                result.c.metric_index,
                sa.func.count(),
                count(result.c.passed.is_(True)),
                count(result.c.passed.is_(False)),
                count(result.c.error.is_not(None)),
                sa.func.coalesce(sa.func.sum(result.c.score), 0.0),
                sa.func.count(result.c.score),
                sa.func.coalesce(sa.func.sum(result.c.judge_calls), 0),
                sa.func.coalesce(sa.func.sum(result.c.prompt_tokens), 0),
                sa.func.coalesce(sa.func.sum(result.c.completion_tokens), 0),
            ).group_by(result.c.evaluation_id, result.c.metric_index),
        )
    )


def downgrade() -> None:
    op.drop_table("metric_summary")
