"""A team admin's keys in the console (/console/keys), signed in through the real provider: the
team's keys listed, one made through the form (its secret shown once, on a page no cache keeps,
never on the list or the audit trail), revoked (the key answers 401 from then on), each change on
the audit trail as `person:<id>`; another team's key is a 404; anyone but a team admin, and an API
key's session, gets the 403 page naming `admin`."""

import re
from datetime import timedelta

import httpx

from app.db import utcnow
from app.models import Person
from app.tenants import service
from tests.console.helpers import signed_in as key_session
from tests.fixtures.api import Api
from tests.people.provider import Provider, csrf_of, sign_in, signed_in


def keys_page(client: httpx.Client) -> tuple[str, str]:
    page = client.get("/console/keys")
    assert page.status_code == 200, page.text
    return page.text, csrf_of(page.text)


def create(client: httpx.Client, **form: object) -> httpx.Response:
    _, token = keys_page(client)
    return client.post("/console/keys", data={"csrf_token": token, **form})


def person_id(loupe: Api, sub: str) -> str:
    with loupe.served.runtime.session() as session:
        found = session.query(Person).filter(Person.subject == sub).one()
        return found.id


def test_an_admin_creates_a_key_sees_its_secret_once_and_revokes_it(
    loupe: Api, idp: Provider
) -> None:
    admin, sub = signed_in(loupe, idp, "ml-admins")
    actor = f"person:{person_id(loupe, sub)}"
    assert 'href="/console/keys"' in admin.get("/console/evaluations").text
    made = create(admin, name="ci reader", scopes=["read", "ingest"], expires="90d")
    assert made.status_code == 200, made.text
    assert made.headers["cache-control"] == "no-store"
    secret = re.search(r'<code class="mono secret" id="secret">(lp_[^<]+)</code>', made.text)
    assert secret, made.text
    key = secret.group(1)

    with loupe.client(key) as client:
        assert client.get("/v1/evaluations").status_code == 200
        refused = client.post("/v1/evaluations", json={})
        assert refused.status_code == 403 and "write" in refused.text

    listed, token = keys_page(admin)
    assert key not in listed and key[:10] in listed
    row = re.search(r'<td class="card-title">ci reader</td>(.*?)</tr>', listed, re.S)
    assert row, listed
    assert "read, ingest" in row.group(1) and actor in row.group(1) and "live" in row.group(1)
    key_id = re.search(r'name="key_id" value="(key_[^"]+)"', row.group(1)).group(1)

    revoked = admin.post("/console/keys/revoke", data={"csrf_token": token, "key_id": key_id})
    assert revoked.status_code == 303
    with loupe.client(key) as client:
        assert client.get("/v1/evaluations").status_code == 401
    listed, _ = keys_page(admin)
    assert "revoked" in re.search(
        r'<td class="card-title">ci reader</td>(.*?)</tr>', listed, re.S
    ).group(1)

    audit = admin.get("/console/audit", params={"object_id": key_id}).text
    assert "api_key.create" in audit and "api_key.revoke" in audit and actor in audit
    assert key not in audit


def test_the_form_names_the_field_at_fault(loupe: Api, idp: Provider) -> None:
    admin, _ = signed_in(loupe, idp, "ml-admins")
    for form, field in (
        ({"name": "", "scopes": ["read"], "expires": "90d"}, "name"),
        ({"name": "x", "expires": "90d"}, "scopes"),
        ({"name": "x", "scopes": ["read", "root"], "expires": "90d"}, "scopes"),
        ({"name": "x", "scopes": ["read"], "expires": "10y"}, "expires"),
    ):
        answer = create(admin, **form)
        assert answer.status_code == 400, form
        assert f'role="alert">{field}:' in answer.text, answer.text
        assert 'id="secret"' not in answer.text


def test_another_teams_key_is_a_404(loupe: Api, idp: Provider) -> None:
    theirs = loupe.new_key("search")
    with loupe.served.runtime.session() as session:
        (key,) = [k for k in service.keys_of(session, "search") or [] if k.prefix == theirs[:10]]
    admin, _ = signed_in(loupe, idp, "ml-admins")
    _, token = keys_page(admin)
    assert key.id not in admin.get("/console/keys").text
    answer = admin.post("/console/keys/revoke", data={"csrf_token": token, "key_id": key.id})
    assert answer.status_code == 404
    with loupe.client(theirs) as client:
        assert client.get("/v1/evaluations").status_code == 200


