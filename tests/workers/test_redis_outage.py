"""A Redis blink in distributed mode costs time, never results or processes.

Two `loupe worker`s score an evaluation of judged metrics against a slow judge that states a
request rate (so every judge call asks the shared pace schedule in Redis); mid-run one worker
is SIGKILLed and Redis, which keeps nothing on disk, is stopped and started again on the same
port; a replacement worker starts. Every result is stored once without an error, the surviving
workers live on, and the worker's /metrics shows the outage.
"""

import json
import os
import re
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from prometheus_client import REGISTRY
from redis import Redis
from rq import Queue, Worker

from app.dispatch import RQDispatcher
from app.evaluations import service
from app.fair_queue import queued_id, work_of
from app.models import Evaluation
from tests.evaluations.test_tasks import fresh_judge
from tests.fixtures.api import postgres_settings
from tests.fixtures.judge import Reply, ScriptedJudge
from tests.fixtures.receiver import WebhookReceiver
from tests.fixtures.services import (
    PostgresServer,
    RestartableRedis,
    free_port,
    restartable_redis,
)
from tests.telemetry.test_scrape import samples, total
from tests.workers.test_worker_process import (
    all_results,
    served_api,
    stored,
    wait_for,
    worker_process,
)
from workers import jobs
from workers.main import RestartWatch

CASES = 200
METRICS = 4
# Seconds Redis stays down.
OUTAGE = 2.0


@pytest.fixture
def redis() -> Iterator[RestartableRedis]:
    with restartable_redis() as server:
        yield server


def judged_body() -> dict:
    # One judge model per metric: four different requests per case, none a cache hit.
    return {
        "metrics": [
            {"type": "llm_accuracy", "name": f"accuracy_{m}", "model": f"judge-{m}"}
            for m in range(METRICS)
        ],
        "test_cases": [
            {"input": f"q{i};", "actual_output": f"a{i}", "expected_output": f"a{i}"}
            for i in range(CASES)
        ],
    }


def verdict(request: dict) -> Reply:
    assert re.search(r"q\d+;", json.dumps(request))
    return Reply(
        content=json.dumps({"reasoning": "same answer", "verdict": "A"}),
        # A stated rate: every request then takes its turn in the shared schedule in Redis.
        headers={"x-ratelimit-limit-requests": "600000"},
    )


def outage_count(metrics_port: int) -> float:
    scraped = httpx.get(f"http://127.0.0.1:{metrics_port}/metrics", trust_env=False).text
    return total(samples(scraped), "loupe_redis_unavailable_total")


class TestRedisRestart:
    def test_every_result_scored_once_and_every_worker_alive(
        self,
        postgres_server: PostgresServer,
        redis: RestartableRedis,
        judge: ScriptedJudge,
        tmp_path: Path,
    ) -> None:
        fresh_judge(judge)
        judge.script(verdict)
        judge.latency = 0.25
        settings = postgres_settings(
            postgres_server,
            redis,
            judge_base_url=judge.base_url,
            judge_concurrency=6,
            judge_max_concurrency=6,  # no growth: the run must last
            # Four slices: two run, two wait in Redis's queue (and are lost with it).
            job_slice_size=CASES // 4,
            heartbeat_seconds=0.5,
            stuck_after_seconds=3,
            tick_seconds=0.5,
        )
        ports = [free_port() for _ in range(3)]
        with served_api(settings) as api:
            client = api.tenant_client()
            created = client.post("/v1/evaluations", json=judged_body())
            assert created.status_code == 202, created.text
            evaluation_id = created.json()["id"]
            with (
                worker_process(settings, tmp_path / "first", metrics_port=ports[0]) as first,
                worker_process(settings, tmp_path / "second", metrics_port=ports[1]) as second,
            ):
                deadline = time.monotonic() + 60
                while stored(client.get(f"/v1/evaluations/{evaluation_id}").json()) < 100:
                    assert first.alive() and second.alive(), first.log_tail() + second.log_tail()
                    assert time.monotonic() < deadline, second.log_tail()
                    time.sleep(0.1)
                os.kill(first.process.pid, signal.SIGKILL)
                first.process.wait(timeout=10)
                redis.stop()
                time.sleep(OUTAGE)
                redis.start()
                with worker_process(settings, tmp_path / "third", metrics_port=ports[2]) as third:
                    deadline = time.monotonic() + 120
                    while True:
                        body = client.get(f"/v1/evaluations/{evaluation_id}").json()
                        if body["status"] != "in_progress":
                            break
                        assert second.alive(), second.log_tail()
                        assert third.alive(), third.log_tail()
                        assert time.monotonic() < deadline, (body, second.log_tail())
                        time.sleep(0.2)
                    assert second.alive(), second.log_tail()
                    assert third.alive(), third.log_tail()
                    unavailable = outage_count(ports[1])
            rows = all_results(client, evaluation_id)

        assert body["status"] == "completed", body
        errors = [row["error"] for row in rows if row["error"]]
        assert errors == [], errors[:3]
        assert body["result_counts"]["errored"] == 0
        assert len(rows) == CASES * METRICS
        assert len({(row["test_case_id"], row["metric"]) for row in rows}) == CASES * METRICS
        # The surviving worker saw Redis away and says so on its /metrics.
        assert unavailable > 0


