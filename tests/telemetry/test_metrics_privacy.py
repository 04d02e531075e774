"""/metrics keeps tenants' data off it and can be closed to all but the operator's scraper:
a tenant's registered model counts as host and model `tenant` (the operator's judge keeps its
own), and with LOUPE_METRICS_TOKEN set the API's and each worker's /metrics answer 401
problem+json without it."""

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from app.judges._telemetry import TENANT
from app.telemetry.exposition import QueueCollector, serve_worker_metrics
from tests.fixtures.api import Api, side_app
from tests.fixtures.judge import Reply, ScriptedJudge
from tests.fixtures.services import free_port
from tests.telemetry.served import loupe_serve

TOKEN = "scrape-token-5f0c1e9a"
TENANT_MODEL = "acme-secret-finetune-7b"


def provider_requests(exposition: str) -> dict[tuple[str, str, str, str], float]:
    """loupe_provider_requests_total as {(role, host, model, outcome): count}."""
    counts = {}
    for family in text_string_to_metric_families(exposition):
        for sample in family.samples:
            if sample.name == "loupe_provider_requests_total":
                labels = sample.labels
                key = (labels["role"], labels["host"], labels["model"], labels["outcome"])
                counts[key] = sample.value
    return counts


class TestTenantLabels:
    def test_a_tenants_model_host_and_name_stay_off_metrics(
        self, tmp_path: Path, judge: ScriptedJudge
    ) -> None:
        judge.script(lambda request: Reply(content=json.dumps({"reasoning": "r", "verdict": "A"})))
        # The tenant's model is the scripted judge under another name for its host, so the
        # operator's judge (127.0.0.1) and the tenant's (localhost) can be told apart.
        tenant_url = f"http://localhost:{judge.port}/v1"
        with loupe_serve(tmp_path, judge.base_url) as served, served.client() as client:
            registered = client.post(
                "/v1/models",
                json={"base_url": tenant_url, "model": TENANT_MODEL, "api_key": "sk-tenant"},
            )
            assert registered.status_code == 201, registered.text
            created = client.post(
                "/v1/evaluations",
                json={
                    "metrics": [
                        {"type": "llm_accuracy", "name": "operators"},
                        {
                            "type": "llm_accuracy",
                            "name": "tenants",
                            "judge": {"model_id": registered.json()["id"]},
                        },
                    ],
                    "test_cases": [{"input": "q", "actual_output": "a", "expected_output": "a"}],
                },
            )
            assert created.status_code == 202, created.text
            assert served.wait(client, created.json()["id"])["result_counts"]["passed"] == 2
            # No key: /metrics is the operator's, not a tenant's.
            exposition = httpx.get(f"{served.base_url}/metrics", trust_env=False).text
        assert TENANT_MODEL not in exposition
        assert "localhost" not in exposition
        assert registered.json()["id"] not in exposition
        counts = provider_requests(exposition)
        assert counts[("judge", TENANT, TENANT, "ok")] == 1
        assert counts[("judge", "127.0.0.1", "judge-model", "ok")] == 1


@pytest.fixture
def guarded_api(tmp_path: Path) -> Iterator[Api]:
    with side_app(tmp_path, metrics_token=TOKEN) as app:
        yield app


def assert_refused(response: httpx.Response, detail: str) -> None:
    assert response.status_code == 401
    assert response.headers["content-type"] == "application/problem+json"
    assert response.headers["www-authenticate"] == 'Bearer realm="loupe-metrics"'
    problem = response.json()
    assert problem["detail"] == detail
    assert [error["loc"] for error in problem["errors"]] == ["header.Authorization"]
    assert "loupe_" not in response.text


NO_TOKEN = "Send LOUPE_METRICS_TOKEN as `Authorization: Bearer <token>` to read /metrics."
WRONG_TOKEN = "The token in Authorization is not LOUPE_METRICS_TOKEN."


class TestToken:
    def test_the_api_answers_only_the_token(self, guarded_api: Api) -> None:
        with guarded_api.client() as anonymous:
            assert_refused(anonymous.get("/metrics"), NO_TOKEN)
        with guarded_api.client("not-the-token") as wrong:
            assert_refused(wrong.get("/metrics"), WRONG_TOKEN)
        # A tenant's API key is no metrics token.
        with guarded_api.tenant_client() as tenant:
            assert_refused(tenant.get("/metrics"), WRONG_TOKEN)
        with guarded_api.client(TOKEN) as scraper:
            scraped = scraper.get("/metrics")
        assert scraped.status_code == 200
        assert "loupe_http_requests_total" in scraped.text

    def test_without_a_token_metrics_are_open_as_before(self, tmp_path: Path) -> None:
        with side_app(tmp_path) as app, app.client() as anonymous:
            assert anonymous.get("/metrics").status_code == 200


class TestWorkerToken:
    def serve(self, token: str | None) -> str:
        port = free_port()
        queue = QueueCollector("metrics-token-test", lambda: (3, 1.5))
        assert serve_worker_metrics("127.0.0.1", port, queue, token=token)
        return f"http://127.0.0.1:{port}/metrics"

    def test_the_worker_answers_only_the_token(self) -> None:
        url = self.serve(TOKEN)
        assert_refused(httpx.get(url, trust_env=False), NO_TOKEN)
        wrong = httpx.get(url, headers={"Authorization": "Bearer nope"}, trust_env=False)
        assert_refused(wrong, WRONG_TOKEN)
        scraped = httpx.get(url, headers={"Authorization": f"Bearer {TOKEN}"}, trust_env=False)
        assert scraped.status_code == 200
        assert 'loupe_queue_jobs{queue="metrics-token-test"} 3.0' in scraped.text

    def test_without_a_token_the_worker_serves_anyone(self) -> None:
        scraped = httpx.get(self.serve(None), trust_env=False)
        assert scraped.status_code == 200 and "loupe_queue_jobs" in scraped.text
