"""conversation_whole: a conversation's held calls kept once judged (a conversation that
resumes is judged whole), a call's wait for its trace's retrieval, held calls read by trace

Revision ID: conversation_whole
Revises: otlp_pending_trace
Create Date: 2026-11-29 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "conversation_whole"
down_revision: str | None = "otlp_pending_trace"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("online_conversation_call") as batch:
        batch.add_column(sa.Column("waits_until", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("taken_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("judged_case", sa.String(80), nullable=True))
    op.create_index(
        "ix_online_conversation_call_trace", "online_conversation_call", ["tenant_id", "trace_id"]
    )
    op.create_index(
        "ix_online_conversation_call_taken_at", "online_conversation_call", ["taken_at"]
    )


def downgrade() -> None:
    op.drop_index("ix_online_conversation_call_taken_at", table_name="online_conversation_call")
    op.drop_index("ix_online_conversation_call_trace", table_name="online_conversation_call")
    with op.batch_alter_table("online_conversation_call") as batch:
        batch.drop_column("judged_case")
        batch.drop_column("taken_at")
        batch.drop_column("waits_until")
