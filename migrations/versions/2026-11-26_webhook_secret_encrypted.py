"""webhook secret encrypted: webhook_endpoint.secret (a `whsec_` signing secret in clear)
becomes secret_encrypted, its Fernet token under LOUPE_SECRET_KEY, like candidate-model keys

Revision ID: whsec1
Revises: quota1
Create Date: 2026-11-26 11:30:00

The key is the running settings' (`loupe migrate` passes them; the alembic command reads
LOUPE_* from the environment): run it with the LOUPE_SECRET_KEY the API and workers use.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import context, op

from app import crypto
from app.config import Settings

revision: str = "whsec1"
down_revision: str | None = "quota1"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_endpoint = sa.table(
    "webhook_endpoint",
    sa.column("id", sa.String()),
    sa.column("secret", sa.String()),
    sa.column("secret_encrypted", sa.LargeBinary()),
)


def _settings() -> Settings:
    settings = context.config.attributes.get("settings")
    return settings if isinstance(settings, Settings) else Settings()


def upgrade() -> None:
    with op.batch_alter_table("webhook_endpoint") as batch:
        batch.add_column(sa.Column("secret_encrypted", sa.LargeBinary(), nullable=True))
    settings = _settings()
    connection = op.get_bind()
    rows = connection.execute(sa.select(_endpoint.c.id, _endpoint.c.secret)).all()
    for endpoint_id, secret in rows:
        connection.execute(
            _endpoint.update()
            .where(_endpoint.c.id == endpoint_id)
            .values(secret_encrypted=crypto.encrypt(settings, secret))
        )
    with op.batch_alter_table("webhook_endpoint") as batch:
        batch.alter_column("secret_encrypted", existing_type=sa.LargeBinary(), nullable=False)
        batch.drop_column("secret")


def downgrade() -> None:
    with op.batch_alter_table("webhook_endpoint") as batch:
        batch.add_column(sa.Column("secret", sa.String(length=128), nullable=True))
    settings = _settings()
    connection = op.get_bind()
    rows = connection.execute(sa.select(_endpoint.c.id, _endpoint.c.secret_encrypted)).all()
    for endpoint_id, token in rows:
        # SecretUnavailable (another LOUPE_SECRET_KEY) stops the downgrade before anything is
        # lost: the transaction rolls back.
        connection.execute(
            _endpoint.update()
            .where(_endpoint.c.id == endpoint_id)
            .values(secret=crypto.decrypt(settings, token))
        )
    with op.batch_alter_table("webhook_endpoint") as batch:
        batch.alter_column("secret", existing_type=sa.String(length=128), nullable=False)
        batch.drop_column("secret_encrypted")
