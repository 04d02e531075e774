"""usage_day outlives its evaluation: a deleted evaluation's calls were made and billed, so they
stay in the tenant's usage (GET /v1/usage) and in what the daily budget counts as spent today
(before, deleting an evaluation gave its spend back). The row's evaluation id is kept, without
a foreign key; the rows now go with their tenant instead.

Revision ID: usage_outlives_evaluation
Revises: webhook_delivery_event
Create Date: 2026-11-28 15:00:00

A downgrade deletes the usage of evaluations no longer stored (the old foreign key needs it).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "usage_outlives_evaluation"
down_revision: str | None = "webhook_delivery_event"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TO_EVALUATION = "fk_usage_day_evaluation_id_evaluation"
_TO_TENANT = "fk_usage_day_tenant_id_tenant"


def upgrade() -> None:
    # Every row's evaluation (and so its tenant) exists: the old cascade saw to it.
    if op.get_bind().dialect.name == "postgresql":
        op.drop_constraint(_TO_EVALUATION, "usage_day", type_="foreignkey")
        # NOT VALID, then validated: the check reads the table without blocking its writers.
        op.execute(
            f"ALTER TABLE usage_day ADD CONSTRAINT {_TO_TENANT} FOREIGN KEY (tenant_id) "
            "REFERENCES tenant (id) ON DELETE CASCADE NOT VALID"
        )
        op.execute(f"ALTER TABLE usage_day VALIDATE CONSTRAINT {_TO_TENANT}")
        return
    with op.batch_alter_table("usage_day", recreate="always") as batch:
        batch.drop_constraint(_TO_EVALUATION, type_="foreignkey")
        batch.create_foreign_key(_TO_TENANT, "tenant", ["tenant_id"], ["id"], ondelete="CASCADE")


def downgrade() -> None:
    usage = sa.table("usage_day", sa.column("evaluation_id"))
    evaluation = sa.table("evaluation", sa.column("id"))
    op.execute(usage.delete().where(~usage.c.evaluation_id.in_(sa.select(evaluation.c.id))))
    with op.batch_alter_table("usage_day", recreate="auto") as batch:
        batch.drop_constraint(_TO_TENANT, type_="foreignkey")
        batch.create_foreign_key(
            _TO_EVALUATION, "evaluation", ["evaluation_id"], ["id"], ondelete="CASCADE"
        )
