"""Every 4xx/5xx on /v1 is RFC 9457 problem+json whose detail and errors[] name what is wrong."""

from typing import Any

import httpx
import pytest
from sqlalchemy import select

from app.models import ApiKey
from app.tenants.service import revoke_key
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


EVALUATION = {
    "metrics": [{"type": "exact_match"}],
    "test_cases": [{"input": "q", "actual_output": "a", "expected_output": "a"}],
}


class TestFieldAtFault:
    def test_bad_cursor_and_metric_filter_name_the_query_parameter(self, api: Api) -> None:
        with api.tenant_client() as client:
            evaluation_id = client.post("/v1/evaluations", json=EVALUATION).json()["id"]
            path = f"/v1/evaluations/{evaluation_id}"
            body = problem(client.get(f"{path}/results", params={"after": "res_nope"}), 400)
            assert locs(body) == ["query.after"] and body["detail"].startswith("after: ")
            body = problem(client.get(f"{path}/test_cases", params={"after": "nope"}), 400)
            assert locs(body) == ["query.after"]
            body = problem(client.get(f"{path}/results", params={"metric": "bleu"}), 400)
            assert locs(body) == ["query.metric"] and "exact_match" in body["detail"]

    def test_idempotency_key_reused_names_the_header(self, api: Api) -> None:
        with api.tenant_client() as client:
            key = {"Idempotency-Key": "reused-key"}
            assert client.post("/v1/evaluations", json=EVALUATION, headers=key).status_code == 202
            other = {**EVALUATION, "name": "another body"}
            body = problem(client.post("/v1/evaluations", json=other, headers=key), 422)
            assert locs(body) == ["header.Idempotency-Key"]
            assert body["detail"].startswith("Idempotency-Key: ")

    def test_a_registered_webhook_url_names_url(self, api: Api) -> None:
        with api.tenant_client() as client:
            hook = {"url": "http://127.0.0.1:9/hook"}
            assert client.post("/v1/webhook_endpoints", json=hook).status_code == 201
            body = problem(client.post("/v1/webhook_endpoints", json=hook), 409)
            assert locs(body) == ["url"] and body["detail"].startswith("url: ")

    def test_an_empty_dataset_upload_names_file(self, api: Api) -> None:
        with api.tenant_client() as client:
            upload = {"file": ("empty.jsonl", b"", "application/jsonl")}
            response = client.post("/v1/datasets", files=upload, data={"format": "general_vqa"})
            body = problem(response, 422)
            assert locs(body) == ["file"]


class TestListCursors:
    @pytest.mark.parametrize(
        "path",
        [
            "/v1/evaluations",
            "/v1/runs",
            "/v1/datasets",
            "/v1/models",
            "/v1/webhook_endpoints",
        ],
    )
    def test_a_cursor_that_is_no_id_of_the_list_is_400(self, api: Api, path: str) -> None:
        with api.tenant_client() as client:
            # Planted so that a cursor sorting after every id would answer it (the first page).
            assert client.post("/v1/evaluations", json=EVALUATION).status_code == 202
            assert client.post("/v1/webhook_endpoints", json={"url": "http://127.0.0.1:9/h"})
            for cursor in ("zzz", "%%", "ds_1" if path != "/v1/datasets" else "eval_1"):
                body = problem(client.get(path, params={"after": cursor}), 400)
                assert locs(body) == ["query.after"] and body["detail"].startswith("after: ")
            # An empty cursor is no cursor, as before.
            assert client.get(path, params={"after": ""}).status_code == 200

    def test_openai_routes_name_after_as_their_param(self, api: Api) -> None:
        with api.tenant_client() as client:
            created = client.post("/v1/evals", json=EVAL_DEFINITION)
            assert created.status_code == 201, created.text
            runs = f"/v1/evals/{created.json()['id']}/runs"
            for path in ("/v1/evals", "/v1/files", runs):
                body = problem(client.get(path, params={"after": "zzz"}), 400)
                assert body["error"]["param"] == "after" and locs(body) == ["after"]


EVAL_DEFINITION = {
    "name": "cursor",
    "data_source_config": {
        "type": "custom",
        "item_schema": {"type": "object", "properties": {"q": {"type": "string"}}},
    },
    "testing_criteria": [
        {
            "type": "string_check",
            "name": "same",
            "input": "{{ item.q }}",
            "reference": "a",
            "operation": "eq",
        }
    ],
}


