"""Issue 28's audit fixes, through the real provider (oidc-provider-mock): a role granted by an
email several members share is refused with who they are and granted by person id, an address
the provider has not verified is not stored (nor takes up an invitation), roles the groups claim
changes at sign-in are on the audit trail, and the callback's error shows a fixed message,
never the provider's free text."""

import re

from tests.fixtures.api import Api
from tests.people.provider import Provider, browser, csrf_of, person, sign_in, signed_in


def _person_id(listed: str, text: str) -> str:
    row = listed.split(text)[1].split("</tr>")[0]
    found = re.search(r'name="person_id" value="(per_[0-9a-f]+)"', row)
    assert found is not None, row
    return found.group(1)


def test_a_shared_email_is_refused_and_granted_by_person_id(loupe: Api, idp: Provider) -> None:
    admin, _ = signed_in(loupe, idp, "ml-admins")
    shared = "shared-address@example.com"
    first, second, outside = person(idp, "ml"), person(idp, "ml"), person(idp, "search")
    for sub, groups in ((first, ["ml"]), (second, ["ml"]), (outside, ["search"])):
        idp.set_user(sub, email=shared, name=sub, groups=groups)
        assert sign_in(browser(loupe), sub).status_code == 200
    token = csrf_of(admin.get("/console/members").text)
    refused = admin.post(
        "/console/members", data={"email": shared, "role": "admin", "csrf_token": token}
    )
    assert refused.status_code == 400
    # The team's two members with it, not the person of another team who shares it.
    assert "2 members of this team signed in as" in refused.text
    assert f"subject {first}" in refused.text and f"subject {second}" in refused.text
    assert outside not in refused.text
    ids = re.findall(r"per_[0-9a-f]+ \(", refused.text)
    assert len(ids) == 2
    chosen = ids[1].removesuffix(" (")
    granted = admin.post(
        "/console/members",
        data={"person_id": chosen, "role": "viewer", "csrf_token": token},
    )
    assert granted.status_code == 303
    listed = admin.get("/console/members").text
    assert shared in listed.split(chosen)[0].rsplit("<tr>", 1)[1]
    audit = admin.get("/console/audit", params={"object_id": chosen}).text
    assert "membership.change" in audit and shared in audit and second in audit
    unknown = admin.post(
        "/console/members", data={"person_id": "per_nobody", "role": "viewer", "csrf_token": token}
    )
    assert unknown.status_code == 400 and "No person has the id" in unknown.text


def test_an_unverified_email_is_not_stored(loupe: Api, idp: Provider) -> None:
    admin, _ = signed_in(loupe, idp, "ml-admins")
    sub = person(idp, "ml")
    claimed = f"victim-{sub}@example.com"
    idp.set_user(sub, email=claimed, email_verified=False, name=sub, groups=["ml"])
    assert sign_in(browser(loupe), sub).status_code == 200
    members = admin.get("/console/members").text
    assert sub in members and claimed not in members
    # No member has the address: it is invited, and the unverified claim does not take it up.
    invited = admin.post(
        "/console/members",
        data={"email": claimed, "role": "admin", "csrf_token": csrf_of(members)},
    )
    assert invited.status_code == 303
    assert sign_in(browser(loupe), sub).status_code == 200
    members = admin.get("/console/members").text
    [row] = [row for row in members.split("<tr>") if sub in row and claimed not in row]
    assert '<td data-label="Role">member</td>' in row, row
    assert claimed in members.split("<h2>Invited</h2>")[1]


def test_roles_the_groups_claim_changes_are_audited(loupe: Api, idp: Provider) -> None:
    admin, _ = signed_in(loupe, idp, "ml-admins")
    sub = person(idp, "ml-read")
    assert sign_in(browser(loupe), sub).status_code == 200
    person_id = _person_id(admin.get("/console/members").text, f"{sub}@example.com")
    idp.set_user(sub, email=f"{sub}@example.com", groups=["ml"])
    assert sign_in(browser(loupe), sub).status_code == 200
    idp.set_user(sub, email=f"{sub}@example.com", groups=["search"])
    assert sign_in(browser(loupe), sub).status_code == 200
    audit = admin.get("/console/audit", params={"object_id": person_id}).text
    for action in ("membership.grant", "membership.change", "membership.remove"):
        assert action in audit
    assert f"person:{person_id}" in audit and "oidc" in audit
    # An unchanged sign-in records nothing more.
    before = audit.count("membership.")
    again = browser(loupe)
    assert sign_in(again, sub).status_code == 200
    after = admin.get("/console/audit", params={"object_id": person_id}).text
    assert after.count("membership.") == before


