"""A slice scored by two jobs at once (enqueued again while its job still ran: a stalled worker's
lapsed lease, a sweep after an outage) makes its calls twice; the provider bills both, so the
evaluation's usage and the tenant's count both. Before, the job that stored its results second
had them dropped as duplicates with their usage: 4 calls made, 2 counted."""

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from redis import Redis

from app.evaluations import tasks
from tests.evaluations.test_estimate import full_answer, text_cases
from tests.fixtures.api import Api, postgres_settings, served_api, sqlite_settings
from tests.fixtures.jobs import wait_for
from tests.fixtures.judge import ScriptedJudge


@pytest.fixture(params=["embedded", "distributed"])
def api(request: pytest.FixtureRequest, tmp_path: Path, judge: ScriptedJudge) -> Iterator[Api]:
    """The API whose judge calls wait a minute: held calls are answered, not tried again."""
    values = {"judge_base_url": judge.base_url, "judge_timeout_seconds": 60}
    if request.param == "embedded":
        with served_api(sqlite_settings(tmp_path, **values)) as app:
            yield app
        return
    redis_server = request.getfixturevalue("redis_server")
    postgres = request.getfixturevalue("postgres_server")
    redis = Redis.from_url(redis_server.url)
    try:
        with served_api(postgres_settings(postgres, redis_server, **values), redis) as app:
            yield app
    finally:
        redis.close()


def test_both_jobs_calls_count_once_each(api: Api, judge: ScriptedJudge) -> None:
    judge.script(full_answer)
    client = api.tenant_client()
    # One call per case, no shared answer: each job asks both cases itself.
    metrics = [{"type": "llm_accuracy"}]
    # Answered once, the endpoint has calls in flight at once (one at a time before).
    warm = client.post("/v1/evaluations", json={"test_cases": text_cases()[2:], "metrics": metrics})
    assert api.wait(client, warm.json()["id"])["status"] == "completed"
    judge.requests.clear()
    body = {"test_cases": text_cases()[:2], "metrics": metrics}
    judge.hold()
    try:
        submitted = client.post("/v1/evaluations", json=body)
        assert submitted.status_code == 202, submitted.text
        evaluation_id = submitted.json()["id"]
        # The embedded worker runs the submitted job by itself; RQ's waits for `api.wait`, so
        # the test runs that job's work alongside its copy.
        copies = 1 if api.redis is None else 2
        jobs = [
            threading.Thread(
                target=tasks.score_slice, args=(api.served.runtime, evaluation_id, 0, 2)
            )
            for _ in range(copies)
        ]
        for job in jobs:
            job.start()
        # Both jobs have asked both cases (held): neither found the other's answer cached.
        wait_for(lambda: len(judge.requests) == 4, "both jobs to ask the judge")
    finally:
        judge.release()
    for job in jobs:
        job.join()
    final = api.wait(client, evaluation_id)
    assert final["status"] == "completed", final
    # The embedded worker's job may store second, after the evaluation completed: its calls
    # are counted once answered, a moment after the status reads completed.
    deadline = time.monotonic() + 30
    while final["usage"]["calls"] < 4 and time.monotonic() < deadline:
        time.sleep(0.05)
        final = client.get(f"/v1/evaluations/{evaluation_id}").json()
    assert len(judge.requests) == 4
    counts = final["result_counts"]
    # Each result stored once, counted once.
    assert (counts["total"], counts["passed"] + counts["failed"], counts["errored"]) == (2, 2, 0)
    assert final["usage"]["calls"] == 4, final["usage"]
    assert final["per_metric"][0]["usage"]["calls"] == 4, final["per_metric"]
    # The tenant's usage: the warm-up's call and these four.
    assert client.get("/v1/usage").json()["judge"]["calls"] == 1 + 4
