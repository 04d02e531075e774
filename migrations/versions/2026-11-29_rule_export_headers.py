"""rule_export_headers: online_rule.export_header_names and export_headers_encrypted, the
headers a rule's own collector is sent (values Fernet-encrypted with LOUPE_SECRET_KEY)

Revision ID: rule_export_headers
Revises: teams_invitation
Create Date: 2026-11-29 10:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import app.db

revision: str = "rule_export_headers"
down_revision: str | None = "teams_invitation"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("online_rule") as batch:
        batch.add_column(sa.Column("export_header_names", app.db.JSONType, nullable=True))
        batch.add_column(sa.Column("export_headers_encrypted", sa.LargeBinary(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("online_rule") as batch:
        batch.drop_column("export_headers_encrypted")
        batch.drop_column("export_header_names")
