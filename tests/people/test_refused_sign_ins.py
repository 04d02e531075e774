"""Refused console sign-ins (the ninth round's security read): a revoked or expired key, an
unknown one, a provider's refusal and a person in no team left no trace. Now a key of Loupe's is
on its team's audit trail, at most once a throttle window, and every refusal is logged."""

import logging
from datetime import timedelta

import httpx

from app.db import utcnow
from app.tenants import service
from tests.audit.helpers import events, key_actor
from tests.fixtures.api import Api
from tests.people.provider import Provider, browser, csrf_of, person, sign_in


def _try(loupe: Api, key: str) -> httpx.Response:
    client = browser(loupe)
    form = client.get("/console/sign-in")
    return client.post(
        "/console/sign-in",
        data={"api_key": key, "csrf_token": csrf_of(form.text), "next": "/console"},
    )


def test_a_revoked_or_expired_keys_refusal_is_on_its_team_trail_once_a_window(
    loupe: Api, log_records: list[logging.LogRecord]
) -> None:
    admin = loupe.client(loupe.new_key("refusals"))
    revoked = loupe.new_key("refusals", ["read"])
    revoked_id = key_actor(loupe, revoked).removeprefix("key:")
    with loupe.served.runtime.session() as session:
        service.revoke_key(session, revoked_id)
        _, expired = service.create_key(
            session, "refusals", scopes=["read"], expires_at=utcnow() - timedelta(minutes=1)
        )
        session.commit()
    for _ in range(3):
        assert _try(loupe, revoked).status_code == 401
    assert _try(loupe, expired).status_code == 401
    refused = events(admin, action="api_key.sign_in_refused")
    by_key = {event["object_id"]: event for event in refused}
    # One a window for the revoked key, tried three times.
    assert len(refused) == 2, refused
    assert by_key[revoked_id]["details"]["reason"] == "revoked"
    assert by_key[revoked_id]["actor"] == f"key:{revoked_id}"
    [expired_event] = [e for e in refused if e["object_id"] != revoked_id]
    assert expired_event["details"]["reason"] == "expired"
    # Another team's trail does not hear of it.
    elsewhere = loupe.client(loupe.new_key("elsewhere"))
    assert events(elsewhere, action="api_key.sign_in_refused") == []
    # A key that is none of Loupe's names no team: logged, with its address, not what was typed.
    assert _try(loupe, "lp_not-a-key-at-all").status_code == 401
    lines = [r for r in log_records if r.name == "loupe.auth" and "sign-in refused" in r.msg]
    assert [r.getMessage() for r in lines][-1] == "console sign-in refused: not a key"
    assert all("lp_not-a-key" not in str(r.__dict__) for r in lines)


def test_a_person_in_no_team_is_logged(
    loupe: Api, idp: Provider, log_records: list[logging.LogRecord]
) -> None:
    sub = person(idp, "nobody-maps-this")
    answer = sign_in(browser(loupe), sub)
    assert answer.status_code == 403
    [line] = [r for r in log_records if r.getMessage() == "OIDC sign-in refused: in no team"]
    assert line.person_id.startswith("per")  # type: ignore[attr-defined]
