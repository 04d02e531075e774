"""A key does no more than the person at the root of its makers may do now (the ninth round's
security read), through the real provider, the console and the API over HTTP:

- an admin demoted to viewer kept the admin keys they had made, and the keys those made: they
  still wrote, read the audit trail and managed keys;
- a role the groups claim lowers at a sign-in did the same;
- keys an admin keeps when removing their maker now answer to that admin."""

import re

import httpx

from tests.console.helpers import signed_in as key_session
from tests.fixtures.api import Api
from tests.people.provider import Provider, csrf_of, sign_in, signed_in
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


def _calls(loupe: Api, key: str) -> dict[str, int]:
    """What a key gets from a read, a write (an empty body: 422 once let through) and an
    admin's read."""
    with loupe.client(key) as client:
        return {
            "read": client.get("/v1/evaluations").status_code,
            "write": client.post("/v1/comparisons", json={}).status_code,
            "admin": client.get("/v1/audit_events").status_code,
        }


ALL_OF_IT = {"read": 200, "write": 422, "admin": 200}
READ_ONLY = {"read": 200, "write": 403, "admin": 403}


def test_a_demoted_admins_keys_do_what_their_role_does_now(loupe: Api, idp: Provider) -> None:
    admin, _ = signed_in(loupe, idp, "ml-admins")
    alice, sub = signed_in(loupe, idp, "ml-admins")
    alice_id = person_id(loupe, sub)
    key = _secret(create(alice, name="alice's", scopes=EVERY_SCOPE, expires="never"))
    made_by_key = _secret(
        create(key_session(loupe, key), name="by alice's", scopes=EVERY_SCOPE, expires="never")
    )
    assert _calls(loupe, key) == ALL_OF_IT
    assert _grant(admin, person_id=alice_id, role="viewer").status_code == 303
    for made in (key, made_by_key):
        assert _calls(loupe, made) == READ_ONLY, made
    with loupe.client(key) as client:
        refused = client.get("/v1/audit_events")
    assert refused.json()["required_scope"] == "admin"
    assert f"its maker person:{alice_id}'s role (viewer)" in refused.json()["detail"]
    # Signed in to the console, the key manages no keys and grants no role.
    console = key_session(loupe, made_by_key)
    assert console.get("/console/keys").status_code == 403
    _, other = signed_in(loupe, idp, "search")
    assert _grant(console, person_id=person_id(loupe, other), role="viewer").status_code == 403
    # The Keys page shows what the keys may do now, and what is held back and why.
    listed = admin.get("/console/keys").text
    row = listed[listed.index("alice&#39;s</td>") :]
    row = row[: row.index("</tr>")]
    assert '<td data-label="Scopes">read' in row and "held back by its maker" in row, row
    assert "write, ingest, review, admin held back" in row and "role (viewer)" in row, row
    # Her role given back, her keys do what they did.
    assert _grant(admin, person_id=alice_id, role="admin").status_code == 303
    assert _calls(loupe, made_by_key) == ALL_OF_IT


def test_a_role_the_groups_lower_at_a_sign_in_lowers_the_keys(loupe: Api, idp: Provider) -> None:
    client, sub = signed_in(loupe, idp, "ml-admins")
    key = _secret(create(client, name="from groups", scopes=EVERY_SCOPE, expires="never"))
    assert _calls(loupe, key) == ALL_OF_IT
    idp.set_user(sub, email=f"{sub}@example.com", name=sub, groups=["ml-read"])
    assert sign_in(client, sub).status_code == 200
    assert _calls(loupe, key) == READ_ONLY
    # Out of the team (no group maps to it), the key holds nothing.
    idp.set_user(sub, email=f"{sub}@example.com", name=sub, groups=["search"])
    assert sign_in(client, sub).status_code == 200
    assert _calls(loupe, key) == {"read": 403, "write": 403, "admin": 403}


