"""Fair sharing: one tenant's long evaluation does not hold back another tenant's short one.

One worker (one embedded thread, or one `loupe worker` process) and a slow judge: tenant A's
evaluation occupies the worker; tenant B's, submitted while it runs, must finish first, and A
must still end with every result stored once and every judge call made once.
"""

import json
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.evaluations.test_tasks import fresh_judge
from tests.fixtures.api import Api, postgres_settings, side_app
from tests.fixtures.judge import ScriptedJudge
from tests.fixtures.services import PostgresServer, RedisServer, free_port
from tests.telemetry.test_scrape import samples, value
from tests.workers.test_worker_process import all_results, served_api, stored, worker_process

BIG = 120
SMALL = 3


def judged(prefix: str, cases: int) -> dict[str, Any]:
    """One judge call per case (g_eval with given steps), each input marked `<prefix>-<n>;`."""
    return {
        "test_cases": [
            {"input": f"{prefix}-{i:04d};", "actual_output": f"a{i}"} for i in range(cases)
        ],
        "metrics": [
            {
                "type": "g_eval",
                "name": "judged",
                "evaluation_steps": ["Check that the output answers the input."],
                "evaluation_params": ["input", "actual_output"],
            }
        ],
    }


@contextmanager
def one_worker(
    mode: str,
    judge: ScriptedJudge,
    tmp_path: Path,
    request: pytest.FixtureRequest,
    **overrides: Any,
) -> Iterator[tuple[Api, str]]:
    """The API with a single worker (one embedded thread, or one `loupe worker` process), and
    the metrics URL of the process that runs the jobs."""
    settings: dict[str, Any] = {
        "judge_base_url": judge.base_url,
        # Slow enough that the big evaluation keeps the worker busy for seconds.
        "judge_concurrency": 2,
        "judge_max_concurrency": 2,
        "worker_concurrency": 2,
        "job_turn_seconds": 0.3,
        **overrides,
    }
    with ExitStack() as stack:
        if mode == "embedded":
            api = stack.enter_context(side_app(tmp_path, embedded_worker_threads=1, **settings))
            yield api, f"{api.base_url}/metrics"
            return
        postgres: PostgresServer = request.getfixturevalue("postgres_server")
        redis: RedisServer = request.getfixturevalue("redis_server")
        config = postgres_settings(postgres, redis, **settings)
        api = stack.enter_context(served_api(config))
        port = free_port()
        stack.enter_context(worker_process(config, tmp_path / "worker", metrics_port=port))
        yield api, f"http://127.0.0.1:{port}/metrics"


def hand_overs(metrics_url: str) -> float:
    """`loupe_jobs_gave_way_total` as the process scoring the jobs counts it."""
    deadline = time.monotonic() + 30
    while True:
        try:
            scraped = httpx.get(metrics_url, trust_env=False).text
            return value(samples(scraped), "loupe_jobs_gave_way_total")
        except httpx.ConnectError:
            # A worker process serves its metrics once it has started.
            assert time.monotonic() < deadline, f"nothing answers at {metrics_url}"
            time.sleep(0.1)


def submit(client: httpx.Client, body: dict[str, Any]) -> str:
    response = client.post("/v1/evaluations", json=body)
    assert response.status_code == 202, response.text
    return response.json()["id"]


def poll(client: httpx.Client, evaluation_id: str, timeout: float = 90) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        body = client.get(f"/v1/evaluations/{evaluation_id}").json()
        if body["status"] in ("completed", "failed", "canceled"):
            return body
        assert time.monotonic() < deadline, f"still {body['status']}: {body['result_counts']}"
        time.sleep(0.05)


def calls_per_case(judge: ScriptedJudge, prefix: str) -> Counter[str]:
    """How many judge requests named each of the prefix's cases (one case per request)."""
    counts: Counter[str] = Counter()
    for request in list(judge.requests):
        text = json.dumps(request)
        start = text.find(f"{prefix}-")
        if start >= 0:
            counts[text[start : text.index(";", start)]] += 1
    return counts


def scored(body: dict[str, Any]) -> int:
    return body["result_counts"]["passed"] + body["result_counts"]["failed"]


def big_then_small(api: Api, judge: ScriptedJudge) -> tuple[dict[str, Any], dict[str, Any]]:
    """Submit A's big evaluation, then B's small one once A is scoring; both final bodies."""
    fresh_judge(judge)
    judge.latency = 0.05
    big_client, small_client = api.tenant_client(), api.tenant_client()
    big_id = submit(big_client, judged("big", BIG))
    deadline = time.monotonic() + 60
    while stored(big_client.get(f"/v1/evaluations/{big_id}").json()) < 4:
        assert time.monotonic() < deadline, "the big evaluation never started"
        time.sleep(0.05)
    small = poll(small_client, submit(small_client, judged("small", SMALL)))
    big_then = big_client.get(f"/v1/evaluations/{big_id}").json()
    big = poll(big_client, big_id)
    big["pending_when_small_finished"] = big_then["result_counts"]["pending"]
    big["results"] = all_results(big_client, big_id)
    return big, small


@pytest.mark.parametrize("mode", ["embedded", "distributed"])
class TestFairSharing:
    def test_a_small_evaluation_finishes_while_a_big_one_runs(
        self, mode: str, judge: ScriptedJudge, tmp_path: Path, request: pytest.FixtureRequest
    ) -> None:
        with one_worker(mode, judge, tmp_path, request) as (api, metrics_url):
            before = hand_overs(metrics_url)
            big, small = big_then_small(api, judge)
            gave_way = hand_overs(metrics_url) - before
        assert small["status"] == "completed"
        assert scored(small) == SMALL
        assert big["pending_when_small_finished"] > 0
        assert small["completed_at"] < big["completed_at"]
        # The big evaluation's job handed its worker over (more hand-overs, both ways, happen
        # when the small job outlasts its own 0.3 s turn on a slow machine).
        assert gave_way >= 1
        # Giving the worker up loses nothing and repeats nothing.
        assert big["status"] == "completed"
        assert scored(big) == BIG
        assert len({row["test_case_index"] for row in big["results"]}) == BIG
        calls = calls_per_case(judge, "big")
        assert len(calls) == BIG and set(calls.values()) == {1}


class TestWithoutFairSharing:
    def test_first_come_first_served_makes_the_small_one_wait(
        self, judge: ScriptedJudge, tmp_path: Path, request: pytest.FixtureRequest
    ) -> None:
        """LOUPE_FAIR_SHARING=false, same scenario: the test above tells the two apart."""
        with one_worker("embedded", judge, tmp_path, request, fair_sharing=False) as (api, _):
            big, small = big_then_small(api, judge)
        assert big["pending_when_small_finished"] == 0
        assert small["completed_at"] > big["completed_at"]
