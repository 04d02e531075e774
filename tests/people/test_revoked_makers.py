"""Revoking a key cuts off every key made with it, on both databases, through the console's
Keys page and the API: a key signed in to the console makes a key, which makes another; the
first revoked, the other two answer 401 too, each revocation is on the audit trail (those taken
along naming the key they went with), and the revoke's answer and the Keys page say so. A key
made with a revoked key that is still unrevoked (made as its maker was revoked, or before
revoking went down the chain) holds nothing, saying why."""

import re
import uuid

import httpx

from app.db import utcnow
from app.models import ApiKey
from app.tenants import service
from tests.console.helpers import csrf_of, signed_in
from tests.fixtures.api import Api

EVERY_SCOPE = ["read", "write", "ingest", "review", "admin"]


def made_key(client: httpx.Client, name: str) -> str:
    """The secret of a key with every scope that `client`'s session makes."""
    token = csrf_of(client.get("/console/keys").text)
    made = client.post(
        "/console/keys",
        data={"csrf_token": token, "name": name, "scopes": EVERY_SCOPE, "expires": "never"},
    )
    assert made.status_code == 200, made.text
    found = re.search(r'id="secret">(lp_[^<]+)</code>', made.text)
    assert found is not None, made.text
    return found.group(1)


def key_id_of(api: Api, secret: str) -> str:
    with api.served.runtime.session() as session:
        key = session.query(ApiKey).filter(ApiKey.key_hash == service.hash_key(secret)).one()
        return key.id


def test_revoking_a_key_revokes_the_keys_made_with_it(api: Api) -> None:
    team = f"chain-{uuid.uuid4().hex[:8]}"
    admin_key = api.new_key(team)
    admin = signed_in(api, admin_key)
    first = made_key(admin, "first")
    second = made_key(signed_in(api, first), "second")
    third = made_key(signed_in(api, second), "third")
    for secret in (first, second, third):
        with api.client(secret) as client:
            assert client.get("/v1/evaluations").status_code == 200
    first_id = key_id_of(api, first)

    token = csrf_of(admin.get("/console/keys").text)
    revoked = admin.post("/console/keys/revoke", data={"key_id": first_id, "csrf_token": token})
    assert revoked.status_code == 303, revoked.text
    answer = admin.get(revoked.headers["location"])
    assert answer.status_code == 200, answer.text
    assert "Revoked first and the 2 keys made with it (third, second)" in answer.text
    for secret in (first, second, third):
        with api.client(secret) as client:
            refused = client.get("/v1/evaluations")
            assert refused.status_code == 401, refused.text
            assert "unknown or revoked" in refused.json()["detail"]
    for name in ("second", "third"):
        row = re.search(rf'card-title">{name}</td>(.*?)</tr>', answer.text, re.S)
        assert row is not None, answer.text
        assert f'with <span class="mono">key:{first_id}</span> it was made with' in row.group(1)

    with api.client(admin_key) as client:
        events = client.get("/v1/audit_events", params={"action": "api_key.revoke"})
    assert events.status_code == 200, events.text
    by_key = {event["object_id"]: event for event in events.json()["data"]}
    assert by_key[first_id]["details"].get("revoked_with") is None
    for secret in (second, third):
        assert by_key[key_id_of(api, secret)]["details"]["revoked_with"] == first_id


def test_a_key_made_with_a_revoked_key_holds_nothing(api: Api) -> None:
    team = f"chain-{uuid.uuid4().hex[:8]}"
    admin = signed_in(api, api.new_key(team))
    maker = made_key(admin, "maker")
    maker_id = key_id_of(api, maker)
    with api.served.runtime.session() as session:
        # As a key the maker made while its revocation was being stored: the rows a revoke
        # from before revoking went down the chain left.
        session.query(ApiKey).filter(ApiKey.id == maker_id).update({"revoked_at": utcnow()})
        _, late = service.create_key(
            session, team, create=False, scopes=EVERY_SCOPE, created_by=f"key:{maker_id}"
        )
        session.commit()
    with api.client(late) as client:
        refused = client.get("/v1/evaluations")
    assert refused.status_code == 403, refused.text
    assert f"its maker key:{maker_id}, revoked," in refused.json()["detail"]
    listed = admin.get("/console/keys").text
    assert f"held back by its maker key:{maker_id} revoked" in listed
