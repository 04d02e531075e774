"""online counts: a rule's `judged` counter, which counted the calls sent to its judge, is
`sent`; `judged` and `errored` count its results stored with a score and with an error, seeded
from its hourly rollups; online_rule_backfilled holds the spans a rule's backfills counted, so a
later backfill over the same window does not count them again

Revision ID: online7
Revises: online6
Create Date: 2026-11-26 20:30:00
"""

from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision: str = "online7"
down_revision: str | None = "online6"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "online_rule_backfilled",
        sa.Column("rule_id", sa.String(length=40), nullable=False),
        sa.Column("trace_id", sa.String(length=32), nullable=False),
        sa.Column("span_id", sa.String(length=16), nullable=False),
        sa.ForeignKeyConstraint(
            ["rule_id"],
            ["online_rule.id"],
            name=op.f("fk_online_rule_backfilled_rule_id_online_rule"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint(
            "rule_id", "trace_id", "span_id", name=op.f("pk_online_rule_backfilled")
        ),
    )
    bind = op.get_bind()
    bind.execute(sa.text("UPDATE online_rule_count SET counter = 'sent' WHERE counter = 'judged'"))
    counts: Counter[tuple[str, str, str]] = Counter()
    for rule_id, bucket_start, count, errored in bind.execute(
        sa.text("SELECT rule_id, bucket_start, count, errored FROM online_rollup")
    ):
        # SQLite hands the hour back as text (UTC), PostgreSQL as an aware datetime.
        if isinstance(bucket_start, datetime) and bucket_start.tzinfo is not None:
            bucket_start = bucket_start.astimezone(UTC)
        day = str(bucket_start)[:10]
        counts[(rule_id, day, "judged")] += count - errored
        counts[(rule_id, day, "errored")] += errored
    rows = [
        {"rule_id": rule_id, "day": day, "counter": counter, "count": n}
        for (rule_id, day, counter), n in sorted(counts.items())
        if n
    ]
    if rows:
        bind.execute(
            sa.text(
                "INSERT INTO online_rule_count (rule_id, day, counter, count) "
                "VALUES (:rule_id, :day, :counter, :count)"
            ),
            rows,
        )


def downgrade() -> None:
    bind = op.get_bind()
    bind.execute(sa.text("DELETE FROM online_rule_count WHERE counter IN ('judged', 'errored')"))
    bind.execute(sa.text("UPDATE online_rule_count SET counter = 'judged' WHERE counter = 'sent'"))
    op.drop_table("online_rule_backfilled")
