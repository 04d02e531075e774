"""online rule spans: online_rule_span holds each span a rule stored as a test case, once, so a
retried export of the same span is counted `skipped:duplicate` instead of judged again; filled
from the calls already kept (online_call, through the rules' days)

Revision ID: online8
Revises: teams2
Create Date: 2026-11-26 21:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "online8"
down_revision: str | None = "teams2"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "online_rule_span",
        sa.Column("rule_id", sa.String(length=40), nullable=False),
        sa.Column("trace_id", sa.String(length=32), nullable=False),
        sa.Column("span_id", sa.String(length=16), nullable=False),
        sa.ForeignKeyConstraint(
            ["rule_id"],
            ["online_rule.id"],
            name=op.f("fk_online_rule_span_rule_id_online_rule"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("rule_id", "trace_id", "span_id", name=op.f("pk_online_rule_span")),
    )
    op.get_bind().execute(
        sa.text(
            "INSERT INTO online_rule_span (rule_id, trace_id, span_id) "
            "SELECT DISTINCT online_rule_day.rule_id, online_call.trace_id, online_call.span_id "
            "FROM online_call JOIN online_rule_day "
            "ON online_rule_day.evaluation_id = online_call.evaluation_id"
        )
    )


def downgrade() -> None:
    op.drop_table("online_rule_span")
