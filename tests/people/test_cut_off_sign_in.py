"""Signing in to the console with a key that holds no scope now, on both databases: one made
with a key since revoked (made as it was revoked, or before revoking went down the chain), or
one whose maker is out of the team. The sign-in succeeded and every page then answered 403; now
it is refused at once, telling the key's holder why (as the API's 403 does), on the team's trail
as `api_key.sign_in_refused` with `reason: held_back`. An unknown key's words are unchanged."""

import uuid

import httpx

from app.db import utcnow
from app.models import ApiKey
from app.tenants import service
from tests.audit.helpers import events
from tests.console.helpers import csrf_of, signed_in
from tests.fixtures.api import Api
from tests.people.test_revoked_makers import EVERY_SCOPE, key_id_of, made_key


def _try(api: Api, key: str) -> httpx.Response:
    client = api.client()
    form = client.get("/console/sign-in")
    return client.post(
        "/console/sign-in",
        data={"api_key": key, "csrf_token": csrf_of(form.text), "next": "/console/evaluations"},
    )


def test_a_key_made_with_a_revoked_key_is_refused_at_sign_in(api: Api) -> None:
    team = f"cutoff-{uuid.uuid4().hex[:8]}"
    admin_key = api.new_key(team)
    maker = made_key(signed_in(api, admin_key), "maker")
    maker_id = key_id_of(api, maker)
    with api.served.runtime.session() as session:
        # As a key the maker made while its revocation was being stored.
        session.query(ApiKey).filter(ApiKey.id == maker_id).update({"revoked_at": utcnow()})
        _, late = service.create_key(
            session, team, create=False, scopes=EVERY_SCOPE, created_by=f"key:{maker_id}"
        )
        session.commit()
    answer = _try(api, late)
    assert answer.status_code == 403, answer.text
    assert "loupe_session=" not in answer.headers.get("set-cookie", "")
    assert (
        f"That API key holds no scope now: its maker key:{maker_id}, revoked, allows it none."
        in answer.text
    )
    late_id = key_id_of(api, late)
    [refused] = events(api.client(admin_key), action="api_key.sign_in_refused")
    assert refused["object_id"] == late_id
    assert refused["details"]["reason"] == "held_back"
    # An unknown key is told nothing more than before.
    unknown = _try(api, "lp_" + uuid.uuid4().hex)
    assert unknown.status_code == 401
    assert "That API key is not valid (or has been revoked)." in unknown.text
    assert "holds no scope" not in unknown.text


def test_a_key_whose_maker_left_the_team_is_refused_at_sign_in(api: Api) -> None:
    team = f"cutoff-{uuid.uuid4().hex[:8]}"
    api.new_key(team)
    gone = f"person:per_{uuid.uuid4().hex[:20]}"
    with api.served.runtime.session() as session:
        _, kept = service.create_key(
            session, team, create=False, scopes=["read", "write"], created_by=gone
        )
        session.commit()
    answer = _try(api, kept)
    assert answer.status_code == 403, answer.text
    assert f"its maker {gone}, no longer in the team, allows it none" in answer.text
