"""Jobs: judge calls in flight within the configured bound, and recovery: the ticker
re-enqueues evaluations whose jobs were lost, and gives up in bounds."""

import dataclasses
import itertools
import json
import threading
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from redis import Redis
from rq import Queue
from sqlalchemy import select, update
from standardwebhooks import Webhook

from app import migrate
from app import runtime as runtime_module
from app.db import utcnow
from app.evaluations import tasks
from app.models import Evaluation, Result
from tests.evaluations.test_endpoints import evaluation_body, judged_body
from tests.fixtures.api import Api, ServedApp, postgres_settings, sqlite_settings
from tests.fixtures.judge import Reply, ScriptedJudge, plausible_answer, task_of
from tests.fixtures.receiver import WebhookReceiver
from tests.fixtures.services import PostgresServer, RedisServer
from workers import jobs

distributed_only = pytest.mark.parametrize("api", ["distributed"], indirect=True)


def age(
    api: Api, evaluation_id: str, silent_for: float | None = None, **values: object
) -> datetime:
    """Make an evaluation look silent for `silent_for` seconds (by default longer than
    LOUPE_STUCK_AFTER_SECONDS); returns the heartbeat it now has."""
    if silent_for is None:
        silent_for = api.settings.stuck_after_seconds + 5
    stale = utcnow() - timedelta(seconds=silent_for)
    with api.served.runtime.session() as session:
        session.execute(
            update(Evaluation)
            .where(Evaluation.id == evaluation_id)
            .values(heartbeat_at=stale, **values)
        )
        session.commit()
    return stale


def release_at(judge: ScriptedJudge, task: str, calls: int, within: float = 60.0) -> None:
    """Release the judge's hold once `calls` requests of `task` were made (or after `within`
    seconds, so that a test which never gets there fails on its assertions, not a hang)."""
    deadline = time.monotonic() + within
    while len(judge.calls_for(task)) < calls and time.monotonic() < deadline:
        time.sleep(0.02)
    judge.release()


def fresh_judge(judge: ScriptedJudge) -> None:
    """Wait out earlier tests' requests, then script plausible answers with no latency."""
    deadline = time.monotonic() + 30
    while judge.in_flight:
        assert time.monotonic() < deadline, "the judge never went idle"
        time.sleep(0.05)
    judge.reset()
    judge.script(plausible_answer)


@distributed_only
class TestSweep:
    def test_lost_jobs_are_re_enqueued_and_complete(self, api: Api) -> None:
        client = api.tenant_client()
        evaluation_id = client.post("/v1/evaluations", json=evaluation_body()).json()["id"]
        # Redis lost the queue (a flush, a failover): nothing will ever run the evaluation.
        Queue(api.settings.queue_name, connection=api.redis).empty()
        age(api, evaluation_id)
        jobs.tick()
        final = api.wait(client, evaluation_id)
        assert final["status"] == "completed"
        assert final["result_counts"]["pending"] == 0

    def test_waiting_jobs_are_not_duplicated(self, api: Api) -> None:
        client = api.tenant_client()
        evaluation_id = client.post("/v1/evaluations", json=evaluation_body()).json()["id"]
        queue = Queue(api.settings.queue_name, connection=api.redis)

        def its_jobs() -> list[str]:
            # The tick does every tenant's upkeep: it may queue work of earlier tests too.
            return [job_id for job_id in queue.job_ids if evaluation_id in job_id]

        waiting = its_jobs()
        assert len(waiting) == 1
        age(api, evaluation_id)
        jobs.tick()
        assert its_jobs() == waiting
        with api.served.runtime.session() as session:
            assert session.get(Evaluation, evaluation_id).dispatch_attempts == 1
        api.wait(client, evaluation_id)

    def test_out_of_attempts_fails_with_an_error_and_a_signed_event(self, api: Api) -> None:
        client = api.tenant_client()
        with WebhookReceiver() as receiver:
            endpoint = client.post("/v1/webhook_endpoints", json={"url": receiver.url}).json()
            body = evaluation_body(webhook_url=receiver.url)
            evaluation_id = client.post("/v1/evaluations", json=body).json()["id"]
            Queue(api.settings.queue_name, connection=api.redis).empty()
            age(api, evaluation_id, dispatch_attempts=api.settings.max_dispatch_attempts)
            jobs.tick()
            final = client.get(f"/v1/evaluations/{evaluation_id}").json()
            assert final["status"] == "failed"
            assert final["error"]["type"] == "dispatch_exhausted"
            assert final["completed_at"] is not None

            (request,) = receiver.wait_for(1, pump=api.run_queue)
        payload = Webhook(endpoint["secret"]).verify(request.body, request.headers)
        assert payload["type"] == "evaluation.failed"
        assert request.headers["webhook-id"].startswith("msg_")
        assert payload["data"]["id"] == evaluation_id
        assert payload["data"]["status"] == "failed"
        assert payload["data"]["error"] == final["error"]
        assert payload["data"]["result_counts"] == final["result_counts"]
        assert payload["data"]["completed_at"] is not None


WORKER_CONCURRENCY = 3


