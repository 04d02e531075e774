"""result (evaluation_id, score, test_case_index, metric_index): an evaluation's results by
score, a page at a time, without sorting every result it has

Revision ID: scale_indexes
Revises: scale_append
Create Date: 2026-11-27 07:00:00

On PostgreSQL the index is built CONCURRENTLY (outside the migration's transaction): workers
keep inserting results while `loupe migrate` runs. An index of that name built ahead by an
operator is kept when valid; an interrupted build's (INVALID) is dropped and built again
(docs/operations.md, "At scale").
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "scale_indexes"
down_revision: str | None = "scale_append"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

NAME = "ix_result_evaluation_id_score"
COLUMNS = ["evaluation_id", "score", "test_case_index", "metric_index"]


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        op.create_index(NAME, "result", COLUMNS)
        return
    # Built ahead by an operator (docs/operations.md): kept if valid; a build that was
    # interrupted left it INVALID (unused by queries), so it is made again.
    valid = bind.execute(
        sa.text(
            "SELECT i.indisvalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
            "WHERE c.relname = :name"
        ),
        {"name": NAME},
    ).scalar()
    with op.get_context().autocommit_block():
        if valid is False:
            op.drop_index(NAME, table_name="result", postgresql_concurrently=True)
        if not valid:
            op.create_index(NAME, "result", COLUMNS, postgresql_concurrently=True)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        with op.get_context().autocommit_block():
            op.drop_index(NAME, table_name="result", postgresql_concurrently=True)
    else:
        op.drop_index(NAME, table_name="result")
