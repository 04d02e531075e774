"""revoke_made_keys: keys made by a key revoked before revoking a key revoked the keys made with
it are revoked now, as that revocation would have revoked them

Until revoking went down the chain (app/tenants/key_chain.revoke_with_made), revoking a key left
the keys made with it (signed in to the console with it, or with a key it made, and so on)
unrevoked. Those hold nothing at request time (a revoked key among a key's makers cuts it off,
app/people/keys.held_back), but the Keys page and `loupe keys list` showed them as working. Each
is revoked here as the cascade would have done it:

- `revoked_at` is the time its revoked maker was revoked (the nearest revoked key up its
  makers, the one its requests' 403 named), so the Keys page shows it revoked *with* that key
  (`key_chain.revoked_along`), as it shows the keys a revoke takes along now;
- an `api_key.revoke` audit event on its team's trail names that maker in `revoked_with`, as
  the cascade's do. Its actor is whoever revoked the maker (the maker's own `api_key.revoke`
  event), or `system` when that is not on the trail (revoked before the audit trail existed,
  or pruned by LOUPE_RETENTION_DAYS since); `migration: revoke_made_keys` says the event was
  written by this upgrade, and its `at` is when the upgrade ran (`revoked_at` in its details,
  and on the key, is the instant the revocation stands for), so the trail does not claim the
  revoker did anything at that instant.

Downgrade leaves them revoked: un-revoking a key would hand a leaked key back its access.

Revision ID: revoke_made_keys
Revises: rule_export_headers
Create Date: 2026-11-29 12:00:00
"""

from collections.abc import Sequence
from datetime import datetime

import sqlalchemy as sa
from alembic import op

import app.db
from app.ids import new_id

revision: str = "revoke_made_keys"
down_revision: str | None = "rule_export_headers"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The actor of jobs and the ticker on the audit trail (app.audit.SYSTEM), copied so this
# revision stays as it is whatever the app's code becomes.
SYSTEM = "system"
# As app/tenants/key_chain._CHAIN_MAX: a walk up a key's makers ends whatever the rows say.
CHAIN_MAX = 32

api_key = sa.table(
    "api_key",
    sa.column("id", sa.String),
    sa.column("tenant_id", sa.String),
    sa.column("prefix", sa.String),
    sa.column("name", sa.String),
    sa.column("created_by", sa.String),
    sa.column("revoked_at", app.db.UTCDateTime),
)
audit_event = sa.table(
    "audit_event",
    sa.column("id", sa.String),
    sa.column("tenant_id", sa.String),
    sa.column("actor", sa.String),
    sa.column("action", sa.String),
    sa.column("object_type", sa.String),
    sa.column("object_id", sa.String),
    sa.column("at", app.db.UTCDateTime),
    sa.column("details", app.db.JSONType),
)


def _revoked_maker(key: sa.Row, by_id: dict[tuple[str, str], sa.Row]) -> sa.Row | None:
    """The nearest revoked key up `key`'s makers, in its team (the one its 403 names,
    app/tenants/key_chain.root_maker); None when there is none."""
    at, seen = key, {key.id}
    for _ in range(CHAIN_MAX):
        made_by = at.created_by or ""
        if not made_by.startswith("key:"):
            return None
        maker = by_id.get((key.tenant_id, made_by.removeprefix("key:")))
        if maker is None or maker.id in seen:
            return None
        if maker.revoked_at is not None:
            return maker
        at = maker
        seen.add(maker.id)
    return None


def _revoker(connection: sa.Connection, maker: sa.Row) -> str:
    """Who revoked `maker`, as its own `api_key.revoke` event says; `system` without one."""
    actor = connection.scalar(
        sa.select(audit_event.c.actor)
        .where(
            audit_event.c.tenant_id == maker.tenant_id,
            audit_event.c.action == "api_key.revoke",
            audit_event.c.object_id == maker.id,
        )
        .order_by(audit_event.c.at.desc())
        .limit(1)
    )
    return actor or SYSTEM


def upgrade() -> None:
    connection = op.get_bind()
    keys = connection.execute(
        sa.select(
            api_key.c.id,
            api_key.c.tenant_id,
            api_key.c.prefix,
            api_key.c.name,
            api_key.c.created_by,
            api_key.c.revoked_at,
        ).order_by(api_key.c.id)
    ).all()
    by_id = {(key.tenant_id, key.id): key for key in keys}
    now = app.db.utcnow()
    cut_off: list[tuple[sa.Row, sa.Row]] = []
    for key in keys:
        if key.revoked_at is None:
            maker = _revoked_maker(key, by_id)
            if maker is not None:
                cut_off.append((key, maker))
    for key, maker in cut_off:
        revoked_at: datetime = maker.revoked_at
        connection.execute(
            sa.update(api_key)
            .where(api_key.c.id == key.id, api_key.c.revoked_at.is_(None))
            .values(revoked_at=revoked_at)
        )
        connection.execute(
            sa.insert(audit_event).values(
                id=new_id("aud"),
                tenant_id=key.tenant_id,
                actor=_revoker(connection, maker),
                action="api_key.revoke",
                object_type="api_key",
                object_id=key.id,
                at=now,
                details={
                    "prefix": key.prefix,
                    "name": key.name,
                    "revoked_with": maker.id,
                    "revoked_at": revoked_at.isoformat(),
                    "migration": revision,
                },
            )
        )


def downgrade() -> None:
    # The keys stay revoked (see above).
    pass