@pytest.fixture(params=["embedded", "distributed"])
def narrow_api(
    request: pytest.FixtureRequest, judge: ScriptedJudge, tmp_path: Path
) -> Iterator[Api]:
    """The API with few metric computations per job and a judge limit well above them."""
    overrides = {
        "judge_base_url": judge.base_url,
        "worker_concurrency": WORKER_CONCURRENCY,
        "judge_concurrency": 4 * WORKER_CONCURRENCY,
    }
    redis = None
    if request.param == "embedded":
        settings = sqlite_settings(tmp_path, **overrides)
    else:
        postgres: PostgresServer = request.getfixturevalue("postgres_server")
        redis_server: RedisServer = request.getfixturevalue("redis_server")
        settings = postgres_settings(postgres, redis_server, **overrides)
        redis = Redis.from_url(redis_server.url)
    migrate.upgrade(settings)
    # Serving makes this app's runtime the process's current one; the session's `api` app
    # runs jobs through it, so put it back afterwards.
    previous = runtime_module._current
    try:
        with ServedApp(settings) as served:
            yield Api(mode=request.param, served=served, redis=redis)
    finally:
        runtime_module._current = previous
        if redis is not None:
            redis.close()


class TestConcurrency:
    def test_a_job_keeps_worker_concurrency_judge_calls_in_flight(
        self, narrow_api: Api, judge: ScriptedJudge
    ) -> None:
        # Earlier tests' abandoned requests must not count towards this one's peak.
        fresh_judge(judge)
        # Slow enough that every worker's call is in flight at once, many times over.
        judge.latency = 0.2
        client = narrow_api.tenant_client()
        # One job (fewer cases than LOUPE_JOB_SLICE_SIZE), one judge call per test case.
        created = client.post("/v1/evaluations", json=judged_body(5 * WORKER_CONCURRENCY))
        assert created.status_code == 202, created.text
        final = narrow_api.wait(client, created.json()["id"])
        assert final["status"] == "completed"
        assert final["result_counts"]["errored"] == 0
        assert len(judge.calls_for("g_eval_score")) == 5 * WORKER_CONCURRENCY
        assert judge.max_in_flight == WORKER_CONCURRENCY


class TestSummaries:
    def test_a_duplicate_jobs_results_count_once(self, api: Api, judge: ScriptedJudge) -> None:
        # A re-enqueued job racing the original on one slice: both score the test case, the
        # unique key stores one result of each metric, and only stored rows reach the
        # summaries' counts and scores (both jobs' calls reach their usage).
        fresh_judge(judge)
        client = api.tenant_client()
        # Once the judge has answered, this process's pacing lets more than one call go out
        # at a time (until then it sends one, to read the provider's limits first).
        warm_body = judged_body(1)
        # Another test case: the judge cache must not answer the test's calls from it.
        warm_body["test_cases"][0]["input"] = "warm-up"
        warm_up = client.post("/v1/evaluations", json=warm_body).json()["id"]
        assert api.wait(client, warm_up)["status"] == "completed"
        judge.reset()
        score_calls = itertools.count()

        def answer(request: dict) -> Reply | dict:
            reply = plausible_answer(request)
            if task_of(request) != "g_eval_score" or next(score_calls) == 0:
                return reply
            # The later call is answered a second after the first (within the judge timeout).
            if isinstance(reply, Reply):
                return dataclasses.replace(reply, delay=1.0)
            return Reply(content=json.dumps(reply), delay=1.0)

        judge.script(answer)
        # Each job's score call is held in flight until both are made: neither job stores
        # its result before the other has called. The job whose call is answered later finds
        # the evaluation completed by the other meanwhile: it takes no more items, but its
        # call in flight is answered and counted (the provider bills it), not abandoned.
        judge.hold("g_eval_score")
        evaluation_id = client.post("/v1/evaluations", json=judged_body(1)).json()["id"]
        failures: list[BaseException] = []

        def run(job: Callable[[], object]) -> None:
            try:
                job()
            except BaseException as error:  # the test fails on it below
                failures.append(error)

        twin = threading.Thread(
            target=run,
            args=(lambda: tasks.score_slice(api.served.runtime, evaluation_id, 0, 1),),
        )
        twin.start()
        releaser = threading.Thread(target=release_at, args=(judge, "g_eval_score", 2))
        releaser.start()
        # The dispatched job: embedded mode runs it by itself; RQ's burst worker needs the
        # main thread (signal handlers).
        api.run_queue()
        twin.join(30)
        releaser.join(60)
        final = api.wait(client, evaluation_id)
        # In embedded mode the dispatched job runs on in the background: when the twin
        # completed the evaluation first, the dispatched job's call is still in flight (its
        # answer comes a second later) and is counted once answered.
        deadline = time.monotonic() + 30
        while final["usage"]["calls"] < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
            final = client.get(f"/v1/evaluations/{evaluation_id}").json()
        with api.served.runtime.session() as session:
            stored = session.scalars(
                select(Result).where(Result.evaluation_id == evaluation_id)
            ).all()
        assert failures == []
        # Both jobs judged the test case (no retries: the hold ends within the timeout).
        assert len(judge.calls_for("g_eval_score")) == 2 and len(stored) == 2
        assert final["result_counts"] == {
            "total": 2,
            "passed": 2,
            "failed": 0,
            "errored": 0,
            "pending": 0,
            "canceled": 0,
            "skipped": 0,
        }
        # The stored result made 1 of the calls; usage counts both the judge answered (the
        # twin's was made and billed too, though its result was a duplicate).
        assert sum(r.judge_calls for r in stored) == 1
        assert final["usage"]["calls"] == 2
        judged = {m["metric"]: m for m in final["per_metric"]}["judged"]
        assert judged["usage"]["calls"] == 2
        (score,) = [r.score for r in stored if r.metric == "judged"]
        assert judged["mean_score"] == pytest.approx(score)
        assert judged["passed"] == 1 and judged["pending"] == 0
