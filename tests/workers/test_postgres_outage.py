"""While PostgreSQL is away, the API answers 503 with `Retry-After` (problem+json naming the
database), not a 500 "unexpected error" a client and its alerting cannot tell from a Loupe bug;
once it is back, the same request answers as before. A job waits for it to store what it judged,
and a request whose work was committed is answered although the database restarted under it."""

import logging
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import psycopg
from sqlalchemy import create_engine, text

from tests.evaluations.test_tasks import fresh_judge
from tests.fixtures.api import postgres_settings
from tests.fixtures.judge import ScriptedJudge
from tests.fixtures.services import PostgresServer, RedisServer, free_port, running_postgres
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


def test_a_session_whose_database_restarted_under_it_closes_cleanly(
    redis_server: RedisServer, log_records: list[logging.LogRecord]
) -> None:
    """A session that read (so holds a transaction) when PostgreSQL restarts: its close's
    rollback failed on the dropped connection, and a request's answer, its work committed,
    became an "unhandled error" with three tracebacks and a dropped connection. The server
    ended the transaction with the connection: nothing is left to undo. (Requests no longer
    hold their session while a body arrives or an answer leaves, so the session is held here
    as a slow endpoint would hold it.)"""
    with running_postgres() as postgres:
        settings = postgres_settings(postgres, redis_server)
        with served_api(settings) as api, api.tenant_client() as client:
            runtime = api.served.runtime
            with runtime.session() as session:
                session.execute(text("SELECT 1"))
                assert idle_in_transaction(postgres) == 1
                postgres.stop()
                postgres.start()
            again = client.get("/v1/online_rules")
            scraped = client.get("/metrics").text
    assert again.status_code == 200, again.text
    assert total(samples(scraped), "loupe_database_unavailable_total", operation="close") == 1
    errors = [record.getMessage() for record in log_records if record.levelno >= logging.ERROR]
    assert errors == []


def _migrating(url: str, directory: Path) -> subprocess.Popen[str]:
    env = {name: value for name, value in os.environ.items() if not name.startswith("LOUPE_")}
    env["LOUPE_DATABASE_URL"] = url
    env["LOUPE_SECRET_KEY"] = "a-shared-key-of-at-least-32-bytes-for-tests"
    env["LOUPE_DATABASE_WAIT_SECONDS"] = "120"
    return subprocess.Popen(
        [str(Path(sys.executable).parent / "loupe"), "migrate"],
        env=env,
        cwd=directory,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_migrate_waits_for_a_database_that_is_not_up_yet(tmp_path: Path) -> None:
    """A compose service started with PostgreSQL: `loupe migrate`, and `loupe serve` as it
    migrates first, could only exit (one line, for a supervisor to restart them); with
    LOUPE_DATABASE_WAIT_SECONDS they wait for it, saying why, and migrate once it answers."""
    with running_postgres() as postgres:
        url = postgres.create_database("late")
        postgres.stop()
        process = _migrating(url, tmp_path)
        try:
            assert process.stderr is not None
            # Blocks until the first wait is told (after the log's own line, when logging is
            # not configured).
            line = next(
                line for line in process.stderr if line.startswith("loupe: waiting for the")
            )
            assert line.startswith("loupe: waiting for the database ("), line
            assert "Connection refused" in line and "s left" in line
        finally:
            postgres.start()
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0, out + err
        assert "Traceback" not in err
        assert out.strip().startswith("database ready: created every table (schema revision "), out
        engine = create_engine(url)
        try:
            with engine.connect() as connection:
                assert connection.scalar(text("SELECT version_num FROM alembic_version"))
        finally:
            engine.dispose()


def test_migrate_fails_at_once_when_the_server_refuses(tmp_path: Path) -> None:
    """A database name (or password) the server refuses is not worth waiting for."""
    with running_postgres() as postgres:
        wrong = postgres.url("no_such_database")
        process = _migrating(wrong, tmp_path)
        out, err = process.communicate(timeout=60)
    assert process.returncode != 0
    assert "waiting for the database" not in err
    assert 'database "no_such_database" does not exist' in err
