"""Scoped keys: every route needs one scope, and a key without it gets 403 naming it.

The routes come from the app itself: every route under /v1 must authenticate and show its scope
as `x-loupe-scope` in openapi.json (`test_every_api_route_declares_a_scope`), and every route
whose method changes something must have had its scope decided here (`UNSAFE_SCOPES`), so a new
POST cannot quietly take `write` when it stores nothing, or the other way round. Then each key
(each scope alone, and a key from before scopes, which keeps them all) calls every operation:
403 with `required_scope` exactly where it lacks the operation's scope, something else where it
has it. The scope is checked before the object is looked up, so the
ids in the paths need not exist (another tenant's objects stay 404 for a key that has the
scope: tests/tenants/test_every_route_is_scoped.py).
"""

import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta, timezone
from pathlib import Path

import httpx
import pytest
from fastapi.routing import APIRoute, iter_route_contexts

from app.api.deps import authenticates
from app.db import utcnow
from app.main import create_app
from app.tenants.scopes import KEY_SCOPES
from app.tenants.service import create_key
from tests.console.helpers import csrf_of, signed_in
from tests.fixtures.api import Api, fast_settings, side_app

PROBLEM_JSON = "application/problem+json"
# Routes that take no key, and so have no scope.
PUBLIC = {"/healthz", "/readyz", "/metrics", "/openapi.json"}
# The scope decided for every route whose method changes state (a new one must be added here:
# `read` if it stores nothing, declared in app/tenants/scopes.py READ_ONLY_OPERATIONS).
UNSAFE_SCOPES = {
    ("POST", "/v1/evaluations"): "write",
    ("POST", "/v1/evaluations/estimate"): "read",
    ("DELETE", "/v1/evaluations/{evaluation_id}"): "write",
    ("POST", "/v1/evaluations/{evaluation_id}/cancel"): "write",
    ("POST", "/v1/evaluations/{evaluation_id}/test_cases"): "write",
    ("POST", "/v1/evaluations/{evaluation_id}/close"): "write",
    ("POST", "/v1/runs"): "write",
    ("POST", "/v1/runs/estimate"): "read",
    ("DELETE", "/v1/runs/{run_id}"): "write",
    ("POST", "/v1/runs/{run_id}/cancel"): "write",
    ("POST", "/v1/evals"): "write",
    ("POST", "/v1/evals/{eval_id}"): "write",
    ("DELETE", "/v1/evals/{eval_id}"): "write",
    ("POST", "/v1/evals/{eval_id}/runs"): "write",
    ("POST", "/v1/evals/{eval_id}/runs/estimate"): "read",
    ("POST", "/v1/evals/{eval_id}/runs/{run_id}"): "write",
    ("DELETE", "/v1/evals/{eval_id}/runs/{run_id}"): "write",
    ("POST", "/v1/evals/{eval_id}/runs/{run_id}/cancel"): "write",
    ("POST", "/v1/online_rules"): "admin",
    ("PATCH", "/v1/online_rules/{rule_id}"): "admin",
    ("DELETE", "/v1/online_rules/{rule_id}"): "admin",
    ("POST", "/v1/online_rules/{rule_id}/enable"): "admin",
    ("POST", "/v1/online_rules/{rule_id}/disable"): "admin",
    ("POST", "/v1/online_rules/{rule_id}/backfill"): "admin",
    ("POST", "/v1/traces"): "ingest",
    ("POST", "/v1/logs"): "ingest",
    ("POST", "/v1/webhook_endpoints"): "write",
    ("DELETE", "/v1/webhook_endpoints/{endpoint_id}"): "write",
    ("POST", "/v1/datasets"): "write",
    ("DELETE", "/v1/datasets/{dataset_id}"): "write",
    ("POST", "/v1/models"): "write",
    ("DELETE", "/v1/models/{model_id}"): "write",
    ("POST", "/v1/comparisons"): "write",
    ("POST", "/v1/files"): "write",
    ("DELETE", "/v1/files/{file_id}"): "write",
    ("POST", "/v1/labels"): "review",
    ("POST", "/v1/labels/import"): "review",
    ("DELETE", "/v1/labels/{label_id}"): "review",
    ("POST", "/v1/review_queues"): "write",
    ("DELETE", "/v1/review_queues/{queue_id}"): "write",
    ("POST", "/v1/review_queues/{queue_id}/claim"): "review",
    ("POST", "/v1/review_queues/{queue_id}/items/{item_id}/label"): "review",
    ("POST", "/v1/review_queues/{queue_id}/items/{item_id}/release"): "review",
    ("POST", "/v1/alignments"): "write",
    ("POST", "/v1/alignments/{alignment_id}/activate"): "write",
    ("POST", "/v1/alignments/{alignment_id}/decline"): "write",
    ("POST", "/v1/alignments/{alignment_id}/cancel"): "write",
    ("DELETE", "/v1/alignments/{alignment_id}"): "write",
    ("DELETE", "/v1/comparisons/{comparison_id}"): "write",
}
# GET routes that need more than `read`: the audit trail is for a team's admins.
SAFE_EXCEPTIONS: dict[tuple[str, str], str] = {("GET", "/v1/audit_events"): "admin"}
PARAMETER = re.compile(r"\{([^}:]+)(?::[^}]*)?\}")
# Keys by what they hold: each scope alone, and a key from before scopes (NULL: all of them).
KEYS: dict[str, list[str] | None] = {scope: [scope] for scope in KEY_SCOPES} | {"legacy": None}

