"""Two admins inviting one address at the same moment, on both databases: the second request
read no invitation, and by the time it stored its own the first had committed one. The unique
(team, email) made that a 500; now the second is answered as inviting again (the invitation
renewed, or its role changed, on the audit trail as such).

The first admin's invitation is stored in a transaction the test holds open, so the race is
not left to chance: the second admin's request (over HTTP, on a thread) reads no invitation
and waits at its insert for that transaction, which then commits."""

import threading
import time
import uuid

import httpx

from app.db import utcnow
from app.models import Invitation
from app.tenants import repository as tenants
from tests.console.helpers import csrf_of, signed_in
from tests.fixtures.api import Api
from tests.people.races import waiting_at


def test_an_address_invited_by_two_admins_at_once_is_invited_once(api: Api) -> None:
    team = f"invite-{uuid.uuid4().hex[:8]}"
    second = signed_in(api, api.new_key(team))
    address = f"race-{uuid.uuid4().hex[:8]}@example.com"
    token = csrf_of(second.get("/console/members").text)
    answers: list[httpx.Response] = []
    at_insert = waiting_at(api, "INSERT INTO invitation")
    with api.served.runtime.session() as first:
        tenant = tenants.tenant_by_name(first, team)
        assert tenant is not None
        first.add(
            Invitation(
                id=f"inv_{uuid.uuid4().hex[:20]}",
                tenant_id=tenant.id,
                email=address,
                role="viewer",
                invited_by="person:the-other-admin",
                created_at=utcnow(),
            )
        )
        first.flush()
        posting = threading.Thread(
            target=lambda: answers.append(
                second.post(
                    "/console/members",
                    data={"email": address, "role": "member", "csrf_token": token},
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
    page = second.get("/console/members").text
    invited = page.split("<h2>Invited</h2>")[1].split("</table>")[0]
    assert invited.count(f"Withdraw the invitation of {address}") == 1, invited
    assert '<td data-label="Role">member' in invited.split(address)[1].split("</tr>")[0]
    with api.served.runtime.session() as session:
        [stored] = session.query(Invitation).filter(Invitation.email == address).all()
        assert stored.role == "member" and stored.invited_by.startswith("key:")
