"""Console sign-ins and sign-outs on the audit trail: a key's on its team's trail, a person's
(through the real provider) on the trail of every team they may act in, a sign-out on the team
the session was in; a sign-in refused for a key that is none of Loupe's leaves no event (its
address is throttled instead; a revoked or expired key's is on its trail, see
test_refused_sign_ins.py)."""

from tests.audit.helpers import actions, events, key_actor
from tests.console.helpers import signed_in as key_signed_in
from tests.fixtures.api import Api
from tests.people.provider import Provider, browser, csrf_of, sign_in, signed_in


def test_a_key_signing_in_and_out_is_on_its_team_trail(loupe: Api) -> None:
    admin_key = loupe.new_key("audit-sign-in")
    admin = loupe.client(admin_key)
    key = loupe.new_key("audit-sign-in", scopes=["read"])
    key_id = key_actor(loupe, key).removeprefix("key:")
    refused = browser(loupe)
    form = refused.get("/console/sign-in")
    answer = refused.post(
        "/console/sign-in",
        data={"api_key": key + "x", "csrf_token": csrf_of(form.text), "next": "/console"},
    )
    assert answer.status_code == 401
    assert actions(admin, object_id=key_id) == []
    console = key_signed_in(loupe, key)
    token = csrf_of(console.get("/console/evaluations").text)
    assert console.post("/console/sign-out", data={"csrf_token": token}).status_code == 303
    assert actions(admin, object_id=key_id) == [
        ("api_key.sign_in", "api_key", key_id),
        ("api_key.sign_out", "api_key", key_id),
    ]
    assert {e["actor"] for e in events(admin, object_id=key_id)} == {f"key:{key_id}"}
    # Another team's trail does not hear of it.
    assert actions(loupe.client(loupe.new_key("elsewhere")), object_id=key_id) == []


def test_a_person_signing_in_is_on_every_team_trail(loupe: Api, idp: Provider) -> None:
    person, sub = signed_in(loupe, idp, "ml", "search")
    ml = loupe.client(loupe.new_key("ml"))
    search = loupe.client(loupe.new_key("search"))
    # This module's only person: one sign-in on each team's trail, naming them by id.
    (on_ml,) = events(ml, action="person.sign_in")
    (on_search,) = events(search, action="person.sign_in")
    person_id = on_ml["object_id"]
    assert on_search["object_id"] == person_id and on_ml["object_type"] == "person"
    assert on_ml["actor"] == on_search["actor"] == f"person:{person_id}"
    assert sign_in(browser(loupe), sub).status_code == 200
    assert len(events(ml, action="person.sign_in")) == 2
    token = csrf_of(person.get("/console/evaluations").text)
    assert person.post("/console/sign-out", data={"csrf_token": token}).status_code == 303
    # The session acted in one team (its first): the sign-out is on that trail alone.
    outs = [events(client, action="person.sign_out") for client in (ml, search)]
    assert sorted(len(found) for found in outs) == [0, 1]
    assert [e["object_id"] for found in outs for e in found] == [person_id]