APP = create_app(fast_settings())
DOCUMENT = APP.openapi()


@dataclass(frozen=True)
class Operation:
    method: str
    path: str
    scope: str
    dialect: str
    # The second scope it admits (`x-loupe-also-scope`), if any.
    also: str | None = None

    def admits(self, held: set[str]) -> bool:
        return self.scope in held or self.also in held

    def __str__(self) -> str:
        return f"{self.method} {self.path}"

    def url(self) -> str:
        """The path with a plausible id of the right form in each parameter (none exists)."""

        def fill(match: re.Match[str]) -> str:
            name = match.group(1)
            if name == "sha256":
                return "0" * 64
            return f"{name.removesuffix('_id')}_{uuid.uuid4().hex[:24]}"

        return PARAMETER.sub(fill, self.path)


def operations() -> list[Operation]:
    found = []
    for path, methods in DOCUMENT["paths"].items():
        for method, operation in methods.items():
            if "x-loupe-scope" not in operation:
                continue
            dialect = "problem"
            if path.startswith(("/v1/evals", "/v1/files")):
                dialect = "openai"
            elif path in ("/v1/traces", "/v1/logs"):
                dialect = "otlp"
            scope, also = operation["x-loupe-scope"], operation.get("x-loupe-also-scope")
            found.append(Operation(method.upper(), path, scope, dialect, also))
    return found


OPERATIONS = operations()


def test_every_api_route_declares_a_scope() -> None:
    """Every route under /v1 takes a key and shows the scope it needs; every route that takes
    a key is in the document with its scope."""
    missing = []
    for context in iter_route_contexts(APP.routes):
        route = context.original_route
        if not isinstance(route, APIRoute) or not context.path or context.path in PUBLIC:
            continue
        if not context.path.startswith("/v1/"):
            assert not authenticates(route) or not route.include_in_schema, context.path
            continue
        for method in route.methods:
            operation = DOCUMENT["paths"].get(context.path, {}).get(method.lower(), {})
            if not authenticates(route) or operation.get("x-loupe-scope") is None:
                missing.append(f"{method} {context.path}")
    assert not missing, f"routes without a scope: {missing}"
    assert len(OPERATIONS) > 50


def test_every_unsafe_route_had_its_scope_decided() -> None:
    unsafe = {
        (op.method, op.path): op.scope for op in OPERATIONS if op.method not in ("GET", "HEAD")
    }
    undecided = sorted(set(unsafe) - set(UNSAFE_SCOPES))
    assert not undecided, f"decide these routes' scopes and add them to UNSAFE_SCOPES: {undecided}"
    assert unsafe == UNSAFE_SCOPES
    safe = {(op.method, op.path): op.scope for op in OPERATIONS if op.method == "GET"}
    assert {route: scope for route, scope in safe.items() if scope != "read"} == SAFE_EXCEPTIONS


def _key(api: Api, scopes: list[str] | None, **kwargs: object) -> str:
    with api.served.runtime.session() as session:
        _, key = create_key(session, f"scopes-{uuid.uuid4().hex[:8]}", scopes=scopes, **kwargs)
        session.commit()
    return key


@pytest.fixture(scope="module")
def keys(api: Api) -> dict[str, str]:
    return {name: _key(api, scopes) for name, scopes in KEYS.items()}


