"""online_rule_day.config: a rule's day is one evaluation per configuration (its metrics, judge
and target), so a PATCH that changes what is judged applies to the calls after it; the days
opened before keep config "" and the first call after the upgrade opens a day of its own

Revision ID: rule_day_config
Revises: open_appended_at
Create Date: 2026-11-28 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "rule_day_config"
down_revision: str | None = "open_appended_at"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("online_rule_day") as batch:
        batch.add_column(
            sa.Column("config", sa.String(length=16), nullable=False, server_default="")
        )
        batch.drop_constraint("pk_online_rule_day", type_="primary")
        batch.create_primary_key("pk_online_rule_day", ["rule_id", "day", "config"])


def downgrade() -> None:
    # One evaluation per rule and day again: a day's first configuration stays its rule's; the
    # later ones stay evaluations of kind `online` (`GET /v1/evaluations?kind=online`), no
    # longer read through their rule.
    day = sa.table(
        "online_rule_day",
        sa.column("rule_id", sa.String),
        sa.column("day", sa.String),
        sa.column("evaluation_id", sa.String),
    )
    connection = op.get_bind()
    kept: set[tuple[str, str]] = set()
    later: list[str] = []
    # Evaluation ids sort by when they were made.
    for rule_id, day_name, evaluation_id in connection.execute(
        sa.select(day.c.rule_id, day.c.day, day.c.evaluation_id).order_by(
            day.c.rule_id, day.c.day, day.c.evaluation_id
        )
    ):
        if (rule_id, day_name) in kept:
            later.append(evaluation_id)
        else:
            kept.add((rule_id, day_name))
    if later:
        connection.execute(day.delete().where(day.c.evaluation_id.in_(later)))
    with op.batch_alter_table("online_rule_day") as batch:
        batch.drop_constraint("pk_online_rule_day", type_="primary")
        batch.create_primary_key("pk_online_rule_day", ["rule_id", "day"])
        batch.drop_column("config")
