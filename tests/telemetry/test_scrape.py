"""GET /metrics from the API and from a `loupe worker` process after an evaluation whose judge
answers 429, 500 and broken JSON for known test cases; the worker's JSON log lines parsed."""

import json
import re
from pathlib import Path
from typing import Any

import httpx
from prometheus_client.parser import text_string_to_metric_families

from tests.fixtures.api import postgres_settings
from tests.fixtures.judge import Reply, ScriptedJudge
from tests.fixtures.receiver import WebhookReceiver
from tests.fixtures.services import PostgresServer, RedisServer, free_port
from tests.workers.test_worker_process import (
    served_api,
    wait_deliveries,
    wait_for,
    worker_process,
)

CASES = 12
REQUEST_ID = "client-req-7f3a"
# Case i's judge answer, by i % 4: a verdict, 429s, 500s, broken JSON (repair included).
GOOD, LIMITED, FAILING, BROKEN = range(4)
ATTEMPTS = 3  # judge_max_attempts in the test settings


def samples(text: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    """Every sample of an exposition as {(name, labels): value}."""
    values = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            values[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return values


def value(scraped: dict, name: str, **labels: str) -> float:
    return scraped.get((name, frozenset(labels.items())), 0.0)


def total(scraped: dict, name: str, **labels: str) -> float:
    """The sum over every series of `name` whose labels include `labels`."""
    wanted = set(labels.items())
    return sum(v for (n, ls), v in scraped.items() if n == name and wanted <= ls)


def faulty_judge(request: dict) -> Reply:
    prompt = json.dumps(request["messages"])
    index = int(re.search(r"question-(\d+)", prompt).group(1))  # type: ignore[union-attr]
    kind = index % 4
    if kind == LIMITED:
        return Reply(status=429, content="slow down", headers={"Retry-After": "0"})
    if kind == FAILING:
        return Reply(status=500, content="boom")
    if kind == BROKEN:
        return Reply(content="this is not JSON")
    return Reply(content=json.dumps({"reasoning": "same answer", "verdict": "A"}))


def evaluation_body(webhook_url: str) -> dict[str, Any]:
    return {
        "name": "faults",
        "metrics": [{"type": "llm_accuracy"}],
        "webhook_url": webhook_url,
        "test_cases": [
            {
                "id": f"tc-{i}",
                "input": f"question-{i}",
                "actual_output": f"answer {i}",
                "expected_output": f"answer {i}",
            }
            for i in range(CASES)
        ],
    }


class TestScrape:
    def test_api_and_worker_count_what_happened(
        self,
        postgres_server: PostgresServer,
        redis_server: RedisServer,
        judge: ScriptedJudge,
        tmp_path: Path,
    ) -> None:
        judge.script(faulty_judge)
        settings = postgres_settings(postgres_server, redis_server, judge_base_url=judge.base_url)
        metrics_port = free_port()
        with served_api(settings) as api, WebhookReceiver() as receiver:
            client = api.tenant_client()
            endpoint = client.post("/v1/webhook_endpoints", json={"url": receiver.url}).json()
            before = samples(client.get("/metrics").text)
            created = client.post(
                "/v1/evaluations",
                json=evaluation_body(receiver.url),
                headers={"X-Request-Id": REQUEST_ID},
            )
            assert created.status_code == 202, created.text
            assert created.headers["x-request-id"] == REQUEST_ID
            evaluation_id = created.json()["id"]
            with worker_process(
                settings,
                tmp_path / "worker",
                metrics_port=metrics_port,
                log_format="json",
            ) as worker:
                final = wait_for(client, evaluation_id, worker)
                receiver.wait_for(1)
                wait_deliveries(client, endpoint["id"], count=1)
                scrape = httpx.get(f"http://127.0.0.1:{metrics_port}/metrics", trust_env=False)
                assert scrape.status_code == 200, worker.log_tail()
                worker_text = scrape.text
            api_response = client.get("/metrics")
            assert api_response.headers["content-type"].startswith("text/plain")
            api_text = api_response.text
            tenant_id = created.json().get("tenant_id")

        assert final["status"] == "completed", final
        per_kind = CASES // 4
        assert final["result_counts"]["passed"] == per_kind
        assert final["result_counts"]["errored"] == 3 * per_kind

        # The worker is a fresh process: its counts are exactly this evaluation's.
        scraped = samples(worker_text)
        judge_labels = {"role": "judge", "host": "127.0.0.1", "model": "judge-model"}
        requests = "loupe_provider_requests_total"
        assert value(scraped, requests, **judge_labels, outcome="ok") == per_kind
        assert value(scraped, requests, **judge_labels, outcome="rate_limited") == (
            per_kind * ATTEMPTS
        )
        assert value(scraped, requests, **judge_labels, outcome="server_error") == (
            per_kind * ATTEMPTS
        )
        # A broken reply and its repair request.
        assert value(scraped, requests, **judge_labels, outcome="malformed") == per_kind * 2
        sent = per_kind * (1 + 2 * ATTEMPTS + 2)
        assert total(scraped, requests) == sent == len(judge.requests)
        assert (
            value(scraped, "loupe_provider_request_duration_seconds_count", **judge_labels) == sent
        )
        answered = per_kind * 3  # 200s: the good ones, the broken ones and their repairs
        assert value(scraped, "loupe_provider_prompt_tokens_total", **judge_labels) == (
            answered * 10
        )
        assert value(scraped, "loupe_provider_completion_tokens_total", **judge_labels) == (
            answered * 5
        )
        stored = "loupe_results_stored_total"
        assert value(scraped, stored, metric_type="llm_accuracy", outcome="passed") == per_kind
        assert value(scraped, stored, metric_type="llm_accuracy", outcome="errored") == (
            3 * per_kind
        )
        assert total(scraped, stored) == CASES
        finished = "loupe_evaluations_finished_total"
        assert value(scraped, finished, kind="evaluation", status="completed") == 1
        assert total(scraped, finished) == 1
        # Each judged case looked its answer up in the (empty) cache first.
        assert value(scraped, "loupe_judge_cache_lookups_total", result="miss") == CASES
        assert value(scraped, "loupe_judge_cache_lookups_total", result="hit") == 0
        assert value(scraped, "loupe_webhook_deliveries_total", outcome="delivered") == 1
        assert value(scraped, "loupe_queue_jobs", queue=settings.queue_name) == 0
        assert value(scraped, "loupe_queue_oldest_job_age_seconds", queue=settings.queue_name) == 0

        # The API process is shared with other tests: compare with the scrape before.
        after = samples(api_text)

        def grew(name: str, **labels: str) -> float:
            return value(after, name, **labels) - value(before, name, **labels)

        assert grew("loupe_evaluations_submitted_total", kind="evaluation") == 1
        assert (
            grew("loupe_http_requests_total", route="/v1/evaluations", method="POST", status="202")
            == 1
        )
        polls = grew(
            "loupe_http_requests_total",
            route="/v1/evaluations/{evaluation_id}",
            method="GET",
            status="200",
        )
        assert polls >= 1
        assert (
            grew(
                "loupe_http_request_duration_seconds_count",
                route="/v1/evaluations/{evaluation_id}",
                method="GET",
            )
            >= polls
        )
        assert value(after, "loupe_queue_jobs", queue=settings.queue_name) == 0
        # No label carries an id.
        for text in (api_text, worker_text):
            assert evaluation_id not in text
            assert "tc-" not in text

        # The worker's JSON log: one object per line, lifecycle and failures with their ids.
        lines = [
            json.loads(line)
            for line in (tmp_path / "worker" / "worker.log").read_text().splitlines()
            if line.startswith("{")
        ]
        mine = [line for line in lines if line.get("evaluation_id") == evaluation_id]
        events = [line["event"] for line in mine]
        assert events.count("evaluation.started") == 1
        assert events.count("evaluation.finished") == 1
        assert events.count("result.errored") == 3 * per_kind
        for line in mine:
            assert line["request_id"] == REQUEST_ID
            assert line["tenant_id"].startswith("ten")
            assert line["level"] in ("info", "warning")
        errored = sorted(line["error_type"] for line in mine if line["event"] == "result.errored")
        assert errored == sorted(
            ["judge_rate_limited"] * per_kind
            + ["judge_server_error"] * per_kind
            + ["judge_malformed"] * per_kind
        )
        assert "sk-test-secret" not in (tmp_path / "worker" / "worker.log").read_text()
        assert tenant_id is None or all(line["tenant_id"] == tenant_id for line in mine)
