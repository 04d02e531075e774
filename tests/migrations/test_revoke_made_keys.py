"""Migration revoke_made_keys, on both databases: keys made by a key revoked before revoking a
key revoked the keys made with it held nothing but showed as working on the Keys page. The
upgrade revokes them at the instant their revoked maker was revoked, each an `api_key.revoke`
naming it in `revoked_with`, by whoever revoked the maker (`system` when the trail does not
say), read back through the served console and API."""

import re
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import pytest
from redis import Redis
from sqlalchemy import create_engine, insert
from sqlalchemy.orm import Session

from app import migrate
from app.config import Settings
from app.models import ApiKey, AuditEvent, Tenant
from app.tenants.service import hash_key
from tests.audit.helpers import events
from tests.console.helpers import signed_in
from tests.fixtures.api import Api, fast_settings, served_api
from tests.fixtures.services import RedisServer

BEFORE = "rule_export_headers"
ADMIN_SECRET = "lp_" + "a" * 43
FIRST = datetime(2026, 10, 1, 12, 0, tzinfo=UTC)
SECOND = datetime(2026, 10, 2, 12, 0, tzinfo=UTC)
EARLIER = datetime(2026, 9, 1, 12, 0, tzinfo=UTC)


def key(key_id: str, tenant_id: str, made_by: str, revoked_at: datetime | None = None) -> dict:
    return {
        "id": key_id,
        "tenant_id": tenant_id,
        "key_hash": hash_key(ADMIN_SECRET) if key_id == "key_admin" else hash_key(key_id),
        "prefix": key_id[:10],
        "name": key_id.removeprefix("key_"),
        "created_at": EARLIER,
        "revoked_at": revoked_at,
        "created_by": made_by,
    }


@contextmanager
def served(request: pytest.FixtureRequest, url: str) -> Iterator[Api]:
    """The upgraded database served (with Redis on PostgreSQL)."""
    if url.startswith("sqlite"):
        with served_api(fast_settings(database_url=url)) as app:
            yield app
        return
    redis_server: RedisServer = request.getfixturevalue("redis_server")
    settings = fast_settings(
        database_url=url, redis_url=redis_server.url, queue_name=f"m_{uuid.uuid4().hex[:8]}"
    )
    redis = Redis.from_url(redis_server.url)
    try:
        with served_api(settings, redis) as app:
            yield app
    finally:
        redis.close()


def test_keys_made_by_a_key_revoked_before_the_cascade_are_revoked_with_it(
    url: str, request: pytest.FixtureRequest
) -> None:
    migrate.upgrade(Settings(database_url=url), BEFORE)
    engine = create_engine(url)
    rows: list[dict[str, Any]] = [
        key("key_admin", "ten_1", "operator"),
        # Revoked by an admin (on the trail), with a key it made and a key that one made.
        key("key_first", "ten_1", "person:per_admin", FIRST),
        key("key_second", "ten_1", "key:key_first"),
        key("key_third", "ten_1", "key:key_second"),
        # Revoked before the maker: stays as it was.
        key("key_early", "ten_1", "key:key_first", EARLIER),
        # Revoked with nothing on the trail (before it existed): `system` revokes its keys.
        key("key_quiet", "ten_1", "operator", SECOND),
        key("key_quietly", "ten_1", "key:key_quiet"),
        # Made by a working key, or naming another team's key: stay working.
        key("key_fine", "ten_1", "key:key_admin"),
        key("key_other", "ten_2", "key:key_first"),
    ]
    try:
        with Session(engine) as session:
            session.execute(
                insert(Tenant), [{"id": "ten_1", "name": "a"}, {"id": "ten_2", "name": "b"}]
            )
            session.flush()
            session.execute(insert(ApiKey), rows)
            session.add(
                AuditEvent(
                    id="aud_first",
                    tenant_id="ten_1",
                    actor="person:per_admin",
                    action="api_key.revoke",
                    object_type="api_key",
                    object_id="key_first",
                    at=FIRST,
                    details={"prefix": "key_first", "name": "first"},
                )
            )
            session.commit()
    finally:
        engine.dispose()

    with served(request, url) as app:
        admin = signed_in(app, ADMIN_SECRET)
        listed = admin.get("/console/keys")
        assert listed.status_code == 200, listed.text
        for name, maker in (
            ("second", "key_first"),
            ("third", "key_first"),
            ("quietly", "key_quiet"),
        ):
            row = re.search(rf'card-title">{name}</td>(.*?)</tr>', listed.text, re.S)
            assert row is not None, listed.text
            assert f'with <span class="mono">key:{maker}</span> it was made with' in row.group(1)
        with app.served.runtime.session() as session:
            revoked = {k.id: k.revoked_at for k in session.query(ApiKey)}
        assert revoked == {
            "key_admin": None,
            "key_first": FIRST,
            "key_second": FIRST,
            "key_third": FIRST,
            "key_early": EARLIER,
            "key_quiet": SECOND,
            "key_quietly": SECOND,
            "key_fine": None,
            "key_other": None,
        }
        trail = {
            event["object_id"]: event
            for event in events(app.client(ADMIN_SECRET), action="api_key.revoke")
            if event["details"].get("migration") == "revoke_made_keys"
        }
        assert sorted(trail) == ["key_quietly", "key_second", "key_third"]
        assert {
            object_id: (e["actor"], e["details"]["revoked_with"]) for object_id, e in trail.items()
        } == {
            "key_second": ("person:per_admin", "key_first"),
            "key_third": ("person:per_admin", "key_first"),
            "key_quietly": ("system", "key_quiet"),
        }
        assert trail["key_second"]["details"]["revoked_at"] == FIRST.isoformat()
    # Down and up again: the keys stay revoked, and nothing is revoked twice.
    settings = Settings(database_url=url)
    migrate.downgrade(settings, BEFORE)
    migrate.upgrade(settings)
    engine = create_engine(url)
    try:
        with Session(engine) as session:
            again = session.query(AuditEvent).filter(AuditEvent.action == "api_key.revoke").count()
        assert again == 1 + 3
    finally:
        engine.dispose()