def test_the_callback_error_shows_no_free_text(loupe: Api, idp: Provider) -> None:
    client = browser(loupe)
    start = client.get("/console/oidc/start")
    assert start.status_code == 303 and "loupe_oidc=" in start.headers["set-cookie"]
    planted = "Your account is locked, call +1-555-0100 now"
    forged = client.get(
        "/console/oidc/callback",
        params={"error": "access_denied", "error_description": planted, "state": "not-ours"},
    )
    assert forged.status_code == 401
    assert planted not in forged.text and "access was denied" in forged.text
    # Not this sign-in's state: the pending sign-in is kept.
    assert "loupe_oidc" not in forged.headers.get("set-cookie", "")
    odd = client.get("/console/oidc/callback", params={"error": "<b>made-up</b>"})
    assert "the provider refused the sign-in" in odd.text and "made-up" not in odd.text
    assert "loupe_oidc" not in odd.headers.get("set-cookie", "")
    state = re.search(r"state=([^&]+)", start.headers["location"])
    assert state is not None
    ours = client.get(
        "/console/oidc/callback",
        params={"error": "access_denied", "error_description": planted, "state": state.group(1)},
    )
    assert ours.status_code == 401 and planted not in ours.text
    assert 'loupe_oidc=""' in ours.headers["set-cookie"]


def test_the_keys_form_refuses_control_characters_and_says_the_limit(
    loupe: Api, idp: Provider
) -> None:
    admin, _ = signed_in(loupe, idp, "ml-admins")
    token = csrf_of(admin.get("/console/keys").text)
    for name, said in (
        ("evil\x1b]0;pwned\x07\nfake-line", "no control characters"),
        ("x" * 500, "1 to 200 characters"),
        ("   ", "1 to 200 characters"),
    ):
        refused = admin.post(
            "/console/keys",
            data={"csrf_token": token, "name": name, "scopes": "read", "expires": "30d"},
        )
        assert refused.status_code == 400, refused.text
        assert "name: a key name has" in refused.text and said in refused.text
        assert "pwned" not in admin.get("/console/keys").text


def test_a_removal_names_who_was_removed(loupe: Api, idp: Provider) -> None:
    admin, _ = signed_in(loupe, idp, "ml-admins")
    sub = person(idp, "search")
    assert sign_in(browser(loupe), sub).status_code == 200
    token = csrf_of(admin.get("/console/members").text)
    email = f"{sub}@example.com"
    granted = admin.post(
        "/console/members", data={"email": email, "role": "viewer", "csrf_token": token}
    )
    assert granted.status_code == 303
    # Invited (not in the team), they take the role up at their next sign-in.
    assert sign_in(browser(loupe), sub).status_code == 200
    person_id = _person_id(admin.get("/console/members").text, email)
    removed = admin.post(
        "/console/members/remove", data={"person_id": person_id, "csrf_token": token}
    )
    assert removed.status_code == 303
    events = loupe.client(loupe.new_key("ml")).get(
        "/v1/audit_events", params={"action": "membership.remove", "object_id": person_id}
    )
    assert events.status_code == 200, events.text
    [event] = events.json()["data"]
    assert event["details"]["email"] == email and event["details"]["subject"] == sub
    assert event["details"]["role"] == "viewer"


def test_granting_the_role_the_groups_give_leaves_it_the_providers(
    loupe: Api, idp: Provider
) -> None:
    """Granting a person the very role their groups give changes nothing: it does not pin the
    role past the provider taking it away."""
    admin, _ = signed_in(loupe, idp, "ml-admins")
    sub = person(idp, "ml")
    assert sign_in(browser(loupe), sub).status_code == 200
    email = f"{sub}@example.com"
    token = csrf_of(admin.get("/console/members").text)
    again = admin.post(
        "/console/members", data={"email": email, "role": "member", "csrf_token": token}
    )
    assert again.status_code == 303
    person_id = _person_id(admin.get("/console/members").text, email)
    audit = admin.get("/console/audit", params={"object_id": person_id}).text
    assert "membership.change" not in audit
    idp.set_user(sub, email=email, groups=[])
    client = browser(loupe)
    sign_in(client, sub)
    assert email not in admin.get("/console/members").text
