"""Granting a role by email tells a team admin nothing of people outside the team (the ninth
round's security read): it found anyone who had ever signed in to this Loupe, so "Nobody has
signed in as ..." against a grant told an admin of one team whether an address had signed in
anywhere. An address no member has is now invited, the same answer either way, and the role is
the person's from their next sign-in with it. Through the real provider and the console."""

import re
from datetime import timedelta

import httpx
from sqlalchemy import update

from app.db import utcnow
from app.models import Invitation
from tests.console.helpers import signed_in as key_session
from tests.fixtures.api import Api
from tests.people.provider import Provider, browser, csrf_of, person, sign_in, signed_in
from tests.people.test_keys_console import person_id


def _grant(admin: httpx.Client, email: str, role: str) -> httpx.Response:
    token = csrf_of(admin.get("/console/members").text)
    return admin.post("/console/members", data={"email": email, "role": role, "csrf_token": token})


def _invited(admin: httpx.Client) -> str:
    page = admin.get("/console/members").text
    return page.split("<h2>Invited</h2>")[1].split("</table>")[0] if "<h2>Invited" in page else ""


def test_an_address_signed_in_elsewhere_and_one_never_seen_get_the_same_answer(
    loupe: Api, idp: Provider
) -> None:
    admin, _ = signed_in(loupe, idp, "ml-admins")
    _, known = signed_in(loupe, idp, "search")
    never = f"never-{known}@example.com"
    answers = [_grant(admin, address, "viewer") for address in (f"{known}@example.com", never)]
    assert [a.status_code for a in answers] == [303, 303]
    assert answers[0].headers["location"] == answers[1].headers["location"]
    invited = _invited(admin)
    for address in (f"{known}@example.com", never):
        row = invited.split(address)[1].split("</tr>")[0]
        assert '<td data-label="Role">viewer <span class="muted">until ' in row
    # Neither is a member until they sign in.
    members = admin.get("/console/members").text.split("<h2>Invited</h2>")[0]
    assert known not in members
    # The one who had signed in takes it up at their next sign-in (any case of the address).
    idp.set_user(known, email=f"{known.upper()}@EXAMPLE.COM", groups=["search"])
    client = browser(loupe)
    assert sign_in(client, known).status_code == 200
    teams = client.get("/console/teams").text
    assert '<td data-label="Team">ml</td>' in teams, teams
    members = admin.get("/console/members").text.split("<h2>Invited</h2>")[0]
    assert known.upper() in members
    assert f">{known}@example.com<" not in _invited(admin)
    events = loupe.client(loupe.new_key("ml")).get(
        "/v1/audit_events", params={"action": "membership.grant", "limit": 100}
    )
    [taken] = [e for e in events.json()["data"] if e["details"].get("subject") == known]
    assert taken["details"]["source"] == "invitation" and taken["details"]["role"] == "viewer"
    assert taken["details"]["invited_by"].startswith("person:")


def test_an_invitation_is_withdrawn_and_never_taken_up(loupe: Api, idp: Provider) -> None:
    admin, _ = signed_in(loupe, idp, "ml-admins")
    sub = person(idp, "search")
    assert _grant(admin, f"{sub}@example.com", "member").status_code == 303
    row = _invited(admin).split(f">{sub}@example.com<")[1].split("</tr>")[0]
    found = re.search(r'name="invitation_id" value="(inv_[0-9a-f]+)"', row)
    assert found is not None, row
    token = csrf_of(admin.get("/console/members").text)
    withdrawn = admin.post(
        "/console/members/invitations/withdraw",
        data={"invitation_id": found.group(1), "csrf_token": token},
    )
    assert withdrawn.status_code == 303, withdrawn.text
    client = browser(loupe)
    assert sign_in(client, sub).status_code == 200
    assert '<td data-label="Team">ml</td>' not in client.get("/console/teams").text
    # A member (not admin) withdraws nothing; another team's invitation is a 404.
    member, _ = signed_in(loupe, idp, "ml")
    token = csrf_of(member.get("/console/members").text)
    refused = member.post(
        "/console/members/invitations/withdraw",
        data={"invitation_id": found.group(1), "csrf_token": token},
    )
    assert refused.status_code == 403
    assert _grant(admin, f"again-{sub}@example.com", "viewer").status_code == 303
    row = _invited(admin).split(f">again-{sub}@example.com<")[1].split("</tr>")[0]
    again = re.search(r'name="invitation_id" value="(inv_[0-9a-f]+)"', row)
    assert again is not None
    # An admin of team search (a key with every scope, signed in).
    elsewhere = key_session(loupe, loupe.new_key("search"))
    token = csrf_of(elsewhere.get("/console/members").text)
    missing = elsewhere.post(
        "/console/members/invitations/withdraw",
        data={"invitation_id": again.group(1), "csrf_token": token},
    )
    assert missing.status_code == 404


def test_an_invitation_lapses_after_thirty_days_and_inviting_again_renews_it(
    loupe: Api, idp: Provider
) -> None:
    admin, _ = signed_in(loupe, idp, "ml-admins")
    sub = person(idp, "search")
    address = f"{sub}@example.com"
    assert _grant(admin, address, "member").status_code == 303
    # Thirty days and a minute pass.
    with loupe.served.runtime.session() as session:
        session.execute(
            update(Invitation)
            .where(Invitation.email == address)
            .values(created_at=utcnow() - timedelta(days=30, minutes=1))
        )
        session.commit()
    row = _invited(admin).split(f">{address}<")[1].split("</tr>")[0]
    assert "<strong>expired</strong>" in row, row
    client = browser(loupe)
    assert sign_in(client, sub).status_code == 200
    assert '<td data-label="Team">ml</td>' not in client.get("/console/teams").text
    # Invited again: a new invitation, waiting its thirty days, taken at the next sign-in.
    assert _grant(admin, address, "member").status_code == 303
    row = _invited(admin).split(f">{address}<")[1].split("</tr>")[0]
    assert "expired" not in row and "until " in row, row
    client = browser(loupe)
    assert sign_in(client, sub).status_code == 200
    assert '<td data-label="Team">ml</td>' in client.get("/console/teams").text
    events = loupe.client(loupe.new_key("ml")).get(
        "/v1/audit_events", params={"action": "invitation.create", "limit": 100}
    )
    assert sum(e["details"]["email"] == address for e in events.json()["data"]) == 2


def test_an_invitation_gives_no_more_than_its_inviter_may_give_now(
    loupe: Api, idp: Provider
) -> None:
    head, _ = signed_in(loupe, idp, "ml-admins")
    alice, alice_sub = signed_in(loupe, idp, "ml-admins")
    alice_id = person_id(loupe, alice_sub)
    sub = person(idp, "search")
    assert _grant(alice, f"{sub}@example.com", "admin").status_code == 303
    # Alice is demoted before the invitee signs in: her invitation gives nothing.
    token = csrf_of(head.get("/console/members").text)
    demoted = head.post(
        "/console/members", data={"person_id": alice_id, "role": "viewer", "csrf_token": token}
    )
    assert demoted.status_code == 303, demoted.text
    client = browser(loupe)
    assert sign_in(client, sub).status_code == 200
    assert '<td data-label="Team">ml</td>' not in client.get("/console/teams").text
    # Her role given back, the invitation (still waiting) is taken at the next sign-in.
    token = csrf_of(head.get("/console/members").text)
    head.post(
        "/console/members", data={"person_id": alice_id, "role": "admin", "csrf_token": token}
    )
    client = browser(loupe)
    assert sign_in(client, sub).status_code == 200
    assert '<td data-label="Team">ml</td>' in client.get("/console/teams").text
