"""run score verdicts: passed and failed counts beside a run's running sums, so report rows of
the run's own metrics with a threshold get their pass-rate interval

Revision ID: stats3
Revises: console1
Create Date: 2026-11-24 09:00:00
"""

from collections import Counter
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

# "stats1" (error bars) and "stats2" (comparisons) are taken.
revision: str = "stats3"
down_revision: str | None = "console1"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The run's scorers, as of this revision (app/runs/service.py SCORER_NAMES): their report keys
# come from their logs, and their verdicts are not counted.
_SCORERS = ("rule", "accuracy", "acc")
_BATCH = 1000


def _json() -> sa.types.TypeEngine:
    return sa.JSON(none_as_null=True).with_variant(
        postgresql.JSONB(none_as_null=True, astext_type=sa.Text()), "postgresql"
    )


def upgrade() -> None:
    for column in ("passed", "failed"):
        op.add_column(
            "run_score",
            sa.Column(column, sa.Integer(), server_default=sa.text("0"), nullable=False),
        )
    # Runs stored before this revision: their own metrics' verdicts counted once, as the jobs
    # count them (scored results without an error; the report key is the metric's name).
    result = sa.table(
        "result",
        sa.column("evaluation_id", sa.String),
        sa.column("test_case_id", sa.String),
        sa.column("metric", sa.String),
        sa.column("score", sa.Float),
        sa.column("passed", sa.Boolean),
        sa.column("error", _json()),
    )
    run = sa.table("run", sa.column("id", sa.String))
    run_score = sa.table(
        "run_score",
        sa.column("run_id", sa.String),
        sa.column("key", sa.String),
        sa.column("subset", sa.String),
        sa.column("passed", sa.Integer),
        sa.column("failed", sa.Integer),
    )
    bind = op.get_bind()
    rows = bind.execute(
        sa.select(result.c.evaluation_id, result.c.test_case_id, result.c.metric, result.c.passed)
        .join(run, run.c.id == result.c.evaluation_id)
        .where(
            result.c.error.is_(None),
            result.c.score.is_not(None),
            result.c.passed.is_not(None),
            result.c.metric.not_in(_SCORERS),
        )
        .execution_options(yield_per=_BATCH)
    )
    counts: Counter[tuple[str, str, str, bool]] = Counter()
    for run_id, case_id, metric, passed in rows:
        counts[(run_id, metric, case_id.rsplit("/", 1)[0], bool(passed))] += 1
    keys = {(run_id, metric, subset) for run_id, metric, subset, _ in counts}
    for run_id, metric, subset in sorted(keys):
        bind.execute(
            run_score.update()
            .where(
                run_score.c.run_id == run_id,
                run_score.c.key == metric,
                run_score.c.subset == subset,
            )
            .values(
                passed=counts[(run_id, metric, subset, True)],
                failed=counts[(run_id, metric, subset, False)],
            )
        )


def downgrade() -> None:
    op.drop_column("run_score", "failed")
    op.drop_column("run_score", "passed")
