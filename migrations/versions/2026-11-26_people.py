"""people: person (signed in through OIDC, unique by issuer and subject) and membership (a
person's role in a team, from the groups claim or granted by a team admin)

Revision ID: teams3
Revises: stable2
Create Date: 2026-11-26 21:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import app.db

revision: str = "teams3"
down_revision: str | None = "stable2"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "person",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("issuer", sa.String(500), nullable=False),
        sa.Column("subject", sa.String(255), nullable=False),
        sa.Column("email", sa.String(320), nullable=True),
        sa.Column("name", sa.String(200), nullable=True),
        sa.Column("created_at", app.db.UTCDateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("issuer", "subject", name="uq_person_issuer_subject"),
    )
    op.create_table(
        "membership",
        sa.Column(
            "person_id",
            sa.String(40),
            sa.ForeignKey("person.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "tenant_id",
            sa.String(40),
            sa.ForeignKey("tenant.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("role", sa.String(20), nullable=False),
        sa.Column("source", sa.String(20), nullable=False),
        sa.Column("created_at", app.db.UTCDateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_membership_tenant_id", "membership", ["tenant_id"])


def downgrade() -> None:
    op.drop_index("ix_membership_tenant_id", table_name="membership")
    op.drop_table("membership")
    op.drop_table("person")
