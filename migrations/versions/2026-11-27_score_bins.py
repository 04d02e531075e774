"""metric_summary.score_bin_0..9: how many of a metric's scores fall in each tenth of [0, 1],
kept by the scoring write, so the console's histogram reads the summaries and not every
result; evaluations stored before are counted once from their results

Revision ID: score_bins
Revises: usage_day
Create Date: 2026-11-27 15:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "score_bins"
down_revision: str | None = "usage_day"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BINS = 10
COLUMNS = [f"score_bin_{index}" for index in range(BINS)]


def upgrade() -> None:
    with op.batch_alter_table("metric_summary") as batch:
        for name in COLUMNS:
            batch.add_column(
                sa.Column(name, sa.Integer(), nullable=False, server_default=sa.text("0"))
            )
    _backfill()


def _backfill() -> None:
    """Count the stored scores per evaluation and metric, with the edges the write uses
    (app/models/metric_summary.py, `score_bin`)."""
    result = sa.table(
        "result", sa.column("evaluation_id"), sa.column("metric_index"), sa.column("score")
    )
    summary = sa.table(
        "metric_summary",
        sa.column("evaluation_id"),
        sa.column("metric_index"),
        *(sa.column(name) for name in COLUMNS),
    )
    edges = [index / BINS for index in range(BINS + 1)]
    score = result.c.score

    def within(index: int) -> sa.ColumnElement[bool]:
        upper = score < edges[index + 1] if index < BINS - 1 else score <= edges[index + 1]
        return sa.and_(score >= edges[index], upper)

    counts = (
        sa.select(
            result.c.evaluation_id,
            result.c.metric_index,
            *(sa.func.sum(sa.case((within(index), 1), else_=0)) for index in range(BINS)),
        )
        .where(score.is_not(None))
        .group_by(result.c.evaluation_id, result.c.metric_index)
    )
    bind = op.get_bind()
    rows = [
        {"e": row[0], "m": row[1], **{f"n{i}": int(row[2 + i] or 0) for i in range(BINS)}}
        for row in bind.execute(counts)
    ]
    update = (
        summary.update()
        .where(
            summary.c.evaluation_id == sa.bindparam("e"),
            summary.c.metric_index == sa.bindparam("m"),
        )
        .values({name: sa.bindparam(f"n{i}") for i, name in enumerate(COLUMNS)})
    )
    for start in range(0, len(rows), 1000):
        bind.execute(update, rows[start : start + 1000])


def downgrade() -> None:
    with op.batch_alter_table("metric_summary") as batch:
        for name in COLUMNS:
            batch.drop_column(name)
