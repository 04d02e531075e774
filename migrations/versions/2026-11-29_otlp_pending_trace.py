"""otlp_pending_trace: retrieval spans kept aside for the later calls of their trace, read by
trace id (a trace's retrieval step and its model call often travel in separate exports)

Revision ID: otlp_pending_trace
Revises: unqueued_slice
Create Date: 2026-11-29 07:00:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "otlp_pending_trace"
down_revision: str | None = "unqueued_slice"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_otlp_pending_trace", "otlp_pending", ["tenant_id", "trace_id"])


def downgrade() -> None:
    op.drop_index("ix_otlp_pending_trace", table_name="otlp_pending")
