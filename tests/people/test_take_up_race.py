"""Invitations at a race, on both databases. A sign-in takes up the invitations of its address;
two sign-ins of one person at once, or a sign-in racing an admin giving the person a role, both
read no membership, and the later INSERT hit the membership's primary key (a 500 on the
sign-in). Two withdraws of one invitation at once both read it and both recorded
`invitation.withdraw`. Now an invitation is deleted before it is taken up or withdrawn, so
only one request ever does either; a sign-in that finds an admin's grant stored meanwhile keeps
it and takes the invitation up as by someone already in the team (its role given).

As in test_membership_race.py, the other request's rows are stored in a transaction the test
holds open, so the race is not left to chance: the request (over HTTP, on a thread) waits at its
write for that transaction, which then commits."""

import threading
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import delete, select

from app import audit
from app.models import AuditEvent, Invitation, Membership, Person
from app.tenants import repository as tenants
from tests.console.helpers import csrf_of
from tests.console.helpers import signed_in as key_session
from tests.fixtures.api import Api, app_in_mode
from tests.people.provider import Provider, browser, settings_for, sign_in
from tests.people.races import waiting_at

# Where a sign-in's take-up or a withdraw first writes (today's code, or the code before: on
# SQLite the first write of a transaction waits for the lock, whichever it is).
WRITES = ("INSERT INTO membership", "DELETE FROM invitation", "INSERT INTO audit_event")


@pytest.fixture(scope="module", params=["embedded", "distributed"])
def loupe(request: pytest.FixtureRequest, idp: Provider) -> Iterator[Api]:
    with app_in_mode(request, "take-up-race", **settings_for(idp.issuer)) as app:
        app.new_key("ml")
        yield app


def _raced(
    api: Api, hold: Callable[[Any], None], request: Callable[[], httpx.Response], *statements: str
) -> httpx.Response:
    """`request`'s answer, sent on a thread while `hold` stores rows in a transaction that
    commits once the request waits at one of `statements`."""
    answers: list[httpx.Response] = []
    at_write = waiting_at(api, *statements)
    with api.served.runtime.session() as first:
        hold(first)
        first.flush()
        sending = threading.Thread(target=lambda: answers.append(request()))
        sending.start()
        deadline = time.monotonic() + 60
        while not at_write():
            assert sending.is_alive() and time.monotonic() < deadline, answers
            time.sleep(0.01)
        first.commit()
    sending.join()
    [answer] = answers
    return answer


def _invited_person(api: Api, idp: Provider, role: str) -> tuple[str, str, str]:
    """(subject, person id, team id) of someone who signed in once (in no team) and whose
    address a team admin of `ml` then invited with `role`."""
    sub = f"p-{uuid.uuid4().hex[:8]}"
    idp.set_user(sub, email=f"{sub}@example.com", name=sub.upper(), groups=[])
    assert sign_in(browser(api), sub).status_code == 403
    admin = key_session(api, api.new_key("ml"))
    token = csrf_of(admin.get("/console/members").text)
    invited = admin.post(
        "/console/members",
        data={"email": f"{sub}@example.com", "role": role, "csrf_token": token},
    )
    assert invited.status_code == 303, invited.text
    with api.served.runtime.session() as session:
        person_id = session.scalars(select(Person.id).where(Person.subject == sub)).one()
        tenant = tenants.tenant_by_name(session, "ml")
        assert tenant is not None
        return sub, person_id, tenant.id


def _memberships(api: Api, person_id: str) -> list[tuple[str, str, str]]:
    with api.served.runtime.session() as session:
        rows = session.scalars(select(Membership).where(Membership.person_id == person_id))
        return [(m.tenant_id, m.role, m.source) for m in rows]


def _trail(api: Api, tenant_id: str, object_id: str) -> list[AuditEvent]:
    with api.served.runtime.session() as session:
        return list(
            session.scalars(
                select(AuditEvent)
                .where(AuditEvent.tenant_id == tenant_id, AuditEvent.object_id == object_id)
                .order_by(AuditEvent.at, AuditEvent.id)
            )
        )