def test_only_a_team_admin_manages_keys(loupe: Api, idp: Provider) -> None:
    member, _ = signed_in(loupe, idp, "ml")
    assert 'href="/console/keys"' not in member.get("/console/evaluations").text
    page = member.get("/console/keys")
    assert page.status_code == 403 and "needs the `admin` scope" in page.text
    token = csrf_of(member.get("/console/evaluations").text)
    made = member.post(
        "/console/keys", data={"csrf_token": token, "name": "x", "scopes": "read", "expires": "30d"}
    )
    assert made.status_code == 403 and 'id="secret"' not in made.text
    # A key signed in needs the `admin` scope too; a key with every scope has it.
    writer = key_session(loupe, loupe.new_key("ml", ["read", "write", "ingest", "review"]))
    assert writer.get("/console/keys").status_code == 403
    page = key_session(loupe, loupe.new_key("ml")).get("/console/keys")
    assert page.status_code == 200
    # The page says what each scope a key can be given allows, `admin` included.
    for scope in ("read", "write", "ingest", "review", "admin"):
        assert f"<strong>{scope}</strong> (" in page.text


def test_a_revoke_without_the_forms_token_is_refused(loupe: Api, idp: Provider) -> None:
    admin, _ = signed_in(loupe, idp, "ml-admins")
    assert admin.post("/console/keys/revoke", data={"key_id": "key_x"}).status_code == 403


def test_nobody_gives_more_than_they_hold(loupe: Api, idp: Provider) -> None:
    """A key with `admin` alone, signed in to the console, manages keys and members but makes no
    key with a scope it lacks and grants no role holding one."""
    console = key_session(loupe, loupe.new_key("ml", ["admin"]))
    page = console.get("/console/keys")
    assert page.status_code == 200
    token = csrf_of(page.text)
    form = {"csrf_token": token, "name": "wider", "expires": "30d"}
    wider = console.post("/console/keys", data={**form, "scopes": ["read", "write", "admin"]})
    assert wider.status_code == 403 and 'id="secret"' not in wider.text
    assert "you do not hold read, write" in wider.text
    narrow = console.post("/console/keys", data={**form, "scopes": ["admin"]})
    assert narrow.status_code == 200 and 'id="secret"' in narrow.text
    # A person to grant a role to: an admin role holds every scope, so it is refused.
    _, sub = signed_in(loupe, idp, "search")
    granted = console.post(
        "/console/members",
        data={"email": f"{sub}@example.com", "role": "admin", "csrf_token": token},
    )
    assert granted.status_code == 403 and "which you do not hold" in granted.text


def test_a_key_makes_no_key_that_outlives_it(loupe: Api) -> None:
    """Nobody gives more than they hold, in time too: a key given for 40 days, signed in to the
    console, made keys that never expire (or last a year), outliving its own expiry. They now
    expire with it, and the answer page says so; a shorter expiry is kept as chosen."""
    ends = utcnow() + timedelta(days=40)
    with loupe.served.runtime.session() as session:
        _, expiring = service.create_key(session, "ml", scopes=["read", "admin"], expires_at=ends)
        session.commit()
    console = key_session(loupe, expiring)
    made = {}
    for expires in ("never", "90d", "365d", "30d"):
        answer = create(console, name=f"made {expires}", scopes=["read"], expires=expires)
        assert answer.status_code == 200 and 'id="secret"' in answer.text, answer.text
        assert ("does not outlive it" in answer.text) == (expires != "30d"), expires
        made[expires] = re.search(r'id="secret">(lp_[^<]+)</code>', answer.text).group(1)
    with loupe.served.runtime.session() as session:
        by_prefix = {key.prefix: key for key in service.keys_of(session, "ml") or []}
    for expires, secret in made.items():
        expires_at = by_prefix[secret[:10]].expires_at
        assert expires_at is not None, expires
        if expires == "30d":
            assert expires_at < ends - timedelta(days=9)
        else:
            assert abs((expires_at - ends).total_seconds()) < 1, (expires, expires_at, ends)
        with loupe.client(secret) as client:
            assert client.get("/v1/evaluations").status_code == 200


