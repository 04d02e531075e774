"""Every way in without a working credential, on every route the app has.

The other cells of the access matrix are elsewhere: each key scope × every API operation and
the console's actions (tests/tenants/test_scopes.py), each role × every console route
(tests/people/test_role_matrix.py), another tenant's ids in paths, lists and bodies
(tests/tenants/test_every_route_is_scoped.py). Here: no key, a key that is not one (another
scheme, unknown), a revoked and an expired key, on every API operation (401, the OTLP receiver
in its own encoding), and a key without the operation's scope (403), each before a body that
cannot be read is read; no session, a forged, signed-out, revoked or expired key's session on
every console route (the sign-in page, never the page); and a session's form posted without
its token, with another session's, or from another site, on every console POST (403, nothing
changed). Routes come from the app itself: a new route is in every row, and a console route
open without a session must be named in `OPEN_PAGES`.
"""

import re
import uuid
from collections.abc import Callable, Iterator
from datetime import timedelta

import httpx
import pytest
from fastapi.routing import APIRoute, iter_route_contexts
from sqlalchemy import update

from app.api.deps import authenticates
from app.api.routing import LeanRoute
from app.db import utcnow
from app.main import create_app
from app.models import ApiKey
from app.tenants.scopes import KEY_SCOPES
from app.tenants.service import create_key, hash_key, revoke_key
from tests.console.helpers import csrf_of, signed_in
from tests.fixtures.api import Api, fast_settings
from tests.tenants.test_scopes import DOCUMENT, OPERATIONS, Operation

# One mode: what is checked here is the app's routing, the same on either database.
EMBEDDED = pytest.mark.parametrize("api", ["embedded"], indirect=True)

CONTEXTS = list(iter_route_contexts(create_app(fast_settings()).routes))
PARAMETER = re.compile(r"\{([^}:]+)(?::[^}]*)?\}")
# Console routes answered without a session: signing in (with a key or through the identity
# provider) and the console's root, which leads on to the landing page.
OPEN_PAGES = {
    ("GET", "/console"),
    ("GET", "/console/"),
    ("GET", "/console/sign-in"),
    ("POST", "/console/sign-in"),
    ("GET", "/console/oidc/start"),
    ("GET", "/console/oidc/callback"),
}
CSRF_REFUSED = ("The form has expired or did not come from this page", "sent from another site")


def _key(api: Api, **kwargs: object) -> tuple[str, str]:
    """A key with every scope of a fresh tenant: (secret, id)."""
    with api.served.runtime.session() as session:
        _, secret = create_key(session, f"creds-{uuid.uuid4().hex[:8]}", **kwargs)
        found = session.query(ApiKey).filter(ApiKey.key_hash == hash_key(secret)).one()
        session.commit()
        return secret, found.id


def _revoked(api: Api) -> str:
    secret, key_id = _key(api)
    with api.served.runtime.session() as session:
        revoke_key(session, key_id)
        session.commit()
    return secret


def _expire(api: Api, key_id: str) -> None:
    with api.served.runtime.session() as session:
        session.execute(
            update(ApiKey).where(ApiKey.id == key_id).values(expires_at=utcnow() - timedelta(1))
        )
        session.commit()


def _expired(api: Api) -> str:
    secret, key_id = _key(api)
    _expire(api, key_id)
    return secret


# What each client sends as Authorization, by name.
BAD_CREDENTIALS: dict[str, Callable[[Api], dict[str, str]]] = {
    "none": lambda api: {},
    "another scheme": lambda api: {"Authorization": "Basic bG9vcGU6c2VjcmV0"},
    "a bearer without a key": lambda api: {"Authorization": "Bearer"},
    "an unknown key": lambda api: {"Authorization": f"Bearer lp_{uuid.uuid4().hex}"},
    "a revoked key": lambda api: {"Authorization": f"Bearer {_revoked(api)}"},
    "an expired key": lambda api: {"Authorization": f"Bearer {_expired(api)}"},
}


def _body_kind(operation: Operation) -> str | None:
    """The media type of the operation's request body, from the document (None: no body)."""
    method = DOCUMENT["paths"][operation.path][operation.method.lower()]
    content = (method.get("requestBody") or {}).get("content") or {}
    return next(iter(content), None)


