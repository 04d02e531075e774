"""failed calls: result.judge_failed_calls and candidate_failed_calls, metric_summary.failed_calls
and candidate_failed_calls (requests sent that got no answer, retries included; before this
they counted nowhere, so a judge answering 500 to every request showed 0 calls)

Revision ID: fail1
Revises: whsec1
Create Date: 2026-11-26 15:00:00

Rows stored before it start at 0: what failed then was not recorded.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "fail1"
down_revision: str | None = "whsec1"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_COLUMNS = {
    "result": ("judge_failed_calls", "candidate_failed_calls"),
    "metric_summary": ("failed_calls", "candidate_failed_calls"),
}


def upgrade() -> None:
    for table, columns in _COLUMNS.items():
        with op.batch_alter_table(table) as batch:
            for column in columns:
                batch.add_column(
                    sa.Column(column, sa.Integer(), nullable=False, server_default=sa.text("0"))
                )


def downgrade() -> None:
    for table, columns in _COLUMNS.items():
        with op.batch_alter_table(table) as batch:
            for column in reversed(columns):
                batch.drop_column(column)
