"""blob refs: which evaluations and datasets name each blob, so deletion's garbage collection
looks refs up by digest instead of searching every row's content

Revision ID: gc1
Revises: cost4
Create Date: 2026-11-23 08:30:00
"""

import json
import re
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "gc1"
down_revision: str | None = "cost4"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_REFERENCE = re.compile(r"blob:sha256:([0-9a-f]{64})")
_BATCH = 1000


def upgrade() -> None:
    op.create_table(
        "blob_ref",
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("holder_id", sa.String(length=40), nullable=False),
        sa.Column("tenant_id", sa.String(length=40), nullable=False),
        sa.ForeignKeyConstraint(
            ["tenant_id"],
            ["tenant.id"],
            name=op.f("fk_blob_ref_tenant_id_tenant"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("sha256", "holder_id", name=op.f("pk_blob_ref")),
    )
    op.create_index("ix_blob_ref_holder_id", "blob_ref", ["holder_id"])
    # Rows stored before this revision: read the references they hold, once, a batch at a time.
    bind = op.get_bind()
    table = sa.table(
        "blob_ref", sa.column("sha256"), sa.column("holder_id"), sa.column("tenant_id")
    )
    queries = [
        "SELECT e.tenant_id, e.id, t.input, t.actual_output, t.expected_output, t.context, "
        "t.retrieval_context, t.messages FROM test_case t JOIN evaluation e "
        "ON e.id = t.evaluation_id",
        "SELECT d.tenant_id, d.id, r.messages FROM dataset_row r "
        "JOIN dataset d ON d.id = r.dataset_id",
    ]
    refs: set[tuple[str, str, str]] = set()
    for query in queries:
        # Streamed (a server-side cursor on PostgreSQL): the tables may be large.
        for row in bind.execute(sa.text(query).execution_options(yield_per=_BATCH)):
            text = " ".join(
                value if isinstance(value, str) else json.dumps(value)
                for value in row[2:]
                if value is not None
            )
            refs.update((digest, row[1], row[0]) for digest in _REFERENCE.findall(text))
    rows = [{"sha256": d, "holder_id": h, "tenant_id": t} for d, h, t in sorted(refs)]
    for start in range(0, len(rows), _BATCH):
        op.bulk_insert(table, rows[start : start + _BATCH])


def downgrade() -> None:
    op.drop_index("ix_blob_ref_holder_id", table_name="blob_ref")
    op.drop_table("blob_ref")
