"""teams keys: api_key gains scopes (NULL: every scope, as for every key made before), name,
expires_at and created_by

Revision ID: teams1
Revises: cmpfrag1
Create Date: 2026-11-26 21:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

import app.db

revision: str = "teams1"
down_revision: str | None = "cmpfrag1"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_JSON = sa.JSON(none_as_null=True).with_variant(
    postgresql.JSONB(none_as_null=True, astext_type=sa.Text()), "postgresql"
)


def upgrade() -> None:
    with op.batch_alter_table("api_key") as batch:
        batch.add_column(sa.Column("scopes", _JSON, nullable=True))
        batch.add_column(sa.Column("name", sa.String(200), nullable=True))
        batch.add_column(sa.Column("expires_at", app.db.UTCDateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("created_by", sa.String(80), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("api_key") as batch:
        batch.drop_column("created_by")
        batch.drop_column("expires_at")
        batch.drop_column("name")
        batch.drop_column("scopes")