def one_case_body(tag: str) -> dict:
    return {
        "metrics": [{"type": "llm_accuracy"}],
        "test_cases": [{"input": f"{tag};", "actual_output": "a", "expected_output": "a"}],
    }


class TestWorkerLoop:
    def test_a_job_ending_while_redis_is_down_leaves_the_worker_listening(
        self,
        postgres_server: PostgresServer,
        redis: RestartableRedis,
        judge: ScriptedJudge,
        tmp_path: Path,
    ) -> None:
        """RQ's work loop quits when its bookkeeping after a job finds Redis away; the
        worker waits for Redis, registers again and takes the next job."""
        fresh_judge(judge)
        judge.script(lambda request: {"reasoning": "same answer", "verdict": "A"})
        settings = postgres_settings(postgres_server, redis, judge_base_url=judge.base_url)
        port = free_port()
        with served_api(settings) as api:
            client = api.tenant_client()
            with worker_process(settings, tmp_path / "worker", metrics_port=port) as worker:
                judge.hold()
                first = client.post("/v1/evaluations", json=one_case_body("first")).json()["id"]
                deadline = time.monotonic() + 120
                while judge.in_flight < 1:
                    assert worker.alive(), worker.log_tail()
                    assert time.monotonic() < deadline, worker.log_tail()
                    time.sleep(0.05)
                # The job's one judge call is in flight: it ends (and RQ records its end)
                # while Redis is down.
                redis.stop()
                judge.release()
                deadline = time.monotonic() + 120
                while "waiting for it to answer" not in worker.log_path.read_text():
                    assert worker.alive(), worker.log_tail()
                    assert time.monotonic() < deadline, worker.log_tail()
                    time.sleep(0.05)
                assert client.get(f"/v1/evaluations/{first}").json()["status"] == "completed"
                time.sleep(OUTAGE)
                assert worker.alive(), worker.log_tail()
                redis.start()
                second = client.post("/v1/evaluations", json=one_case_body("second"))
                assert second.status_code == 202, second.text
                final = wait_for(client, second.json()["id"], worker)
                assert worker.alive(), worker.log_tail()
                connection = Redis.from_url(redis.url)
                try:
                    registered = Worker.all(queue=Queue(settings.queue_name, connection=connection))
                finally:
                    connection.close()
                scraped = httpx.get(f"http://127.0.0.1:{port}/metrics", trust_env=False).text

        assert final["status"] == "completed", final
        assert final["result_counts"]["errored"] == 0
        # Registered again with the Redis that forgot it: health checks and RQ's tools see it.
        assert [w.pid for w in registered] == [worker.process.pid]
        assert total(samples(scraped), "loupe_redis_unavailable_total", operation="worker") > 0


class TestWorkerStart:
    def test_a_worker_started_while_redis_is_away_waits_for_it(
        self,
        postgres_server: PostgresServer,
        redis: RestartableRedis,
        judge: ScriptedJudge,
        tmp_path: Path,
    ) -> None:
        """A worker started during a Redis restart (a replacement, or one its supervisor
        restarted) exited at once (`loupe: cannot connect to Redis`: RQ names its connection
        as the worker is built); it waits for Redis as a running worker does, then listens."""
        fresh_judge(judge)
        judge.script(lambda request: {"reasoning": "same answer", "verdict": "A"})
        settings = postgres_settings(postgres_server, redis, judge_base_url=judge.base_url)
        port = free_port()
        with served_api(settings) as api:
            client = api.tenant_client()
            redis.stop()
            with worker_process(settings, tmp_path / "worker", metrics_port=port) as worker:
                deadline = time.monotonic() + 120
                while "Redis away during worker" not in worker.log_path.read_text():
                    assert worker.alive(), worker.log_tail()
                    assert time.monotonic() < deadline, worker.log_tail()
                    time.sleep(0.05)
                redis.start()
                created = client.post("/v1/evaluations", json=one_case_body("started"))
                assert created.status_code == 202, created.text
                final = wait_for(client, created.json()["id"], worker)
                assert worker.alive(), worker.log_tail()
                scraped = httpx.get(f"http://127.0.0.1:{port}/metrics", trust_env=False).text

        assert final["status"] == "completed", final
        assert final["result_counts"]["errored"] == 0
        assert total(samples(scraped), "loupe_redis_unavailable_total", operation="worker") > 0


