"""A team admin ends a person's access at once (the outside authorization audit): a person whose
role came from the provider's groups kept it in every session they had open for
LOUPE_CONSOLE_SESSION_HOURS after the groups changed (roles are re-synced at sign-in), and the
Members page refused to remove them ("change the groups at the provider"), so nobody in Loupe
could end it. Removing them now ends their sessions; their next sign-in re-syncs the role from
their groups, as any sign-in does. And an admin of two teams acts in the team the page showed.
"""

import re

from tests.console.helpers import signed_in as key_session
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


def test_a_page_of_one_team_takes_no_action_in_another(loupe: Api, idp: Provider) -> None:
    """A form's token is bound to the team the page showed: an admin of two teams who switched
    teams in another tab, then sent a grant from the first team's Members page, gave the role
    in the second team."""
    admin, sub = signed_in(loupe, idp, "ml-admins")
    _, other = signed_in(loupe, idp, "search")
    search_admin = key_session(loupe, loupe.new_key("search"))
    token = csrf_of(search_admin.get("/console/members").text)
    granted = search_admin.post(
        "/console/members",
        data={"person_id": person_id(loupe, sub), "role": "admin", "csrf_token": token},
    )
    assert granted.status_code == 303, granted.text
    ml_page = admin.get("/console/members").text
    assert f"{other}@example.com" not in ml_page  # the page of team ml
    teams = admin.get("/console/teams").text
    search = re.search(r'name="tenant_id" value="([^"]+)">\s*<button[^>]*Switch to search', teams)
    assert search is not None, teams
    switched = admin.post(
        "/console/teams", data={"tenant_id": search.group(1), "csrf_token": csrf_of(teams)}
    )
    assert switched.status_code == 303, switched.text
    stale = admin.post(
        "/console/members",
        data={"email": f"{other}@example.com", "role": "admin", "csrf_token": csrf_of(ml_page)},
    )
    assert stale.status_code == 403 and "reload it" in stale.text, stale.text
    members = search_admin.get("/console/members").text
    [row] = [row for row in members.split("<tr>") if f"{other}@example.com" in row]
    assert '<td data-label="Role">viewer</td>' in row, row
    # The page of the team now shown takes its actions.
    fresh = admin.post(
        "/console/members",
        data={
            "email": f"{other}@example.com",
            "role": "member",
            "csrf_token": csrf_of(admin.get("/console/members").text),
        },
    )
    assert fresh.status_code == 303, fresh.text
