"""Two admins inviting one address at the same moment, on both databases: the second request
read no invitation, and by the time it stored its own the first had committed one. The unique
(team, email) made that a 500; now the second is answered as inviting again (the invitation
renewed, or its role changed, on the audit trail as such).

The first admin's invitation is stored in a transaction the test holds open, so the race is
not left to chance: the second admin's request (over HTTP, on a thread) reads no invitation
and waits at its insert for that transaction, which then commits."""

import sys
import threading
import time
import uuid
from collections.abc import Callable

import httpx
from sqlalchemy import text

from app.db import utcnow
from app.models import Invitation
from app.tenants import repository as tenants
from tests.console.helpers import csrf_of, signed_in
from tests.fixtures.api import Api


def _waiting_at_insert(api: Api) -> Callable[[], bool]:
    """Whether a request is at its INSERT INTO invitation (PostgreSQL: waiting for a lock)."""
    if api.settings.is_sqlite:
        # SQLite has no view of who waits for its write lock: the request's thread in the
        # served app (in this process), in the driver call of that statement, is.
        def at_insert() -> bool:
            for frame in sys._current_frames().values():
                while frame is not None:
                    statement = frame.f_locals.get("statement")
                    if (
                        frame.f_code.co_name == "do_execute"
                        and isinstance(statement, str)
                        and statement.startswith("INSERT INTO invitation")
                    ):
                        return True
                    frame = frame.f_back
            return False

        return at_insert

    def waiting() -> bool:
        with api.served.runtime.session() as session:
            return bool(
                session.scalar(
                    text(
                        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                        "AND query LIKE 'INSERT INTO invitation%'"
                    )
                )
            )

    return waiting


def test_an_address_invited_by_two_admins_at_once_is_invited_once(api: Api) -> None:
    team = f"invite-{uuid.uuid4().hex[:8]}"
    second = signed_in(api, api.new_key(team))
    address = f"race-{uuid.uuid4().hex[:8]}@example.com"
    token = csrf_of(second.get("/console/members").text)
    answers: list[httpx.Response] = []
    at_insert = _waiting_at_insert(api)
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