def _invitations(api: Api, email: str) -> list[Invitation]:
    with api.served.runtime.session() as session:
        return list(session.scalars(select(Invitation).where(Invitation.email == email)))


def test_a_sign_in_racing_an_admins_grant_keeps_the_grant(loupe: Api, idp: Provider) -> None:
    sub, person_id, tenant_id = _invited_person(loupe, idp, "member")

    def grant(session: Any) -> None:
        # An admin gives the person `viewer` by their id as they sign in.
        session.add(
            Membership(person_id=person_id, tenant_id=tenant_id, role="viewer", source="granted")
        )

    answer = _raced(
        loupe,
        grant,
        lambda: sign_in(browser(loupe), sub),
        *WRITES,
    )
    assert answer.status_code == 200, answer.text
    # The grant's row is kept, and the invitation taken up as it is for someone already in
    # the team: its role given, a change on the trail by the person, from the invitation.
    assert _memberships(loupe, person_id) == [(tenant_id, "member", "granted")]
    changes = [e for e in _trail(loupe, tenant_id, person_id) if e.action.startswith("membership")]
    assert [
        (e.action, e.actor, e.details["previous_role"], e.details["source"]) for e in changes
    ] == [("membership.change", f"person:{person_id}", "viewer", "invitation")]
    assert _invitations(loupe, f"{sub}@example.com") == []


def test_two_sign_ins_of_one_person_take_the_invitation_up_once(loupe: Api, idp: Provider) -> None:
    sub, person_id, tenant_id = _invited_person(loupe, idp, "member")
    email = f"{sub}@example.com"

    def other_sign_in(session: Any) -> None:
        # The person's other sign-in took the invitation up (its own trail aside).
        session.execute(delete(Invitation).where(Invitation.email == email))
        session.add(
            Membership(person_id=person_id, tenant_id=tenant_id, role="member", source="granted")
        )

    answer = _raced(
        loupe,
        other_sign_in,
        lambda: sign_in(browser(loupe), sub),
        *WRITES,
    )
    assert answer.status_code == 200, answer.text
    assert _memberships(loupe, person_id) == [(tenant_id, "member", "granted")]
    # This sign-in took nothing up: the other one did.
    assert [
        e for e in _trail(loupe, tenant_id, person_id) if e.action.startswith("membership")
    ] == []


def test_two_withdraws_of_one_invitation_are_recorded_once(loupe: Api) -> None:
    address = f"w-{uuid.uuid4().hex[:8]}@example.com"
    admin = key_session(loupe, loupe.new_key("ml"))
    token = csrf_of(admin.get("/console/members").text)
    invited = admin.post(
        "/console/members", data={"email": address, "role": "viewer", "csrf_token": token}
    )
    assert invited.status_code == 303, invited.text
    [invitation] = _invitations(loupe, address)

    def other_withdraw(session: Any) -> None:
        # Another admin's withdraw of it, at the same moment.
        session.execute(delete(Invitation).where(Invitation.id == invitation.id))
        audit.record(
            session,
            "person:the-other-admin",
            "invitation.withdraw",
            "invitation",
            invitation.id,
            tenant_id=invitation.tenant_id,
            email=address,
            role="viewer",
        )

    def withdraw() -> httpx.Response:
        return admin.post(
            "/console/members/invitations/withdraw",
            data={"invitation_id": invitation.id, "csrf_token": token},
            timeout=120,
        )

    answer = _raced(loupe, other_withdraw, withdraw, *WRITES)
    # As a withdraw after the other one answers: there is no such invitation any more.
    assert answer.status_code == 404, answer.text
    assert withdraw().status_code == 404
    withdrawn = [e for e in _trail(loupe, invitation.tenant_id, invitation.id)]
    assert [(e.action, e.actor) for e in withdrawn if e.action == "invitation.withdraw"] == [
        ("invitation.withdraw", "person:the-other-admin")
    ]
