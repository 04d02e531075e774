"""While PostgreSQL is away, the API answers 503 with `Retry-After` (problem+json naming the
database), not a 500 "unexpected error" a client and its alerting cannot tell from a Loupe bug;
once it is back, the same request answers as before. A job waits for it to store what it judged,
and a request whose work was committed is answered although the database restarted under it."""

import json
import logging
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import psycopg

from tests.evaluations.test_tasks import fresh_judge
from tests.fixtures.api import postgres_settings
from tests.fixtures.judge import ScriptedJudge
from tests.fixtures.services import PostgresServer, RedisServer, free_port, running_postgres
from tests.online.test_receiver import semconv_span
from tests.telemetry.test_scrape import samples, total
from tests.workers.test_worker_process import all_results, served_api, stored, worker_process


def test_reads_while_the_database_is_away_are_503_then_answer_again(
    redis_server: RedisServer, judge: ScriptedJudge
) -> None:
    with running_postgres() as postgres:
        settings = postgres_settings(postgres, redis_server, judge_base_url=judge.base_url)
        with served_api(settings) as api, api.tenant_client() as client:
            body = {
                "test_cases": [{"input": "q", "actual_output": "a", "expected_output": "a"}],
                "metrics": [{"type": "exact_match"}],
            }
            created = client.post("/v1/evaluations", json=body)
            assert created.status_code == 202, created.text
            path = f"/v1/evaluations/{created.json()['id']}"
            postgres.stop()
            try:
                for _ in range(2):  # the pool's dropped connection, then a refused one
                    away = client.get(path)
                    assert away.status_code == 503, away.text
                    assert away.headers["content-type"].startswith("application/problem+json")
                    assert away.headers["retry-after"] == "5"
                    assert away.json()["type"].endswith("/storage-unavailable")
            finally:
                postgres.start()
            assert client.get(path).status_code == 200


CASES = 80


def test_a_job_waits_out_a_database_restart_and_no_call_is_made_twice(
    redis_server: RedisServer, judge: ScriptedJudge, tmp_path: Path
) -> None:
    """PostgreSQL restarts while a worker judges: the job's write failed, RQ ran the whole
    slice again, and the calls judged before the restart were made twice (and counted once,
    so the usage said fewer calls than the judge answered). The job waits for the database
    and stores what it judged; the worker's upkeep waits too, counted and without an error's
    traceback per tick."""
    fresh_judge(judge)
    judge.script(lambda request: {"reasoning": "same answer", "verdict": "A"})
    judge.latency = 0.1
    with running_postgres() as postgres:
        settings = postgres_settings(
            postgres,
            redis_server,
            judge_base_url=judge.base_url,
            judge_concurrency=4,
            judge_max_concurrency=4,
            job_slice_size=CASES,
        )
        body = {
            "metrics": [{"type": "llm_accuracy"}],
            "test_cases": [
                {"input": f"q{i}", "actual_output": f"a{i}", "expected_output": f"a{i}"}
                for i in range(CASES)
            ],
        }
        with served_api(settings) as api, api.tenant_client() as client:
            created = client.post("/v1/evaluations", json=body)
            assert created.status_code == 202, created.text
            path = f"/v1/evaluations/{created.json()['id']}"
            port = free_port()
            with worker_process(settings, tmp_path / "worker", metrics_port=port) as worker:
                deadline = time.monotonic() + 60
                while stored(client.get(path).json()) < 10:
                    assert worker.alive(), worker.log_tail()
                    assert time.monotonic() < deadline, worker.log_tail()
                    time.sleep(0.05)
                postgres.stop()
                time.sleep(3)
                postgres.start()
                deadline = time.monotonic() + 120
                while (final := client.get(path).json())["status"] == "in_progress":
                    assert worker.alive(), worker.log_tail()
                    assert time.monotonic() < deadline, (final, worker.log_tail())
                    time.sleep(0.2)
                said = worker.log_path.read_text(errors="replace")
                scraped = httpx.get(f"http://127.0.0.1:{port}/metrics", trust_env=False).text
            rows = all_results(client, created.json()["id"])
    assert final["status"] == "completed", final
    assert len({row["test_case_id"] for row in rows}) == len(rows) == CASES
    assert final["result_counts"]["errored"] == 0
    assert final["usage"]["calls"] == len(judge.requests) == CASES, said[-3000:]
    assert "database away during store" in said
    assert "tick failed" not in said and "Traceback" not in said, said[-3000:]
    assert total(samples(scraped), "loupe_database_unavailable_total", operation="tick") > 0


def idle_in_transaction(postgres: PostgresServer) -> int:
    """Connections to the cluster holding a transaction open between statements."""
    with psycopg.connect(
        host=postgres.host, port=postgres.port, user=postgres.user, dbname="postgres"
    ) as connection:
        row = connection.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE state = 'idle in transaction'"
        ).fetchone()
    assert row is not None
    return int(row[0])


def test_a_request_whose_database_restarted_under_it_ends_cleanly(
    redis_server: RedisServer, log_records: list[logging.LogRecord]
) -> None:
    """A request's session (its key looked up) stays open while the body arrives, and closes
    after the answer is sent. PostgreSQL restarting meanwhile made that close's rollback fail:
    an "unhandled error" with three tracebacks after the answer, and the connection dropped.
    The server ended the transaction with the connection: nothing is left to undo."""
    with running_postgres() as postgres:
        settings = postgres_settings(postgres, redis_server)
        with served_api(settings) as api, api.tenant_client() as client:
            span = semconv_span("00f067aa0ba90201", "app", "Question?")
            export = json.dumps({"resourceSpans": [span]}).encode()

            def body() -> Iterator[bytes]:
                yield export[:10]
                # The key was looked up: its transaction waits for the rest of the body.
                while idle_in_transaction(postgres) < 1:
                    time.sleep(0.01)
                postgres.stop()
                postgres.start()
                yield export[10:]

            response = client.post(
                "/v1/traces", content=body(), headers={"Content-Type": "application/json"}
            )
            again = client.get("/v1/online_rules")
    assert response.status_code == 200, response.text
    assert again.status_code == 200, again.text
    errors = [record.getMessage() for record in log_records if record.levelno >= logging.ERROR]
    assert errors == []