def _call(client: httpx.Client, operation: Operation) -> httpx.Response:
    url = operation.url()
    if operation.dialect == "otlp":
        return client.post(url, content=b"", headers={"Content-Type": "application/x-protobuf"})
    if operation.method in ("POST", "PATCH", "PUT"):
        return client.request(operation.method, url, json={})
    return client.request(operation.method, url)


@pytest.mark.parametrize("api", ["embedded"], indirect=True)
@pytest.mark.parametrize("key_name", list(KEYS))
def test_each_key_reaches_exactly_the_routes_of_its_scopes(
    api: Api, keys: dict[str, str], key_name: str
) -> None:
    held = set(KEY_SCOPES) if KEYS[key_name] is None else set(KEYS[key_name] or [])
    wrong = []
    with api.client(keys[key_name]) as client:
        for operation in OPERATIONS:
            response = _call(client, operation)
            if operation.admits(held):
                if response.status_code in (401, 403):
                    wrong.append(f"{operation}: {response.status_code} {response.text[:200]}")
                continue
            if response.status_code != 403:
                wrong.append(f"{operation}: {response.status_code}, not 403")
            elif operation.dialect == "otlp":
                # The receiver answers in OTLP's encoding: a google.rpc.Status (protobuf).
                assert response.headers["content-type"] == "application/x-protobuf"
            else:
                body = response.json()
                assert response.headers["content-type"] == PROBLEM_JSON
                assert body["required_scope"] == operation.scope, body
                assert body["errors"][0]["loc"] == "header.Authorization", body
                assert f"`{operation.scope}`" in body["detail"], body
                if operation.dialect == "openai":
                    assert body["error"]["type"] == "permission_error", body
    assert not wrong, wrong


