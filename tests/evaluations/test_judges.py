"""The first hour with judges: none configured, the operator's, and a tenant's own.

With no judge configured a judged metric is refused at submit (422 naming the metric and the
setting) and nothing leaves the machine: the suite's loopback guard (tests/conftest.py) fails
any test that reaches beyond loopback. A tenant's own judge is a model registered with
POST /v1/models, its key stored encrypted, called in place of the server's.
"""

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.evaluations.judging import startup_line
from tests.fixtures.api import Api, side_app, sqlite_settings
from tests.fixtures.judge import ScriptedJudge, plausible_answer
from tests.runs.helpers import upload

RECALL_CASE = {
    "id": "c1",
    "input": "What shape is the logo?",
    "actual_output": "A red circle.",
    "expected_output": "A red circle.",
    "retrieval_context": ["The logo is a red circle."],
}


@pytest.fixture
def no_openai_env(monkeypatch: pytest.MonkeyPatch) -> None:
    # The server's judge falls back to these; a developer's shell may have them set.
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)


@pytest.fixture
def judgeless(tmp_path: Path, no_openai_env: None) -> Iterator[Api]:
    """An app whose operator configured no judge at all."""
    with side_app(tmp_path, judge_api_key=None, judge_base_url=None) as app:
        yield app


def register(client, judge: ScriptedJudge, key: str, model: str = "tenant-judge") -> str:
    response = client.post(
        "/v1/models", json={"base_url": judge.base_url, "model": model, "api_key": key}
    )
    assert response.status_code == 201, response.text
    return response.json()["id"]


def results(client, evaluation_id: str) -> list[dict]:
    page = client.get(f"/v1/evaluations/{evaluation_id}/results", params={"limit": 100})
    return page.json()["data"]