# A body the key must be checked before: JSON that does not parse, a form whose text field is
# past what the multipart parser takes. Read first, either is a 400 naming the body, whoever
# sends it; refused for the key first, neither is read (nor spooled, nor parsed).
UNREADABLE_JSON = b'{"test_cases": [{"input": "never parsed'
UNREADABLE_FORM = {"files": {"file": ("rows.jsonl", b"{}")}, "data": {"name": "x" * (2 << 20)}}


def _call(client: httpx.Client, operation: Operation) -> httpx.Response:
    url = operation.url()
    kind = _body_kind(operation)
    if operation.dialect == "otlp":
        # Read first, a body that does not decompress is a 400 whoever sends it.
        headers = {"Content-Type": "application/x-protobuf", "Content-Encoding": "gzip"}
        return client.post(url, content=b"not gzip", headers=headers)
    if kind == "application/x-ndjson":
        # A label import takes a form upload too; the router's NUL check parses every form.
        return client.request(operation.method, url, **UNREADABLE_FORM)  # type: ignore[arg-type]
    if kind == "application/json":
        headers = {"Content-Type": "application/json"}
        return client.request(operation.method, url, content=UNREADABLE_JSON, headers=headers)
    if kind == "multipart/form-data":
        return client.request(operation.method, url, **UNREADABLE_FORM)  # type: ignore[arg-type]
    if operation.method in ("POST", "PATCH", "PUT"):
        return client.request(operation.method, url, json={})
    return client.request(operation.method, url)


@EMBEDDED
@pytest.mark.parametrize("credential", list(BAD_CREDENTIALS))
def test_every_operation_refuses_a_request_without_a_working_key(api: Api, credential: str) -> None:
    headers = BAD_CREDENTIALS[credential](api)
    wrong = []
    with httpx.Client(base_url=api.base_url, headers=headers, trust_env=False) as client:
        for operation in OPERATIONS:
            response = _call(client, operation)
            content_type = response.headers.get("content-type", "")
            if response.status_code != 401:
                wrong.append(f"{operation}: {response.status_code} {response.text[:120]}")
            elif operation.dialect == "otlp":
                if content_type != "application/x-protobuf":
                    wrong.append(f"{operation}: a 401 as {content_type}")
            elif not content_type.startswith("application/problem+json"):
                wrong.append(f"{operation}: a 401 as {content_type}")
            elif response.json()["errors"][0]["loc"] != "header.Authorization":
                wrong.append(f"{operation}: {response.text[:200]}")
    assert len(OPERATIONS) > 50
    assert not wrong, "\n".join(wrong)


def test_every_route_taking_a_body_checks_the_key_before_reading_it() -> None:
    """FastAPI reads a body before it solves any dependency: a route taking a body and a key
    is a LeanRoute, which checks the key and its scope first (app/api/routing.py)."""
    unchecked = [
        f"{sorted(context.methods or [])} {context.path}"
        for context in CONTEXTS
        if isinstance(context.original_route, APIRoute)
        and context.original_route.body_field is not None
        and authenticates(context.original_route)
        and not isinstance(context.original_route, LeanRoute)
    ]
    assert not unchecked, unchecked


@EMBEDDED
def test_a_key_without_the_scope_is_refused_before_its_body_is_read(api: Api) -> None:
    """Each operation taking a body, called with a key holding every scope but the one it
    needs, and a body that cannot be read: the 403 naming the scope, not the body's 400."""
    wrong = []
    kinds = ("application/json", "multipart/form-data", "application/x-ndjson")
    taking = [op for op in OPERATIONS if _body_kind(op) in kinds or op.dialect == "otlp"]
    assert len(taking) > 15 and {"/v1/traces", "/v1/labels/import"} <= {op.path for op in taking}
    for operation in taking:
        held = [scope for scope in KEY_SCOPES if scope not in (operation.scope, operation.also)]
        with api.client(_key(api, scopes=held)[0]) as client:
            response = _call(client, operation)
        if operation.dialect == "otlp":  # a google.rpc.Status, no problem fields
            if response.status_code != 403:
                wrong.append(f"{operation}: {response.status_code} {response.text[:160]}")
        elif (
            response.status_code != 403 or response.json().get("required_scope") != operation.scope
        ):
            wrong.append(f"{operation}: {response.status_code} {response.text[:160]}")
    assert not wrong, "\n".join(wrong)


def console_routes() -> list[tuple[str, str]]:
    """Every (method, path) of the console, from the app."""
    return sorted(
        (method, context.path or "")
        for context in CONTEXTS
        if (context.path or "") == "/console" or (context.path or "").startswith("/console/")
        for method in context.methods or set()
    )


