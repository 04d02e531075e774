"""A keyed create whose API process is killed after its work committed: the retry under the
same Idempotency-Key gets the first answer, not 409 "in progress" until the key expires.

Its work's effects (the enqueue of its jobs) ran between the commit of the work, which claims
the key, and the commit of the answer on the key: with Redis away that took seconds
(SUBMIT_PATIENCE_SECONDS), and a process killed then (a restart during the Redis incident)
left the key claimed without an answer for a day.
"""

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

from app import migrate
from app.db import make_engine, make_sessionmaker
from app.runtime import Runtime
from app.tenants.service import create_key
from tests.fixtures.api import postgres_settings
from tests.fixtures.services import PostgresServer, free_port, restartable_redis
from tests.workers.test_worker_process import worker_env

LOUPE = Path(sys.executable).with_name("loupe")
BODY = {
    "metrics": [{"type": "exact_match"}],
    "test_cases": [{"input": "q", "actual_output": "a", "expected_output": "a"}],
}


def serve(env: dict[str, str], port: int, log_path: Path) -> subprocess.Popen[bytes]:
    """`loupe serve`, answering /healthz once this returns."""
    with log_path.open("ab") as log:
        process = subprocess.Popen(
            [str(LOUPE), "serve"],
            env=env,
            cwd=log_path.parent,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    deadline = time.monotonic() + 120
    while True:
        assert process.poll() is None, log_path.read_text()
        try:
            url = f"http://127.0.0.1:{port}/healthz"
            if httpx.get(url, trust_env=False).status_code == 200:
                return process
        except httpx.TransportError:
            pass
        assert time.monotonic() < deadline, log_path.read_text()
        time.sleep(0.1)


def kill(process: subprocess.Popen[bytes]) -> None:
    os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=10)


def test_a_keyed_create_killed_while_redis_is_away_replays_on_retry(
    postgres_server: PostgresServer, tmp_path: Path
) -> None:
    with restartable_redis() as redis:
        settings = postgres_settings(postgres_server, redis)
        port = free_port()
        env = worker_env(settings, host="127.0.0.1", port=port)
        log_path = tmp_path / "serve.log"
        migrate.upgrade(settings)
        engine = make_engine(settings)
        try:
            runtime = Runtime(settings=settings, engine=engine, sessions=make_sessionmaker(engine))
            with runtime.session() as session:
                _, api_key = create_key(session, "killed")
                session.commit()
        finally:
            engine.dispose()
        first = serve(env, port, log_path)
        headers = {"Authorization": f"Bearer {api_key}", "Idempotency-Key": "killed-create"}
        client = httpx.Client(
            base_url=f"http://127.0.0.1:{port}", headers=headers, timeout=60, trust_env=False
        )
        try:
            redis.stop()
            answers: list[object] = []

            def send() -> None:
                try:
                    answers.append(client.post("/v1/evaluations", json=BODY).status_code)
                except httpx.TransportError as error:
                    answers.append(type(error).__name__)

            sending = threading.Thread(target=send)
            sending.start()
            # The work is committed and its enqueue waits for Redis: the process dies now.
            deadline = time.monotonic() + 60
            while "Redis away during enqueue" not in log_path.read_text():
                assert time.monotonic() < deadline, log_path.read_text()
                time.sleep(0.02)
            kill(first)
            sending.join()
            redis.start()
            second = serve(env, port, log_path)
            try:
                retried = client.post("/v1/evaluations", json=BODY)
                listed = client.get("/v1/evaluations").json()["data"]
            finally:
                kill(second)
        finally:
            client.close()
            if first.poll() is None:
                kill(first)

    assert answers == ["RemoteProtocolError"], answers
    assert retried.status_code == 202, retried.text
    assert retried.headers["idempotent-replayed"] == "true"
    assert [evaluation["id"] for evaluation in listed] == [retried.json()["id"]]
