"""The webhook endpoints API end to end, in embedded and distributed mode."""

import uuid

import httpx
import pytest

from tests.evaluations.test_endpoints import evaluation_body
from tests.fixtures.api import Api

PROBLEM_JSON = "application/problem+json"


def hook_url() -> str:
    # Loopback and never contacted by these tests: registration does not call the URL.
    return f"http://127.0.0.1:9/hooks/{uuid.uuid4().hex}"


def register(client: httpx.Client, url: str, **fields: object) -> httpx.Response:
    return client.post("/v1/webhook_endpoints", json={"url": url, **fields})


def assert_problem(response: httpx.Response, status: int) -> dict:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM_JSON)
    problem = response.json()
    assert problem["status"] == status
    return problem


class TestCreate:
    def test_answers_201_with_the_secret(self, api: Api) -> None:
        client = api.tenant_client()
        url = hook_url()
        response = register(client, url, description="ci results")
        assert response.status_code == 201, response.text
        endpoint = response.json()
        assert endpoint["object"] == "webhook_endpoint"
        assert endpoint["id"].startswith("we_")
        assert endpoint["secret"].startswith("whsec_")
        assert endpoint["url"] == url
        assert endpoint["description"] == "ci results"
        assert endpoint["enabled"] is True

    def test_listing_never_shows_secrets(self, api: Api) -> None:
        client = api.tenant_client()
        first = register(client, hook_url()).json()
        second = register(client, hook_url()).json()
        response = client.get("/v1/webhook_endpoints")
        assert response.status_code == 200, response.text
        listing = response.json()
        assert listing["object"] == "list"
        assert [e["id"] for e in listing["data"]] == [second["id"], first["id"]]
        assert all("secret" not in e for e in listing["data"])
        assert first["secret"] not in response.text
        assert second["secret"] not in response.text

    def test_duplicate_url_conflicts(self, api: Api) -> None:
        client = api.tenant_client()
        url = hook_url()
        assert register(client, url).status_code == 201
        problem = assert_problem(register(client, url), 409)
        assert problem["type"].endswith("/webhook-endpoint-exists")
        assert len(client.get("/v1/webhook_endpoints").json()["data"]) == 1

    def test_same_url_is_separate_for_each_tenant(self, api: Api) -> None:
        url = hook_url()
        first = register(api.tenant_client(), url)
        second = register(api.tenant_client(), url)
        assert first.status_code == second.status_code == 201
        assert first.json()["id"] != second.json()["id"]
        assert first.json()["secret"] != second.json()["secret"]

    @pytest.mark.parametrize(
        "url", ["ftp://127.0.0.1/hooks", "file:///etc/passwd", "127.0.0.1:9/hooks", "hooks"]
    )
    def test_non_http_url_is_refused(self, api: Api, url: str) -> None:
        client = api.tenant_client()
        problem = assert_problem(register(client, url), 422)
        assert [e["loc"] for e in problem["errors"]] == ["url"]
        assert client.get("/v1/webhook_endpoints").json()["data"] == []

    def test_credentials_in_url_are_refused(self, api: Api) -> None:
        problem = assert_problem(
            register(api.tenant_client(), "http://user:pass@127.0.0.1:9/hooks"), 422
        )
        assert [e["loc"] for e in problem["errors"]] == ["url"]

    def test_requires_an_api_key(self, api: Api) -> None:
        anonymous = api.client()
        for response in (
            register(anonymous, hook_url()),
            anonymous.get("/v1/webhook_endpoints"),
            anonymous.get("/v1/webhook_endpoints/we_missing/deliveries"),
        ):
            assert_problem(response, 401)
            assert response.headers["www-authenticate"].startswith("Bearer")
        assert_problem(api.client("lp_not_a_key").get("/v1/webhook_endpoints"), 401)


class TestRead:
    def test_an_endpoint_is_read_by_its_id_as_listed_and_by_no_other_tenant(self, api: Api) -> None:
        """Every other object a tenant makes reads back by its id; endpoints were only listed."""
        client = api.tenant_client()
        endpoint = register(client, hook_url()).json()
        response = client.get(f"/v1/webhook_endpoints/{endpoint['id']}")
        assert response.status_code == 200, response.text
        [listed] = client.get("/v1/webhook_endpoints").json()["data"]
        assert response.json() == listed and "secret" not in listed
        stranger = api.tenant_client()
        problem = assert_problem(stranger.get(f"/v1/webhook_endpoints/{endpoint['id']}"), 404)
        assert problem["type"].endswith("/not-found")
        assert_problem(client.get("/v1/webhook_endpoints/we_missing"), 404)
        assert client.delete(f"/v1/webhook_endpoints/{endpoint['id']}").status_code == 204
        assert_problem(client.get(f"/v1/webhook_endpoints/{endpoint['id']}"), 404)


class TestDeliveries:
    def test_new_endpoint_has_no_deliveries(self, api: Api) -> None:
        client = api.tenant_client()
        endpoint = register(client, hook_url()).json()
        response = client.get(f"/v1/webhook_endpoints/{endpoint['id']}/deliveries")
        assert response.status_code == 200, response.text
        assert response.json() == {
            "object": "list",
            "data": [],
            "first_id": None,
            "last_id": None,
            "has_more": False,
        }

    def test_another_tenants_endpoint_is_not_found(self, api: Api) -> None:
        owner = api.tenant_client()
        endpoint = register(owner, hook_url()).json()
        stranger = api.tenant_client()
        problem = assert_problem(
            stranger.get(f"/v1/webhook_endpoints/{endpoint['id']}/deliveries"), 404
        )
        assert problem["type"].endswith("/not-found")
        assert stranger.get("/v1/webhook_endpoints").json()["data"] == []

    def test_unknown_endpoint_is_not_found(self, api: Api) -> None:
        client = api.tenant_client()
        assert_problem(client.get("/v1/webhook_endpoints/we_missing/deliveries"), 404)


class TestEvaluationWebhookUrl:
    def test_unregistered_url_is_refused(self, api: Api) -> None:
        client = api.tenant_client()
        response = client.post("/v1/evaluations", json=evaluation_body(webhook_url=hook_url()))
        problem = assert_problem(response, 422)
        assert [e["loc"] for e in problem["errors"]] == ["webhook_url"]
        assert problem["errors"][0]["type"] == "unregistered_webhook"
        assert "webhook_url" in problem["detail"]
        assert client.get("/v1/evaluations").json()["data"] == []

    def test_another_tenants_url_is_refused(self, api: Api) -> None:
        url = hook_url()
        assert register(api.tenant_client(), url).status_code == 201
        client = api.tenant_client()
        response = client.post("/v1/evaluations", json=evaluation_body(webhook_url=url))
        problem = assert_problem(response, 422)
        assert [e["loc"] for e in problem["errors"]] == ["webhook_url"]