def filled(path: str) -> str:
    """The path with ids of the right form that nobody made."""
    return PARAMETER.sub(
        lambda match: "0" if match.group(1) == "index" else f"{match.group(1)}_{'0' * 24}", path
    )


def _signed_out(api: Api) -> httpx.Client:
    client = signed_in(api, _key(api)[0])
    token = csrf_of(client.get("/console/evaluations").text)
    kept = client.cookies["loupe_session"]
    assert client.post("/console/sign-out", data={"csrf_token": token}).status_code == 303
    client.cookies.set("loupe_session", kept)
    return client


def _revoked_session(api: Api) -> httpx.Client:
    secret, key_id = _key(api)
    client = signed_in(api, secret)
    with api.served.runtime.session() as session:
        revoke_key(session, key_id)
        session.commit()
    return client


def _expired_session(api: Api) -> httpx.Client:
    secret, key_id = _key(api)
    client = signed_in(api, secret)
    _expire(api, key_id)
    return client


def _forged(api: Api) -> httpx.Client:
    client = api.client()
    client.cookies.set("loupe_session", "eyJrIjoieCIsImV4cCI6OTk5OTk5OTk5OSwibiI6Im4ifQ.00")
    return client


BAD_SESSIONS: dict[str, Callable[[Api], httpx.Client]] = {
    "none": lambda api: api.client(),
    "a forged cookie": _forged,
    "a signed-out session": _signed_out,
    "a revoked key's session": _revoked_session,
    "an expired key's session": _expired_session,
}


@EMBEDDED
@pytest.mark.parametrize("how", list(BAD_SESSIONS))
def test_every_console_route_without_a_working_session_goes_to_sign_in(api: Api, how: str) -> None:
    routes = console_routes()
    assert set(routes) >= OPEN_PAGES, OPEN_PAGES - set(routes)
    assert len(routes) > 40
    wrong = []
    client = BAD_SESSIONS[how](api)
    try:
        for method, path in routes:
            if (method, path) in OPEN_PAGES:
                continue
            response = client.request(method, filled(path), data={} if method == "POST" else None)
            location = response.headers.get("location", "")
            if response.status_code != 303 or not location.startswith("/console/sign-in"):
                wrong.append(f"{method} {path}: {response.status_code} {location}")
    finally:
        client.close()
    assert not wrong, "\n".join(wrong)


@pytest.fixture
def admin_console(api: Api) -> Iterator[tuple[httpx.Client, str, httpx.Client]]:
    """A session of a key with every scope, the key, and another tenant's session."""
    secret, _ = _key(api)
    console, other = signed_in(api, secret), signed_in(api, _key(api)[0])
    yield console, secret, other
    console.close()
    other.close()


def _events(client: httpx.Client) -> list[str]:
    return [event["id"] for event in client.get("/v1/audit_events").json()["data"]]


@EMBEDDED
def test_every_console_form_refuses_a_post_without_the_sessions_own_token(
    api: Api, admin_console: tuple[httpx.Client, str, httpx.Client]
) -> None:
    """A key with every scope, so that only the form's token can refuse: no token, another
    session's, and this session's own sent from another site are each a 403 before any id is
    looked up (the ids here name nothing), and nothing lands on the audit trail."""
    console, secret, other = admin_console
    own = csrf_of(console.get("/console/evaluations").text)
    theirs = csrf_of(other.get("/console/evaluations").text)
    attempts = {
        "no token": ({}, {}),
        "another session's token": ({"csrf_token": theirs}, {}),
        "another site": ({"csrf_token": own}, {"Origin": "http://evil.example"}),
        "an opaque origin": ({"csrf_token": own}, {"Origin": "null"}),
    }
    with api.client(secret) as client:
        before = _events(client)
        wrong = []
        posts = [path for method, path in console_routes() if method == "POST"]
        assert "/console/keys" in posts and "/console/sign-in" in posts
        for path in posts:
            for name, (form, headers) in attempts.items():
                # The sign-in form is bound to its own cookie: this session has none.
                response = console.post(filled(path), data=form, headers=headers)
                refused = response.status_code == 403 and any(
                    words in response.text for words in CSRF_REFUSED
                )
                if not refused:
                    wrong.append(f"POST {path}, {name}: {response.status_code}")
        assert _events(client) == before
    assert console.get("/console/evaluations").status_code == 200
    assert not wrong, "\n".join(wrong)
