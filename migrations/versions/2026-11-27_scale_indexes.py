"""result (evaluation_id, score, test_case_index, metric_index): an evaluation's results by
score, a page at a time, without sorting every result it has

Revision ID: scale_indexes
Revises: scale_append
Create Date: 2026-11-27 07:00:00

On PostgreSQL the index is built CONCURRENTLY (outside the migration's transaction): workers
keep inserting results while `loupe migrate` runs; on ten million results it takes minutes. An
interrupted build leaves an INVALID index: `DROP INDEX CONCURRENTLY ix_result_evaluation_id_score`
and run `loupe migrate` again (docs/operations.md).
"""

from collections.abc import Sequence

from alembic import op

revision: str = "scale_indexes"
down_revision: str | None = "scale_append"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

NAME = "ix_result_evaluation_id_score"
COLUMNS = ["evaluation_id", "score", "test_case_index", "metric_index"]


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        with op.get_context().autocommit_block():
            op.create_index(NAME, "result", COLUMNS, postgresql_concurrently=True)
    else:
        op.create_index(NAME, "result", COLUMNS)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        with op.get_context().autocommit_block():
            op.drop_index(NAME, table_name="result", postgresql_concurrently=True)
    else:
        op.drop_index(NAME, table_name="result")
