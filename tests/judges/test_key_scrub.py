"""A provider that echoes the refused Authorization header in its error body ("Incorrect API key
provided: Bearer sk-...") never gets the key into what Loupe stores: results, exports and the
logs of the errored results show `[redacted]` where the key was. For the operator's judge, a
tenant's registered judge and a run's candidate model (the same client path)."""

import json
import logging
from collections.abc import Iterator

import httpx
import pytest

from app.telemetry import logs
from tests.fixtures.api import Api
from tests.fixtures.judge import Reply, ScriptedJudge
from tests.runs.helpers import example_zip, upload, wait_run

CASE = {
    "id": "c1",
    "input": "What shape is the logo?",
    "actual_output": "A red circle.",
    "expected_output": "A red circle.",
}
TENANT_KEY = "sk-tenant-own-key-0123456789"


def echo_the_key(judge: ScriptedJudge, status: int) -> None:
    """Answer every request with an error quoting its Authorization header, with and without
    the scheme, the last time across the 200th character, where long messages are cut."""

    def respond(request: dict) -> Reply:
        header = judge.request_headers[-1]["authorization"]
        key = header.removeprefix("Bearer ")
        message = f"Incorrect API key provided: {header}. You passed {key} ("
        message += "x" * (190 - len(message)) + f" {key})"
        return Reply(status=status, content=message)

    judge.script(respond)


@pytest.fixture
def logged() -> Iterator[list[logging.LogRecord]]:
    """The `loupe` log records written while the test runs."""
    records: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = records.append  # type: ignore[method-assign]
    logger = logging.getLogger("loupe")
    previous = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield records
    finally:
        logger.removeHandler(handler)
        logger.setLevel(previous)


def stored(client: httpx.Client, evaluation_id: str) -> str:
    """Everything a tenant can read about the evaluation's results, as one text."""
    results = client.get(f"/v1/evaluations/{evaluation_id}/results").json()
    exported = client.get(f"/v1/evaluations/{evaluation_id}/results/export")
    exported_csv = client.get(f"/v1/evaluations/{evaluation_id}/results/export?format=csv")
    assert results["data"], results
    return json.dumps(results) + exported.text + exported_csv.text


def written(records: list[logging.LogRecord], formatter: logging.Formatter) -> str:
    return "\n".join(formatter.format(record) for record in records)


class TestEchoedKeys:
    @pytest.mark.parametrize("status", [400, 500, 418])
    def test_the_operators_judge_key(
        self, api: Api, judge: ScriptedJudge, logged: list[logging.LogRecord], status: int
    ) -> None:
        echo_the_key(judge, status)
        key = api.settings.judge_api_key
        assert key
        with api.tenant_client() as client:
            created = client.post(
                "/v1/evaluations",
                json={"test_cases": [CASE], "metrics": [{"type": "llm_accuracy"}]},
            )
            assert created.status_code == 202, created.text
            evaluation_id = created.json()["id"]
            api.wait(client, evaluation_id)
            text = stored(client, evaluation_id)
        assert judge.request_headers[0]["authorization"] == f"Bearer {key}"
        assert key not in text and key[:8] not in text
        [result] = client_results(text)
        assert result["error"]["type"].startswith("judge_")
        assert "Incorrect API key provided: Bearer [redacted]" in result["error"]["message"]
        assert "You passed [redacted]" in result["error"]["message"]
        lines = written(
            [r for r in logged if getattr(r, "evaluation_id", None) == evaluation_id],
            logs.JsonFormatter(),
        )
        assert "result.errored" in lines and key not in lines

    def test_a_tenants_registered_judge_key(
        self, api: Api, judge: ScriptedJudge, logged: list[logging.LogRecord]
    ) -> None:
        echo_the_key(judge, 400)
        with api.tenant_client() as client:
            registered = client.post(
                "/v1/models",
                json={"base_url": judge.base_url, "model": "tenant-judge", "api_key": TENANT_KEY},
            )
            assert registered.status_code == 201, registered.text
            created = client.post(
                "/v1/evaluations",
                json={
                    "test_cases": [CASE],
                    "metrics": [{"type": "llm_accuracy"}],
                    "judge": {"model_id": registered.json()["id"]},
                },
            )
            assert created.status_code == 202, created.text
            evaluation_id = created.json()["id"]
            api.wait(client, evaluation_id)
            text = stored(client, evaluation_id)
        assert judge.request_headers[0]["authorization"] == f"Bearer {TENANT_KEY}"
        assert TENANT_KEY not in text and TENANT_KEY[:8] not in text
        [result] = client_results(text)
        assert result["error"]["type"] == "judge_bad_request"
        assert "You passed [redacted]" in result["error"]["message"]
        for formatter in (logs.JsonFormatter(), logs.TextFormatter()):
            lines = written(logged, formatter)
            assert "result.errored" in lines and TENANT_KEY not in lines

    def test_a_runs_candidate_key(self, api: Api, judge: ScriptedJudge) -> None:
        echo_the_key(judge, 400)
        with api.tenant_client() as client:
            dataset = upload(client, "vqa.zip", example_zip("vqa/example_vqa.jsonl"), "general_vqa")
            assert dataset.status_code == 201, dataset.text
            registered = client.post(
                "/v1/models",
                json={"base_url": judge.base_url, "model": "candidate", "api_key": TENANT_KEY},
            )
            assert registered.status_code == 201, registered.text
            run = client.post(
                "/v1/runs",
                json={"dataset_id": dataset.json()["id"], "model_id": registered.json()["id"]},
            )
            assert run.status_code == 202, run.text
            run_id = run.json()["id"]
            wait_run(api, client, run_id)
            samples = client.get(f"/v1/runs/{run_id}/samples", params={"limit": 100}).text
        assert judge.request_headers[0]["authorization"] == f"Bearer {TENANT_KEY}"
        assert "candidate_bad_request" in samples and "[redacted]" in samples
        assert TENANT_KEY not in samples


def client_results(text: str) -> list[dict]:
    """The results page at the start of `stored()`'s text."""
    page, _ = json.JSONDecoder().raw_decode(text)
    return page["data"]
