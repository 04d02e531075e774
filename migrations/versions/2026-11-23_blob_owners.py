"""blob owners: which tenants' rows reference each blob (media are served to those only)

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-23 04:30:00
"""

import json
import re
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_REFERENCE = re.compile(r"blob:sha256:([0-9a-f]{64})")


def upgrade() -> None:
    op.create_table(
        "blob_owner",
        sa.Column("tenant_id", sa.String(length=40), nullable=False),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(
            ["tenant_id"],
            ["tenant.id"],
            name=op.f("fk_blob_owner_tenant_id_tenant"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["sha256"],
            ["blob.sha256"],
            name=op.f("fk_blob_owner_sha256_blob"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tenant_id", "sha256", name=op.f("pk_blob_owner")),
    )
    # Rows stored before this revision: read every reference they hold, once.
    bind = op.get_bind()
    owners: set[tuple[str, str]] = set()
    queries = [
        "SELECT e.tenant_id, t.input, t.actual_output, t.expected_output, t.context, "
        "t.retrieval_context, t.messages FROM test_case t JOIN evaluation e "
        "ON e.id = t.evaluation_id",
        "SELECT d.tenant_id, r.messages FROM dataset_row r JOIN dataset d ON d.id = r.dataset_id",
    ]
    for query in queries:
        for row in bind.execute(sa.text(query)):
            text = " ".join(
                value if isinstance(value, str) else json.dumps(value) for value in row[1:]
            )
            owners.update((row[0], digest) for digest in _REFERENCE.findall(text))
    known = {digest for (digest,) in bind.execute(sa.text("SELECT sha256 FROM blob"))}
    rows = [{"tenant_id": t, "sha256": d} for t, d in sorted(owners) if d in known]
    if rows:
        table = sa.table("blob_owner", sa.column("tenant_id"), sa.column("sha256"))
        op.bulk_insert(table, rows)


def downgrade() -> None:
    op.drop_table("blob_owner")
