"""signed_out_session: console sessions signed out before their cookie expired, refused by
every API process until then

Revision ID: console1
Revises: gc1
Create Date: 2026-11-23 09:20:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from app.db import UTCDateTime

revision: str = "console1"
down_revision: str | None = "gc1"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "signed_out_session",
        sa.Column("nonce", sa.String(length=64), nullable=False),
        sa.Column("expires_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("nonce", name=op.f("pk_signed_out_session")),
    )
    op.create_index(op.f("ix_signed_out_session_expires_at"), "signed_out_session", ["expires_at"])


def downgrade() -> None:
    op.drop_index(op.f("ix_signed_out_session_expires_at"), table_name="signed_out_session")
    op.drop_table("signed_out_session")
