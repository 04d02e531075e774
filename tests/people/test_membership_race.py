"""Two admins giving one person a role in their team at the same moment, on both databases:
the second request read no membership, and by the time it stored its own the first had
committed one. The membership's primary key made that a 500; now the second is answered as a
change of the role the first gave (on the audit trail as `membership.change`).

As in test_invitation_race.py, the first admin's membership is stored in a transaction the
test holds open, so the second (over HTTP, on a thread) waits at its insert for it."""

import threading
import time
import uuid

import httpx
from sqlalchemy import select

from app.models import AuditEvent, Membership
from app.people import repository as people
from app.tenants import repository as tenants
from tests.console.helpers import csrf_of, signed_in
from tests.fixtures.api import Api
from tests.people.races import waiting_at


def test_a_person_given_a_role_by_two_admins_at_once_is_a_member_once(api: Api) -> None:
    team = f"grant-{uuid.uuid4().hex[:8]}"
    second = signed_in(api, api.new_key(team))
    with api.served.runtime.session() as session:
        person = people.add_person(session, "https://issuer.test", f"sub-{uuid.uuid4().hex}")
        person_id = person.id
        session.commit()
    token = csrf_of(second.get("/console/members").text)
    answers: list[httpx.Response] = []
    at_insert = waiting_at(api, "INSERT INTO membership")
    with api.served.runtime.session() as first:
        tenant = tenants.tenant_by_name(first, team)
        assert tenant is not None
        tenant_id = tenant.id
        first.add(
            Membership(person_id=person_id, tenant_id=tenant_id, role="viewer", source="granted")
        )
        first.flush()
        posting = threading.Thread(
            target=lambda: answers.append(
                second.post(
                    "/console/members",
                    data={"person_id": person_id, "role": "member", "csrf_token": token},
                    timeout=120,
                )
            )
        )
        posting.start()
        deadline = time.monotonic() + 60
        while not at_insert():
            assert posting.is_alive() and time.monotonic() < deadline, answers
            time.sleep(0.01)
        first.commit()
    posting.join()
    [answer] = answers
    assert answer.status_code == 303, answer.text
    with api.served.runtime.session() as session:
        stored = session.scalars(select(Membership).where(Membership.person_id == person_id)).all()
        assert [(m.tenant_id, m.role) for m in stored] == [(tenant_id, "member")]
        trail = session.scalars(
            select(AuditEvent).where(
                AuditEvent.tenant_id == tenant_id, AuditEvent.object_id == person_id
            )
        ).all()
        assert [(event.action, event.details.get("previous_role")) for event in trail] == [
            ("membership.change", "viewer")
        ]