class TestRestartWatch:
    def test_one_worker_enqueues_again_the_jobs_a_restart_lost(
        self,
        postgres_server: PostgresServer,
        redis: RestartableRedis,
        judge: ScriptedJudge,
    ) -> None:
        """Redis comes back empty: the slices that neither wait nor run (no lease written
        since) are queued again, by one of the workers that saw the restart."""
        settings = postgres_settings(
            postgres_server,
            redis,
            judge_base_url=judge.base_url,
            job_slice_size=10,
            # The watch waits two beats and a tick for running jobs to write their leases again:
            # beats of a second keep a loaded machine (a starved renewal thread) from looking
            # like a lost job.
            heartbeat_seconds=1.0,
            stuck_after_seconds=5,
            tick_seconds=0.2,
        )
        body = {
            "metrics": [{"type": "exact_match"}],
            "test_cases": [
                {"input": f"q{i}", "actual_output": "a", "expected_output": "a"} for i in range(30)
            ],
        }
        with served_api(settings) as api:
            client = api.tenant_client()
            evaluation_id = client.post("/v1/evaluations", json=body).json()["id"]
            runtime = api.served.runtime
            dispatcher = runtime.dispatcher
            assert isinstance(dispatcher, RQDispatcher)
            with runtime.session() as session:
                tenant_id = session.get(Evaluation, evaluation_id).tenant_id
            queue = Queue(settings.queue_name, connection=dispatcher.redis)
            # Two workers watching; the middle slice runs on one of them.
            watches = [RestartWatch(runtime, dispatcher), RestartWatch(runtime, dispatcher)]
            running = service.slice_job_id(evaluation_id, 10)
            with dispatcher.running(running, tenant_id):
                for watch in watches:
                    watch.look()
                assert len(queue.get_job_ids()) == 3
                redis.stop()
                redis.start()
                assert queue.get_job_ids() == []
                for watch in watches:
                    watch.look()
                assert [watch.due is not None for watch in watches] == [True, False]
                deadline = time.monotonic() + 60
                while watches[0].due is not None:
                    assert time.monotonic() < deadline
                    time.sleep(0.1)
                    watches[0].look()
                waiting = {work_of(job_id) for job_id in queue.get_job_ids()}

        assert waiting == {
            queued_id(tenant_id, service.slice_job_id(evaluation_id, start)) for start in (0, 20)
        }


class TestSubmitWhileAway:
    def test_work_submitted_while_redis_is_away_is_accepted_and_scored_later(
        self, postgres_server: PostgresServer, redis: RestartableRedis, tmp_path: Path
    ) -> None:
        """The request commits the evaluation and answers 202 although it could not queue
        it; once Redis is back, the sweep queues it and a worker scores it."""
        settings = postgres_settings(
            postgres_server, redis, heartbeat_seconds=0.2, stuck_after_seconds=2, tick_seconds=0.2
        )
        body = {
            "metrics": [{"type": "exact_match"}],
            "test_cases": [
                {"input": f"q{i}", "actual_output": "a", "expected_output": "a"} for i in range(5)
            ],
        }
        with served_api(settings) as api:
            client = api.tenant_client()
            redis.stop()
            created = client.post("/v1/evaluations", json=body)
            assert created.status_code == 202, created.text
            evaluation_id = created.json()["id"]
            assert client.get(f"/v1/evaluations/{evaluation_id}").json()["status"] == "queued"
            redis.start()
            with worker_process(settings, tmp_path / "worker") as worker:
                final = wait_for(client, evaluation_id, worker)

        assert final["status"] == "completed", final
        assert final["result_counts"]["passed"] == 5


class TestRedisFull:
    def test_a_worker_started_while_redis_refuses_writes_waits_for_room(
        self,
        postgres_server: PostgresServer,
        redis: RestartableRedis,
        judge: ScriptedJudge,
        tmp_path: Path,
    ) -> None:
        """Redis at its `maxmemory` (RQ needs `noeviction`, so writes are refused): a worker
        starting then exited on its registration's OutOfMemoryError, a traceback for its
        supervisor to restart it into the same error. It waits for Redis to take writes, as
        for a Redis that is away, then listens."""
        fresh_judge(judge)
        judge.script(lambda request: {"reasoning": "same answer", "verdict": "A"})
        settings = postgres_settings(postgres_server, redis, judge_base_url=judge.base_url)
        connection = Redis.from_url(redis.url)
        port = free_port()
        try:
            with served_api(settings) as api:
                client = api.tenant_client()
                connection.config_set("maxmemory", 1)
                try:
                    with worker_process(settings, tmp_path / "worker", metrics_port=port) as worker:
                        deadline = time.monotonic() + 120
                        while "Redis away during worker" not in worker.log_path.read_text():
                            assert worker.alive(), worker.log_tail()
                            assert time.monotonic() < deadline, worker.log_tail()
                            time.sleep(0.05)
                        connection.config_set("maxmemory", 0)
                        created = client.post("/v1/evaluations", json=one_case_body("full"))
                        assert created.status_code == 202, created.text
                        final = wait_for(client, created.json()["id"], worker)
                        assert worker.alive(), worker.log_tail()
                finally:
                    connection.config_set("maxmemory", 0)
        finally:
            connection.close()

        assert final["status"] == "completed", final
        assert final["result_counts"]["errored"] == 0


