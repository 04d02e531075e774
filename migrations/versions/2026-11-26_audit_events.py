"""audit events: audit_event (who changed what in a tenant and when), indexed by tenant and time

Revision ID: teams2
Revises: teams1
Create Date: 2026-11-26 21:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

import app.db

revision: str = "teams2"
down_revision: str | None = "teams1"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _json() -> sa.types.TypeEngine:
    return sa.JSON(none_as_null=True).with_variant(
        postgresql.JSONB(none_as_null=True, astext_type=sa.Text()), "postgresql"
    )


def upgrade() -> None:
    op.create_table(
        "audit_event",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("tenant_id", sa.String(length=40), nullable=False),
        sa.Column("actor", sa.String(length=80), nullable=False),
        sa.Column("action", sa.String(length=64), nullable=False),
        sa.Column("object_type", sa.String(length=32), nullable=False),
        sa.Column("object_id", sa.String(length=80), nullable=False),
        sa.Column("at", app.db.UTCDateTime(timezone=True), nullable=False),
        sa.Column("details", _json(), nullable=False),
        sa.ForeignKeyConstraint(
            ["tenant_id"],
            ["tenant.id"],
            name=op.f("fk_audit_event_tenant_id_tenant"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_event")),
    )
    op.create_index("ix_audit_event_tenant_id_at", "audit_event", ["tenant_id", "at"])


def downgrade() -> None:
    op.drop_index("ix_audit_event_tenant_id_at", table_name="audit_event")
    op.drop_table("audit_event")
