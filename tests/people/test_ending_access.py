"""A team admin ends a person's access at once (the outside authorization audit): a person whose
role came from the provider's groups kept it in every session they had open for
LOUPE_CONSOLE_SESSION_HOURS after the groups changed (roles are re-synced at sign-in), and the
Members page refused to remove them ("change the groups at the provider"), so nobody in Loupe
could end it. Removing them now ends their sessions; their next sign-in re-syncs the role from
their groups, as any sign-in does."""

import re

from tests.fixtures.api import Api
from tests.people.provider import Provider, browser, csrf_of, sign_in, signed_in
from tests.people.test_keys_console import person_id


def test_a_person_with_a_role_from_their_groups_is_removed_at_once(
    loupe: Api, idp: Provider
) -> None:
    admin, _ = signed_in(loupe, idp, "ml-admins")
    mallory, sub = signed_in(loupe, idp, "ml")
    target = person_id(loupe, sub)
    assert mallory.get("/console/evaluations").status_code == 200
    members = admin.get("/console/members").text
    [row] = [row for row in members.split("<tr>") if target in row]
    assert "identity provider" in row and 'action="/console/members/remove"' in row, row
    # The provider's groups change; her open session does not notice until she signs in again.
    idp.set_user(sub, email=f"{sub}@example.com", groups=["search"])
    assert mallory.get("/console/evaluations").status_code == 200
    removed = admin.post(
        "/console/members/remove", data={"person_id": target, "csrf_token": csrf_of(members)}
    )
    assert removed.status_code == 303, removed.text
    ended = mallory.get("/console/evaluations")
    assert ended.status_code == 303 and ended.headers["location"].startswith("/console/sign-in")
    events = loupe.client(loupe.new_key("ml")).get(
        "/v1/audit_events", params={"object_id": target, "action": "membership.remove"}
    )
    [event] = events.json()["data"]
    assert event["details"]["source"] == "oidc" and event["details"]["role"] == "member"
    # Her next sign-in takes her groups as they are now: search, not ml.
    again = browser(loupe)
    assert sign_in(again, sub).status_code == 200
    teams = again.get("/console/teams").text
    assert re.search(r'aria-label="Switch to ml"', teams) is None
    assert ">search<" in teams
