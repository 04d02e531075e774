"""error bars: sums of squares beside the running sums, and evaluation.cluster_by

Revision ID: stats1
Revises: 0010
Create Date: 2026-11-23 04:40:00
"""

from collections import defaultdict
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "stats1"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The per-sample keys each result type logs, as of this revision (app/runs/service.py).
_KEYS = {
    "rouge": (
        *(f"bleu-{n}" for n in range(1, 5)),
        *(f"Rouge-{v}-{s}" for v in ("1", "2", "L") for s in ("R", "P", "F")),
    ),
    "choice_accuracy": ("accuracy",),
    "llm_accuracy": ("acc",),
}


def _json() -> sa.types.TypeEngine:
    return sa.JSON(none_as_null=True).with_variant(
        postgresql.JSONB(none_as_null=True, astext_type=sa.Text()), "postgresql"
    )


def upgrade() -> None:
    op.add_column(
        "metric_summary",
        sa.Column("score_sq_sum", sa.Float(), server_default=sa.text("0"), nullable=False),
    )
    op.add_column(
        "run_score", sa.Column("total_sq", sa.Float(), server_default=sa.text("0"), nullable=False)
    )
    op.add_column("evaluation", sa.Column("cluster_by", sa.String(length=256), nullable=True))

    # Evaluations stored before this revision: their squares summed once from the results.
    result = sa.table(
        "result",
        sa.column("evaluation_id", sa.String),
        sa.column("test_case_id", sa.String),
        sa.column("metric_index", sa.Integer),
        sa.column("type", sa.String),
        sa.column("score", sa.Float),
        sa.column("error", _json()),
        sa.column("logs", _json()),
    )
    summary = sa.table(
        "metric_summary",
        sa.column("evaluation_id", sa.String),
        sa.column("metric_index", sa.Integer),
        sa.column("score_sq_sum", sa.Float),
    )
    squares = sa.func.coalesce(sa.func.sum(result.c.score * result.c.score), 0.0)
    op.execute(
        summary.update().values(
            score_sq_sum=sa.select(squares)
            .where(
                result.c.evaluation_id == summary.c.evaluation_id,
                result.c.metric_index == summary.c.metric_index,
            )
            .scalar_subquery()
        )
    )

    # Runs: the report keys live in the results' logs, so the squares are summed here.
    run = sa.table("run", sa.column("id", sa.String))
    run_score = sa.table(
        "run_score",
        sa.column("run_id", sa.String),
        sa.column("key", sa.String),
        sa.column("subset", sa.String),
        sa.column("total_sq", sa.Float),
    )
    bind = op.get_bind()
    rows = bind.execute(
        sa.select(result.c.evaluation_id, result.c.test_case_id, result.c.type, result.c.logs)
        .join(run, run.c.id == result.c.evaluation_id)
        .where(result.c.error.is_(None), result.c.type.in_(list(_KEYS)))
    )
    squares: dict[tuple[str, str, str], float] = defaultdict(float)
    for run_id, case_id, type_, logs in rows:
        subset = case_id.rsplit("/", 1)[0]
        for key in _KEYS[type_]:
            value = (logs or {}).get(key)
            if isinstance(value, int | float):
                squares[(run_id, key, subset)] += value * value
    for (run_id, key, subset), total_sq in squares.items():
        bind.execute(
            run_score.update()
            .where(
                run_score.c.run_id == run_id,
                run_score.c.key == key,
                run_score.c.subset == subset,
            )
            .values(total_sq=total_sq)
        )


def downgrade() -> None:
    op.drop_column("evaluation", "cluster_by")
    op.drop_column("run_score", "total_sq")
    op.drop_column("metric_summary", "score_sq_sum")
