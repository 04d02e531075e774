"""Every 4xx/5xx on /v1 is RFC 9457 problem+json whose detail and errors[] name what is wrong."""

from typing import Any

import httpx
import pytest

from tests.fixtures.api import Api


def problem(response: httpx.Response, status: int) -> dict[str, Any]:
    """Assert a problem+json answer with this status, a title and a detail; returns its body."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    body = response.json()
    assert body["status"] == status and body["title"] and body["detail"]
    return body


def locs(body: dict[str, Any]) -> list[str]:
    return [error["loc"] for error in body.get("errors") or []]


class TestBodyNotAnObject:
    @pytest.mark.parametrize(
        ("raw", "kind"),
        [(b"[1, 2]", "an array"), (b'"text"', "a string"), (b"null", "null"), (b"3", "a number")],
    )
    def test_names_the_body(self, api: Api, raw: bytes, kind: str) -> None:
        with api.tenant_client() as client:
            sent = {"content": raw, "headers": {"content-type": "application/json"}}
            body = problem(client.post("/v1/evaluations", **sent), 422)
            assert locs(body) == ["body"]
            assert body["detail"] == f"body: expected a JSON object, got {kind}"
            # The OpenAI-compatible routes keep OpenAI's 400 and name the body as its param.
            body = problem(client.post("/v1/evals", **sent), 400)
            assert locs(body) == ["body"] and body["error"]["param"] == "body"


class TestRouting:
    def test_unknown_route_names_the_method_and_path(self, api: Api) -> None:
        with api.tenant_client() as client:
            body = problem(client.get("/v1/evaluations/eval_x/nothing"), 404)
            assert body["detail"] == "No such route: GET /v1/evaluations/eval_x/nothing."
            assert body["instance"] == "/v1/evaluations/eval_x/nothing"
            # No key is needed to learn that a route does not exist, and none is asked for.
            assert "www-authenticate" not in client.get("/v1/nothing").headers

    def test_wrong_method_names_it_and_every_allowed_one(self, api: Api) -> None:
        with api.tenant_client() as client:
            # Two routes serve /v1/evaluations: Allow lists both, not the first one matched.
            response = client.put("/v1/evaluations")
            body = problem(response, 405)
            assert response.headers["allow"] == "GET, POST"
            assert body["detail"] == (
                "PUT /v1/evaluations: method not allowed; this path takes GET, POST."
            )
            response = client.patch("/v1/evaluations/eval_x")
            assert problem(response, 405) and response.headers["allow"] == "GET, DELETE"
            response = client.put("/v1/evals")
            body = problem(response, 405)
            assert response.headers["allow"] == "GET, POST"
            assert body["error"]["message"] == body["detail"]
