"""invitation: a role granted by email, waiting for the next sign-in with that address

Revision ID: teams_invitation
Revises: conversation_whole
Create Date: 2026-11-29 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import app.db

revision: str = "teams_invitation"
down_revision: str | None = "conversation_whole"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "invitation",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column(
            "tenant_id",
            sa.String(40),
            sa.ForeignKey("tenant.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("email", sa.String(320), nullable=False),
        sa.Column("role", sa.String(20), nullable=False),
        sa.Column("invited_by", sa.String(100), nullable=False),
        sa.Column("created_at", app.db.UTCDateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("tenant_id", "email", name="uq_invitation_tenant_email"),
    )
    op.create_index("ix_invitation_tenant_id", "invitation", ["tenant_id"])
    op.create_index("ix_invitation_email", "invitation", ["email"])


def downgrade() -> None:
    op.drop_index("ix_invitation_email", table_name="invitation")
    op.drop_index("ix_invitation_tenant_id", table_name="invitation")
    op.drop_table("invitation")
