"""run scores: the report's running sums per key and subset

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-22 23:00:00
"""

from collections import defaultdict
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0005"
down_revision: str | None = "0004"
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
    run_score = op.create_table(
        "run_score",
        sa.Column("run_id", sa.String(length=40), nullable=False),
        sa.Column("key", sa.String(length=32), nullable=False),
        sa.Column("subset", sa.String(length=256), nullable=False),
        sa.Column("total", sa.Float(), nullable=False),
        sa.Column("num", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["run_id"], ["run.id"], name=op.f("fk_run_score_run_id_run"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("run_id", "key", "subset", name=op.f("pk_run_score")),
    )
    # Runs stored before this revision: sum their results once.
    result = sa.table(
        "result",
        sa.column("evaluation_id", sa.String),
        sa.column("test_case_id", sa.String),
        sa.column("type", sa.String),
        sa.column("error", _json()),
        sa.column("logs", _json()),
    )
    run = sa.table("run", sa.column("id", sa.String))
    rows = op.get_bind().execute(
        sa.select(result.c.evaluation_id, result.c.test_case_id, result.c.type, result.c.logs)
        .join(run, run.c.id == result.c.evaluation_id)
        .where(result.c.error.is_(None), result.c.type.in_(list(_KEYS)))
    )
    sums: dict[tuple[str, str, str], list[float]] = defaultdict(lambda: [0.0, 0])
    for run_id, case_id, type_, logs in rows:
        subset = case_id.rsplit("/", 1)[0]
        for key in _KEYS[type_]:
            value = (logs or {}).get(key)
            if isinstance(value, int | float):
                total = sums[(run_id, key, subset)]
                total[0] += value
                total[1] += 1
    if sums:
        op.bulk_insert(
            run_score,
            [
                {"run_id": r, "key": k, "subset": s, "total": t, "num": int(n)}
                for (r, k, s), (t, n) in sums.items()
            ],
        )


def downgrade() -> None:
    op.drop_table("run_score")