@pytest.mark.parametrize("api", ["embedded"], indirect=True)
def test_the_otlp_403_in_json_is_a_status_with_the_problem(api: Api, keys: dict[str, str]) -> None:
    response = api.client(keys["read"]).post(
        "/v1/traces", content=b"{}", headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 403
    body = response.json()
    # google.rpc.Code 7: PERMISSION_DENIED.
    assert body["code"] == 7 and body["required_scope"] == "ingest", body


def test_a_read_key_is_refused_a_change_to_its_own_object_and_anothers_alike(api: Api) -> None:
    """The scope is checked before the object: a read-only key learns nothing from a 403 about
    whether an id exists, and a key with the scope still gets 404 for another tenant's."""
    writer = _key(api, ["read", "write"])
    created = api.client(writer).post(
        "/v1/webhook_endpoints", json={"url": "http://127.0.0.1:9/hook"}
    )
    assert created.status_code == 201, created.text
    endpoint = created.json()["id"]
    with api.client(writer) as client:
        own_tenant = client.get("/v1/webhook_endpoints").json()
    assert any(item["id"] == endpoint for item in own_tenant["data"])
    stranger_reader = api.client(_key(api, ["read"]))
    stranger_writer = api.client(_key(api, ["write"]))
    missing = "whe_" + "0" * 26
    for target in (endpoint, missing):
        refused = stranger_reader.delete(f"/v1/webhook_endpoints/{target}")
        assert refused.status_code == 403 and refused.json()["required_scope"] == "write"
        assert stranger_writer.delete(f"/v1/webhook_endpoints/{target}").status_code == 404


def test_an_expired_key_is_401_saying_so_and_counts_as_a_failure(api: Api) -> None:
    expired = _key(api, None, expires_at=utcnow() - timedelta(seconds=1))
    response = api.client(expired).get("/v1/usage")
    assert response.status_code == 401
    assert response.headers["content-type"] == PROBLEM_JSON
    body = response.json()
    assert "expired" in body["detail"] and body["errors"][0]["loc"] == "header.Authorization"
    assert "invalid_token" in response.headers["www-authenticate"]
    fresh = _key(api, None, expires_at=utcnow() + timedelta(days=1))
    assert api.client(fresh).get("/v1/usage").status_code == 200


@pytest.mark.parametrize("api", ["embedded", "distributed"], indirect=True)
def test_an_expiry_with_an_offset_is_the_instant_it_names(api: Api) -> None:
    """SQLite keeps a time's wall clock and drops its offset: an hour from now written at
    UTC-5 must not have expired, a minute ago written at UTC+5 must have."""
    west, east = timezone(timedelta(hours=-5)), timezone(timedelta(hours=5))
    later = _key(api, None, expires_at=(utcnow() + timedelta(hours=1)).astimezone(west))
    assert api.client(later).get("/v1/usage").status_code == 200
    gone = _key(api, None, expires_at=(utcnow() - timedelta(minutes=1)).astimezone(east))
    assert api.client(gone).get("/v1/usage").status_code == 401


def test_expired_keys_count_as_failures_for_the_throttle(tmp_path: Path) -> None:
    with side_app(tmp_path, auth_failure_limit=2, auth_failure_window_seconds=86400) as app:
        expired = _key(app, ["read"], expires_at=utcnow() - timedelta(minutes=1))
        with app.client(expired) as client:
            assert [client.get("/v1/usage").status_code for _ in range(2)] == [401, 401]
            throttled = client.get("/v1/usage")
        assert throttled.status_code == 429 and "valid key" in throttled.json()["detail"]
        # A valid key is still accepted from the throttled address.
        assert app.client(_key(app, ["read"])).get("/v1/usage").status_code == 200


@pytest.fixture
def read_only_console(api: Api) -> Iterator[httpx.Client]:
    client = signed_in(api, _key(api, ["read"]))
    yield client
    client.close()


@pytest.mark.parametrize("api", ["embedded"], indirect=True)
def test_a_read_only_key_reads_console_pages_but_takes_no_action(
    api: Api, read_only_console: httpx.Client
) -> None:
    page = read_only_console.get("/console/evaluations")
    assert page.status_code == 200
    token = csrf_of(page.text)
    for action in (
        "/console/evaluations/evn_" + "0" * 26 + "/cancel",
        "/console/evaluations/evn_" + "0" * 26 + "/rerun",
        "/console/compare",
    ):
        refused = read_only_console.post(action, data={"csrf_token": token})
        assert refused.status_code == 403, (action, refused.status_code)
        assert "text/html" in refused.headers["content-type"]
        assert "Forbidden" in refused.text and "`write`" in refused.text
    # Signing out takes no scope.
    out = read_only_console.post("/console/sign-out", data={"csrf_token": token})
    assert out.status_code == 303, out.text


# Console actions open to any session (signing in and out, picking a team), and those a
# `review` key takes (claiming, labelling, giving back review items).
OPEN_ACTIONS = {"/console/sign-in", "/console/sign-out", "/console/teams"}
REVIEW_ACTIONS = {
    "/console/review/{queue_id}/claim",
    "/console/review/{queue_id}/items/{item_id}/label",
    "/console/review/{queue_id}/items/{item_id}/release",
}


def console_actions() -> list[str]:
    """Every console route taking a POST, from the app itself (a new form cannot be missed)."""
    return sorted(
        {
            context.path
            for context in iter_route_contexts(APP.routes)
            if (context.path or "").startswith("/console/")
            and "POST" in (context.methods or set())
            and context.path not in OPEN_ACTIONS
        }
    )


@pytest.mark.parametrize("api", ["embedded"], indirect=True)
@pytest.mark.parametrize("scopes", [["read"], ["review"], ["read", "review"]])
def test_a_console_session_without_write_takes_no_action(api: Api, scopes: list[str]) -> None:
    """Signed in with a key holding `read` and/or `review`, every console form's POST but the
    review items' is a 403 page naming the scope it lacks, before any id is looked up."""
    console = signed_in(api, _key(api, scopes))
    landing = console.get("/console/review" if "read" not in scopes else "/console/evaluations")
    assert landing.status_code == 200, landing.text
    token = csrf_of(landing.text)
    actions = console_actions()
    assert len(actions) > 10 and set(actions) >= REVIEW_ACTIONS
    wrong = []
    for path in actions:
        if path in REVIEW_ACTIONS:
            continue
        url = PARAMETER.sub(lambda match: f"{match.group(1)}_{uuid.uuid4().hex[:24]}", path)
        refused = console.post(url, data={"csrf_token": token})
        if refused.status_code != 403 or "Forbidden" not in refused.text:
            wrong.append(f"{path}: {refused.status_code}")
        elif not re.search(r"`(write|admin)`", refused.text):
            wrong.append(f"{path}: the 403 names no scope")
    assert not wrong, wrong


@pytest.mark.parametrize("api", ["embedded"], indirect=True)
def test_a_key_without_read_signs_in_to_a_403_page(api: Api) -> None:
    console = signed_in(api, _key(api, ["ingest"]))
    page = console.get("/console/evaluations")
    assert page.status_code == 403 and "`read`" in page.text