def _admin_in_ml_making_a_key(loupe: Api, idp: Provider, admin: httpx.Client) -> tuple[str, str]:
    """A person of team search, granted admin of team ml, makes a key there: (their id, key)."""
    client, sub = signed_in(loupe, idp, "search")
    token = csrf_of(admin.get("/console/members").text)
    granted = admin.post(
        "/console/members",
        data={"email": f"{sub}@example.com", "role": "admin", "csrf_token": token},
    )
    assert granted.status_code == 303, granted.text
    # Not in team ml, they were invited: the role is theirs from their next sign-in, which
    # lands in ml (their first team by name).
    assert sign_in(client, sub).status_code == 200
    page = client.get("/console/evaluations").text
    assert '<span class="tenant" title="Signed in as">ml</span>' in page, page
    made = create(client, name="their script", scopes=["read"], expires="90d")
    assert made.status_code == 200, made.text
    key = re.search(r'id="secret">(lp_[^<]+)</code>', made.text)
    assert key is not None, made.text
    return person_id(loupe, sub), key.group(1)


def test_removing_a_member_revokes_the_keys_they_made_unless_kept(
    loupe: Api, idp: Provider
) -> None:
    """The Members page's Remove revokes the team's keys the person made (a box, checked): a
    key outliving its maker's access kept working until someone found it on the Keys page."""
    admin, _ = signed_in(loupe, idp, "ml-admins")
    for revoke in (True, False):
        person, key = _admin_in_ml_making_a_key(loupe, idp, admin)
        with loupe.client(key) as client:
            assert client.get("/v1/evaluations").status_code == 200
        page = admin.get("/console/members").text
        assert 'type="checkbox" name="revoke_keys" checked' in page
        form = {"person_id": person, "csrf_token": csrf_of(page)}
        removed = admin.post(
            "/console/members/remove", data={**form, "revoke_keys": "on"} if revoke else form
        )
        assert removed.status_code == 303, removed.text
        with loupe.client(key) as client:
            assert client.get("/v1/evaluations").status_code == (401 if revoke else 200)
    # One revocation on the audit trail, by the admin who removed its maker.
    events = loupe.client(loupe.new_key("ml")).get(
        "/v1/audit_events", params={"action": "api_key.revoke"}
    )
    names = [event["details"]["name"] for event in events.json()["data"]]
    assert names.count("their script") == 1, names


def _secret(made: httpx.Response) -> str:
    found = re.search(r'id="secret">(lp_[^<]+)</code>', made.text)
    assert found is not None, made.text
    return found.group(1)


def test_removing_a_member_revokes_the_keys_their_keys_made(loupe: Api, idp: Provider) -> None:
    """A person's key with `admin`, signed in to the console, makes keys too, and those make
    more: they outlived the person's removal (only the keys the person made were revoked), so
    one more hop kept everything a removed admin held."""
    admin, _ = signed_in(loupe, idp, "ml-admins")
    person, _ = _admin_in_ml_making_a_key(loupe, idp, admin)
    with loupe.served.runtime.session() as session:
        _, first = service.create_key(
            session, "ml", scopes=["read", "admin"], name="chain 1", created_by=f"person:{person}"
        )
        session.commit()
    made = create(
        key_session(loupe, first), name="chain 2", scopes=["read", "admin"], expires="30d"
    )
    second = _secret(made)
    third = _secret(
        create(key_session(loupe, second), name="chain 3", scopes=["read"], expires="30d")
    )
    page = admin.get("/console/members").text
    removed = admin.post(
        "/console/members/remove",
        data={"person_id": person, "csrf_token": csrf_of(page), "revoke_keys": "on"},
    )
    assert removed.status_code == 303, removed.text
    for key in (first, second, third):
        with loupe.client(key) as client:
            assert client.get("/v1/evaluations").status_code == 401
    events = loupe.client(loupe.new_key("ml")).get(
        "/v1/audit_events", params={"action": "api_key.revoke", "limit": 100}
    )
    names = [event["details"]["name"] for event in events.json()["data"]]
    assert sorted(name for name in names if name.startswith("chain")) == [
        "chain 1",
        "chain 2",
        "chain 3",
    ]