class TestIdempotencyKey:
    def test_an_empty_key_is_refused_naming_the_header(self, api: Api) -> None:
        with api.tenant_client() as client:
            empty = {"Idempotency-Key": ""}
            body = problem(client.post("/v1/evaluations", json=EVALUATION, headers=empty), 422)
            assert locs(body) == ["header.Idempotency-Key"]
            # Before, "" was a key: a second body under it was refused as a reused key.
            other = {**EVALUATION, "name": "another"}
            body = problem(client.post("/v1/evaluations", json=other, headers=empty), 422)
            assert locs(body) == ["header.Idempotency-Key"] and "reused" not in body["type"]
            too_long = {"Idempotency-Key": "k" * 256}
            body = problem(client.post("/v1/evaluations", json=EVALUATION, headers=too_long), 422)
            assert locs(body) == ["header.Idempotency-Key"]


class TestAuthorization:
    def test_missing_invalid_and_revoked_keys_name_the_header(self, api: Api) -> None:
        key = api.new_key()
        with api.client(key) as client, api.client() as anonymous:
            assert client.get("/v1/evaluations").status_code == 200
            response = anonymous.get("/v1/evaluations")
            body = problem(response, 401)
            assert locs(body) == ["header.Authorization"] and "Authorization" in body["detail"]
            assert response.headers["www-authenticate"] == 'Bearer realm="loupe"'
            with api.served.runtime.session() as session:
                stored = session.scalars(select(ApiKey).where(ApiKey.prefix == key[:10])).one()
                revoke_key(session, stored.id)
                session.commit()
            for path in ("/v1/evaluations", "/v1/evals"):
                response = client.get(path)
                body = problem(response, 401)
                assert locs(body) == ["header.Authorization"]
                assert "revoked" in body["detail"]
                assert response.headers["www-authenticate"] == (
                    'Bearer realm="loupe", error="invalid_token"'
                )


class TestPlainWords:
    """pydantic's words for its own machinery ("tag", "dictionary or object to extract fields
    from") are said as a client would: what to send instead, at the field."""

    CASE = {"input": "q", "actual_output": "a", "expected_output": "a"}

    def submit(self, api: Api, body: dict[str, Any]) -> dict[str, Any]:
        with api.tenant_client() as client:
            return problem(client.post("/v1/evaluations", json=body), 422)

    def test_an_unknown_metric_type_lists_the_known_ones(self, api: Api) -> None:
        # deepeval's class name was answered "Input tag 'GEval' found using 'type' does not
        # match any of the expected tags: ...".
        body = self.submit(api, {"test_cases": [self.CASE], "metrics": [{"type": "GEval"}]})
        [error] = body["errors"]
        assert error["loc"] == "metrics[0].type"
        assert error["msg"].startswith("unknown value 'GEval'; use one of 'exact_match', ")
        assert "'g_eval'" in error["msg"] and "tag" not in error["msg"]

    def test_a_wrong_value_is_said_of_the_field_not_of_input(self, api: Api) -> None:
        # Was "Input should be a valid number, ...": read as the test case's `input` field.
        metric = {"type": "exact_match", "threshold": "high"}
        body = self.submit(api, {"test_cases": [self.CASE], "metrics": [metric]})
        [error] = body["errors"]
        assert error["loc"] == "metrics[0].threshold"
        assert error["msg"].startswith("must be a valid number"), error

    def test_a_metric_without_a_type_says_type_is_required(self, api: Api) -> None:
        # Was "Unable to extract tag using discriminator 'type'".
        body = self.submit(api, {"test_cases": [self.CASE], "metrics": [{"name": "x"}]})
        assert [(e["loc"], e["msg"]) for e in body["errors"]] == [
            ("metrics[0].type", "Field required")
        ]

    def test_a_value_that_should_be_an_object_says_so(self, api: Api) -> None:
        # Was "Input should be a valid dictionary or object to extract fields from".
        part = {"type": "image_url", "image_url": "data:image/png;base64,AAAA"}
        body = self.submit(
            api,
            {
                "test_cases": ["a question", {**self.CASE, "input": [part]}],
                "metrics": ["exact_match"],
                "judge": "gpt-4.1",
            },
        )
        found = {(e["loc"], e["msg"]) for e in body["errors"]}
        assert found == {
            ("test_cases[0]", "must be a JSON object"),
            ("test_cases[1].input[0].image_url", "must be a JSON object"),
            ("metrics[0]", "must be a JSON object"),
            ("judge", "must be a JSON object"),
        }, body["errors"]

    def test_an_unknown_field_is_called_one(self, api: Api) -> None:
        # Was "Extra inputs are not permitted": "inputs", beside a test case's `input`.
        metric = {"type": "turn_relevancy", "window": 3}
        case = {**self.CASE, "image": "cat.png"}
        body = self.submit(api, {"test_cases": [case], "metrics": [metric], "tests": []})
        assert {(e["loc"], e["type"]) for e in body["errors"]} == {
            ("metrics[0].window", "extra_forbidden"),
            ("test_cases[0].image", "extra_forbidden"),
            ("tests", "extra_forbidden"),
        }, body["errors"]
        assert all(e["msg"].startswith("unknown field: ") for e in body["errors"])
