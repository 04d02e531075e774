"""A key and the person behind it (the outside authorization audit), through the real provider
and the console over HTTP:

- a key changed the role of the person who made it: an admin, demoted, signed in with a key they
  had made and gave themselves back `admin` (nobody changes their own role, and a key acting for
  its maker, or for the maker of the key that made it, is them);
- a key from before keys had makers (`created_by` NULL, every key of an upgraded server) could
  not be revoked on the Keys page: a 500, so a leaked one stayed working."""

import re

import httpx

from app.tenants import service
from tests.console.helpers import signed_in as key_session
from tests.fixtures.api import Api
from tests.people.provider import Provider, csrf_of, signed_in
from tests.people.test_holding_more import _role_of
from tests.people.test_keys_console import create, person_id

EVERY_SCOPE = ["read", "write", "ingest", "review", "admin"]
SWITCH_TO_ML = r'name="tenant_id" value="([^"]+)">\s*<button[^>]*aria-label="Switch to ml"'


def _secret(made: httpx.Response) -> str:
    assert made.status_code == 200, made.text
    found = re.search(r'id="secret">(lp_[^<]+)</code>', made.text)
    assert found is not None, made.text
    return found.group(1)


def _grant(client: httpx.Client, **form: str) -> httpx.Response:
    token = csrf_of(client.get("/console/members").text)
    return client.post("/console/members", data={"csrf_token": token, **form})


def test_a_key_gives_no_role_to_the_person_behind_it(loupe: Api, idp: Provider) -> None:
    admin, _ = signed_in(loupe, idp, "ml-admins")
    # A person of team search, made admin of ml, makes a key there with every scope, and that
    # key (signed in) makes another.
    alice, sub = signed_in(loupe, idp, "search")
    alice_id = person_id(loupe, sub)
    assert _grant(admin, person_id=alice_id, role="admin").status_code == 303
    teams = alice.get("/console/teams").text
    ml = re.search(SWITCH_TO_ML, teams)
    assert ml is not None, teams
    token = csrf_of(teams)
    switched = alice.post("/console/teams", data={"tenant_id": ml.group(1), "csrf_token": token})
    assert switched.status_code == 303, switched.text
    key = _secret(create(alice, name="alice's", scopes=EVERY_SCOPE, expires="never"))
    by_key = key_session(loupe, key)
    second = _secret(create(by_key, name="made by alice's", scopes=EVERY_SCOPE, expires="never"))
    # Demoted, she turns to her keys.
    assert _grant(admin, person_id=alice_id, role="viewer").status_code == 303
    assert _role_of(admin, alice_id) == "viewer"
    for made in (key, second):
        session = key_session(loupe, made)
        for form in ({"person_id": alice_id}, {"email": f"{sub}@example.com"}):
            refused = _grant(session, role="admin", **form)
            # Her keys hold what a viewer does now (tests/people/test_demoted_keys.py), so
            # the Members page's forms are refused before the person is looked at.
            assert refused.status_code == 403, refused.text
            assert "This needs the `admin` scope" in refused.text
        assert _role_of(admin, alice_id) == "viewer"
    # Nor anyone else more than she may now (tests/people/test_demoted_keys.py): her keys hold
    # what a viewer does.
    _, other = signed_in(loupe, idp, "search")
    refused = _grant(by_key, person_id=person_id(loupe, other), role="member")
    assert refused.status_code == 403, refused.text


def test_a_key_from_before_makers_is_revoked_on_the_keys_page(loupe: Api, idp: Provider) -> None:
    with loupe.served.runtime.session() as session:
        _, key = service.create_key(session, "ml", scopes=None, created_by=None)
        session.commit()
        [old] = [k for k in service.keys_of(session, "ml") or [] if k.prefix == key[:10]]
    admin, _ = signed_in(loupe, idp, "ml-admins")
    token = csrf_of(admin.get("/console/keys").text)
    revoked = admin.post("/console/keys/revoke", data={"key_id": old.id, "csrf_token": token})
    assert revoked.status_code == 303, revoked.text
    with loupe.client(key) as client:
        assert client.get("/v1/evaluations").status_code == 401
    # A key holding less than it does not revoke it (it holds every scope).
    with loupe.served.runtime.session() as session:
        _, again = service.create_key(session, "ml", scopes=None, created_by=None)
        session.commit()
        [older] = [k for k in service.keys_of(session, "ml") or [] if k.prefix == again[:10]]
    console = key_session(loupe, loupe.new_key("ml", ["read", "admin"]))
    token = csrf_of(console.get("/console/keys").text)
    refused = console.post("/console/keys/revoke", data={"key_id": older.id, "csrf_token": token})
    assert refused.status_code == 403 and "key_id: this key holds" in refused.text