class TestEnqueueLock:
    def test_a_lock_left_by_a_timed_out_try_does_not_hold_the_request(
        self, postgres_server: PostgresServer, redis: RestartableRedis
    ) -> None:
        """Redis frozen (a stopped process, a stalled host) past the socket timeout: the
        enqueue's lock command timed out in the client, but Redis ran it once it thawed, so
        the lock stood for its 30 s while the next try waited on it without bound, and the
        request with it (a submit promises at most 5 s). The request answers while that lock
        still stands, and the next tick queues the batch once it is gone."""
        settings = postgres_settings(postgres_server, redis)
        connection = Redis.from_url(redis.url)
        try:
            with served_api(settings) as api:
                client = api.tenant_client()
                body = {"metrics": [{"type": "exact_match"}], "test_cases": [], "open": True}
                created = client.post("/v1/evaluations", json=body)
                assert created.status_code == 202, created.text
                evaluation_id = created.json()["id"]
                with api.served.runtime.session() as session:
                    evaluation = session.get(Evaluation, evaluation_id)
                    assert evaluation is not None
                    work = work_of(queued_id(evaluation.tenant_id, f"score_{evaluation_id}_0"))
                # What the timed-out try left: a lock of the first batch's slice.
                ghost = f"loupe:enqueue:{settings.queue_name}:{work}"
                connection.set(ghost, "a try that timed out", ex=20)
                batch = {
                    "test_cases": [{"input": "q", "actual_output": "a", "expected_output": "a"}]
                }
                appended = client.post(f"/v1/evaluations/{evaluation_id}/test_cases", json=batch)
                still_locked = bool(connection.exists(ghost))
                connection.delete(ghost)
                jobs.tick(api.served.runtime)
                api.redis = connection
                api.run_queue()
                closed = client.post(f"/v1/evaluations/{evaluation_id}/close")
                final = client.get(f"/v1/evaluations/{evaluation_id}").json()
        finally:
            connection.close()

        assert appended.status_code in (200, 202), appended.text
        assert still_locked
        assert closed.status_code == 200, closed.text
        assert final["status"] == "completed", final
        assert final["result_counts"]["passed"] == 1


class TestCancelWhileAway:
    def test_a_cancel_tries_the_webhook_queue_once_and_the_ticker_delivers_the_event(
        self, postgres_server: PostgresServer, redis: RestartableRedis, tmp_path: Path
    ) -> None:
        """The canceled event is stored with the cancel: its delivery job is tried once while
        Redis is away (it waited out SUBMIT_PATIENCE_SECONDS, five seconds of the request),
        and the ticker's sweep of due events hands it to a worker once Redis is back."""
        settings = postgres_settings(postgres_server, redis, tick_seconds=0.2)
        with WebhookReceiver() as receiver, served_api(settings) as api:
            client = api.tenant_client()
            assert client.post("/v1/webhook_endpoints", json={"url": receiver.url}).is_success
            body = {**one_case_body("cancel-away"), "webhook_url": receiver.url}
            created = client.post("/v1/evaluations", json=body)
            assert created.status_code == 202, created.text
            evaluation_id = created.json()["id"]
            redis.stop()
            before = enqueue_failures()
            canceled = client.post(f"/v1/evaluations/{evaluation_id}/cancel")
            assert canceled.status_code == 200, canceled.text
            assert enqueue_failures() - before == 1
            redis.start()
            with worker_process(settings, tmp_path / "worker") as worker:
                deadline = time.monotonic() + 60
                while not receiver.received and time.monotonic() < deadline:
                    assert worker.alive()
                    time.sleep(0.1)
        assert [json.loads(r.body)["type"] for r in receiver.received] == ["evaluation.canceled"]


def enqueue_failures() -> float:
    """Tries of an enqueue that found Redis away, in this process (the served API's)."""
    found = REGISTRY.get_sample_value("loupe_redis_unavailable_total", {"operation": "enqueue"})
    return found or 0.0