class TestNoJudgeConfigured:
    def test_startup_line_says_so(self, tmp_path: Path, no_openai_env: None) -> None:
        line = startup_line(sqlite_settings(tmp_path, judge_api_key=None))
        assert line.startswith("judge: none configured")
        assert "LOUPE_JUDGE_BASE_URL" in line and "LOUPE_JUDGE_API_KEY" in line

    def test_judged_metric_is_refused_naming_metric_and_setting(
        self, judgeless: Api, judge: ScriptedJudge
    ) -> None:
        with judgeless.tenant_client() as client:
            response = client.post(
                "/v1/evaluations",
                json={
                    "test_cases": [RECALL_CASE],
                    "metrics": [
                        {"type": "exact_match"},
                        {"type": "contextual_recall", "name": "recall"},
                    ],
                },
            )
            listed = client.get("/v1/evaluations").json()["data"]
        assert response.status_code == 422
        assert response.headers["content-type"].startswith("application/problem+json")
        problem = response.json()
        [error] = problem["errors"]
        assert error["loc"] == "metrics[1]" and error["type"] == "judge_not_configured"
        assert "metric 'recall' needs a judge" in error["msg"]
        assert "LOUPE_JUDGE_BASE_URL" in error["msg"] and "LOUPE_JUDGE_API_KEY" in error["msg"]
        assert "LOUPE_JUDGE_BASE_URL" in problem["detail"]
        # Nothing stored, nothing asked.
        assert listed == [] and judge.requests == []

    def test_reference_metrics_still_run(self, judgeless: Api) -> None:
        with judgeless.tenant_client() as client:
            response = client.post(
                "/v1/evaluations",
                json={"test_cases": [RECALL_CASE], "metrics": [{"type": "exact_match"}]},
            )
            assert response.status_code == 202, response.text
            body = judgeless.wait(client, response.json()["id"])
        assert body["status"] == "completed" and body["judge"] is None

    def test_tenant_judge_serves_when_the_server_has_none(
        self, judgeless: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(plausible_answer)
        with judgeless.tenant_client() as client:
            model_id = register(client, judge, "sk-tenant-own")
            response = client.post(
                "/v1/evaluations",
                json={
                    "test_cases": [RECALL_CASE],
                    "metrics": [{"type": "contextual_recall"}],
                    "judge": {"model_id": model_id},
                },
            )
            assert response.status_code == 202, response.text
            body = judgeless.wait(client, response.json()["id"])
            [result] = results(client, body["id"])
        host = judge.base_url.split("//")[1].split("/")[0]
        expected = {"model": "tenant-judge", "model_id": model_id, "host": host}
        assert body["status"] == "completed", body
        assert body["judge"] == expected
        assert body["per_metric"][0]["judge"] == {**expected, "panel": None}
        assert body["per_metric"][0]["usage"]["calls"] == result["usage"]["calls"] > 0
        assert result["error"] is None and result["score"] == 1.0
        assert result["logs"]["model"] == "tenant-judge" and result["logs"]["judge"] == expected
        assert judge.requests and all(r["model"] == "tenant-judge" for r in judge.requests)
        assert {h["authorization"] for h in judge.request_headers} == {"Bearer sk-tenant-own"}


class TestTenantJudges:
    def test_unknown_model_id_is_refused_where_it_is(self, api: Api) -> None:
        with api.tenant_client() as client:
            response = client.post(
                "/v1/evaluations",
                json={
                    "test_cases": [RECALL_CASE],
                    "metrics": [{"type": "contextual_recall", "judge": {"model_id": "model_nope"}}],
                },
            )
        assert response.status_code == 422
        [error] = response.json()["errors"]
        assert error["loc"] == "metrics[0].judge.model_id" and "model_nope" in error["msg"]

    def test_another_tenants_model_is_not_found(self, api: Api, judge: ScriptedJudge) -> None:
        with api.tenant_client() as owner, api.tenant_client() as other:
            model_id = register(owner, judge, "sk-owner")
            response = other.post(
                "/v1/evaluations",
                json={
                    "test_cases": [RECALL_CASE],
                    "metrics": [{"type": "contextual_recall"}],
                    "judge": {"model_id": model_id},
                },
            )
        assert response.status_code == 422
        assert response.json()["errors"][0]["loc"] == "judge.model_id"

    def test_metric_judge_beside_the_server_judge(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(plausible_answer)
        with api.tenant_client() as client:
            model_id = register(client, judge, "sk-metric-own", model="team-judge")
            response = client.post(
                "/v1/evaluations",
                json={
                    "test_cases": [RECALL_CASE],
                    "metrics": [
                        {"type": "contextual_recall", "name": "server"},
                        {
                            "type": "contextual_recall",
                            "name": "team",
                            "judge": {"model_id": model_id},
                        },
                    ],
                    "cache": False,
                },
            )
            assert response.status_code == 202, response.text
            body = api.wait(client, response.json()["id"])
            by_metric = {r["metric"]: r for r in results(client, body["id"])}
        host = judge.base_url.split("//")[1].split("/")[0]
        server = {"model": "judge-model", "model_id": None, "host": host}
        team = {"model": "team-judge", "model_id": model_id, "host": host}
        # The evaluation's default is the server's judge, recorded (it used to be null).
        assert body["judge"] == server
        assert [m["judge"] for m in body["per_metric"]] == [
            {**server, "panel": None},
            {**team, "panel": None},
        ]
        assert by_metric["server"]["logs"]["judge"] == server
        assert by_metric["team"]["logs"]["judge"] == team
        keys = {
            request["model"]: headers["authorization"]
            for request, headers in zip(judge.requests, judge.request_headers, strict=True)
        }
        assert keys == {
            "judge-model": "Bearer sk-test-secret",
            "team-judge": "Bearer sk-metric-own",
        }
        for summary in body["per_metric"]:
            assert summary["usage"]["calls"] == by_metric[summary["metric"]]["usage"]["calls"] > 0

    def test_an_evaluation_judging_nothing_names_no_judge(self, api: Api) -> None:
        # A reference-only evaluation named the server's judge, which it never called.
        with api.tenant_client() as client:
            case = {"input": "q", "actual_output": "a", "expected_output": "a"}
            response = client.post(
                "/v1/evaluations",
                json={"test_cases": [case], "metrics": [{"type": "exact_match"}]},
            )
            assert response.status_code == 202, response.text
            body = api.wait(client, response.json()["id"])
        assert body["status"] == "completed" and body["judge"] is None
        assert body["per_metric"][0]["judge"] is None


class TestRunsNeedAJudgeToo:
    def test_llm_strategy_without_a_judge_is_refused(self, judgeless: Api) -> None:
        row = {"messages": [{"role": "user", "content": "2 + 2?"}], "answer": "4"}
        with judgeless.tenant_client() as client:
            dataset = upload(client, "sums.jsonl", json.dumps(row).encode(), "general_vqa")
            assert dataset.status_code == 201, dataset.text
            response = client.post(
                "/v1/runs",
                json={
                    "dataset_id": dataset.json()["id"],
                    "predictions": [{"subset": "sums", "index": 0, "prediction": "4"}],
                    "judge": {"strategy": "llm"},
                },
            )
            rule_only = client.post(
                "/v1/runs",
                json={
                    "dataset_id": dataset.json()["id"],
                    "predictions": [{"subset": "sums", "index": 0, "prediction": "4"}],
                },
            )
        assert response.status_code == 422
        [error] = response.json()["errors"]
        assert error["loc"] == "judge.strategy" and error["type"] == "judge_not_configured"
        assert "LOUPE_JUDGE_BASE_URL" in error["msg"]
        assert rule_only.status_code == 202, rule_only.text


class TestJudgeCacheKnowsTheEndpoint:
    def test_same_model_name_on_another_endpoint_is_asked_anew(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        # Two registered models of one tenant share a model name but not a server (a vLLM
        # "llama" on two hosts, a fine-tune behind a gateway): one's cached answers are not
        # the other's. The same model asked again is still answered from the cache.
        judge.script(plausible_answer)
        with ScriptedJudge() as other, api.tenant_client() as client:
            other.script(plausible_answer)
            first = register(client, judge, "sk-first", model="llama")
            second = register(client, other, "sk-second", model="llama")

            def evaluate(model_id: str) -> dict:
                response = client.post(
                    "/v1/evaluations",
                    json={
                        "test_cases": [RECALL_CASE],
                        "metrics": [{"type": "contextual_recall"}],
                        "judge": {"model_id": model_id},
                    },
                )
                assert response.status_code == 202, response.text
                return api.wait(client, response.json()["id"])

            assert evaluate(first)["status"] == "completed"
            asked = len(judge.requests)
            assert asked > 0
            assert evaluate(first)["status"] == "completed"
            assert len(judge.requests) == asked  # the same endpoint: the cache answered
            assert evaluate(second)["status"] == "completed"
        assert len(other.requests) == asked
        assert len(judge.requests) == asked