def test_keys_kept_at_a_removal_answer_to_the_admin_who_kept_them(
    loupe: Api, idp: Provider
) -> None:
    admin, admin_sub = signed_in(loupe, idp, "ml-admins")
    bob, sub = signed_in(loupe, idp, "ml-admins")
    bob_id = person_id(loupe, sub)
    key = _secret(create(bob, name="bob's script", scopes=["read", "write"], expires="never"))
    # Granted, so that removing him is for good (one from the groups is back at a sign-in).
    assert _grant(admin, person_id=bob_id, role="member").status_code == 303
    form = {"person_id": bob_id, "csrf_token": csrf_of(admin.get("/console/members").text)}
    assert admin.post("/console/members/remove", data=form).status_code == 303
    assert _calls(loupe, key) == {"read": 200, "write": 422, "admin": 403}
    events = loupe.client(loupe.new_key("ml")).get(
        "/v1/audit_events", params={"action": "api_key.hand_over"}
    )
    [handed] = [e for e in events.json()["data"] if e["details"]["name"] == "bob's script"]
    assert handed["actor"] == f"person:{person_id(loupe, admin_sub)}"
    assert handed["details"]["made_by"] == f"person:{bob_id}"
    # The admin who kept them demoted, the key does what a viewer does.
    other, _ = signed_in(loupe, idp, "ml-admins")
    demoted = _grant(other, person_id=person_id(loupe, admin_sub), role="viewer")
    assert demoted.status_code == 303
    assert _calls(loupe, key) == READ_ONLY


def test_a_key_does_not_remove_the_person_behind_it(loupe: Api, idp: Provider) -> None:
    admin, _ = signed_in(loupe, idp, "ml-admins")
    carol, sub = signed_in(loupe, idp, "ml-admins")
    carol_id = person_id(loupe, sub)
    assert _grant(admin, person_id=carol_id, role="admin").status_code == 303
    key = _secret(create(carol, name="carol's", scopes=EVERY_SCOPE, expires="never"))
    console = key_session(loupe, key)
    form = {"person_id": carol_id, "csrf_token": csrf_of(console.get("/console/members").text)}
    refused = console.post("/console/members/remove", data=form)
    assert refused.status_code == 403, refused.text
    assert "a key does not remove the person behind it" in refused.text


def test_a_key_changes_no_role_of_the_person_behind_it(loupe: Api, idp: Provider) -> None:
    """Still an admin, a person's key with every scope changes no role of theirs (nobody
    changes their own); once demoted, the key holds no `admin` to try."""
    dave, sub = signed_in(loupe, idp, "ml-admins")
    dave_id = person_id(loupe, sub)
    key = _secret(create(dave, name="dave's", scopes=EVERY_SCOPE, expires="never"))
    console = key_session(loupe, key)
    for form in ({"person_id": dave_id}, {"email": f"{sub}@example.com"}):
        refused = _grant(console, role="viewer", **form)
        assert refused.status_code == 403, refused.text
        assert f"{next(iter(form))}: you are signed in with a key this person made" in refused.text


def test_a_key_made_far_down_a_chain_of_keys_is_capped_too(loupe: Api, idp: Provider) -> None:
    """The walk to a key's root maker stops after 32 keys (it is read on every request): a key
    further down answered to nobody and kept every scope it carried after its person's
    demotion. It now holds nothing, before the demotion as after: a key whose person cannot be
    found does not act."""
    admin, _ = signed_in(loupe, idp, "ml-admins")
    erin, sub = signed_in(loupe, idp, "ml-admins")
    erin_id = person_id(loupe, sub)
    key = _secret(create(erin, name="erin's", scopes=EVERY_SCOPE, expires="never"))
    chain = [key]
    for number in range(33):
        console = key_session(loupe, chain[-1])
        made = create(console, name=f"link {number}", scopes=EVERY_SCOPE, expires="never")
        chain.append(_secret(made))
    nothing = {"read": 403, "write": 403, "admin": 403}
    assert _calls(loupe, chain[32]) == ALL_OF_IT
    assert _calls(loupe, chain[33]) == nothing
    assert _grant(admin, person_id=erin_id, role="viewer").status_code == 303
    assert _calls(loupe, chain[0]) == READ_ONLY
    assert _calls(loupe, chain[32]) == READ_ONLY
    assert _calls(loupe, chain[33]) == nothing
    with loupe.client(chain[33]) as client:
        refused = client.get("/v1/evaluations").json()
    assert "cannot be followed" in refused["detail"], refused
