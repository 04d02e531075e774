"""An API process killed between the commit of new test cases and the enqueue of their slice:
the next tick queues the slice, though the evaluation stays open with a fresh heartbeat.

The slice's row in `unqueued_slice` is written with the cases, in the request's transaction,
and forgotten once the job is queued. Written only once an enqueue had failed, it was never
written when the process died first (a SIGKILL, the OOM killer), and an open evaluation taking
batches (an online rule's day under steady traffic) keeps its heartbeat fresh, so the
stale-heartbeat sweep left the cases unjudged until a lull or the day's end. The window is
milliseconds; Redis stopped holds the request in it (its enqueue waits) while it is killed.
"""

import subprocess
import threading
import time
from datetime import timedelta
from pathlib import Path

import httpx

from app import migrate
from app.db import make_engine, make_sessionmaker, utcnow
from app.models import Evaluation, UnqueuedSlice
from app.runtime import Runtime
from app.tenants.service import create_key
from tests.api.test_idempotent_restart import LOUPE, kill, serve
from tests.fixtures.api import postgres_settings
from tests.fixtures.services import PostgresServer, free_port, restartable_redis
from tests.workers.test_worker_process import worker_env
from workers import jobs

OPEN = {"metrics": [{"type": "exact_match"}], "test_cases": [], "open": True}
BATCH = {
    "test_cases": [
        {"input": "q1", "actual_output": "a", "expected_output": "a"},
        {"input": "q2", "actual_output": "a", "expected_output": "b"},
    ]
}
LATER = {"test_cases": [{"input": "q3", "actual_output": "a", "expected_output": "a"}]}


def test_a_batch_whose_process_died_before_its_enqueue_is_judged_by_the_next_tick(
    postgres_server: PostgresServer, tmp_path: Path
) -> None:
    with restartable_redis() as redis:
        # The sweep never finds the evaluation silent here: only the record brings the batch back.
        settings = postgres_settings(postgres_server, redis, stuck_after_seconds=3600)
        port = free_port()
        env = worker_env(settings, host="127.0.0.1", port=port)
        log_path = tmp_path / "serve.log"
        migrate.upgrade(settings)
        engine = make_engine(settings)
        runtime = Runtime(settings=settings, engine=engine, sessions=make_sessionmaker(engine))
        with runtime.session() as session:
            _, api_key = create_key(session, "killed")
            session.commit()
        process = serve(env, port, log_path)
        client = httpx.Client(
            base_url=f"http://127.0.0.1:{port}",
            headers={"Authorization": f"Bearer {api_key}"},
            timeout=60,
            trust_env=False,
        )
        try:
            opened = client.post("/v1/evaluations", json=OPEN)
            assert opened.status_code == 202, opened.text
            evaluation_id = opened.json()["id"]
            redis.stop()
            answers: list[object] = []

            def send() -> None:
                try:
                    path = f"/v1/evaluations/{evaluation_id}/test_cases"
                    answers.append(client.post(path, json=BATCH).status_code)
                except httpx.TransportError as error:
                    answers.append(type(error).__name__)

            sending = threading.Thread(target=send)
            sending.start()
            # The batch is committed and its enqueue waits for Redis: the process dies now.
            deadline = time.monotonic() + 60
            while "Redis away during enqueue" not in log_path.read_text():
                assert time.monotonic() < deadline, log_path.read_text()
                time.sleep(0.02)
            kill(process)
            sending.join()
            redis.start()
            left = _rows(runtime, evaluation_id)
            process = serve(env, port, log_path)
            # Traffic goes on: the next batch is queued as usual, the heartbeat kept fresh.
            later = client.post(f"/v1/evaluations/{evaluation_id}/test_cases", json=LATER)
            jobs.tick(runtime)
            with log_path.open("ab") as log:
                burst = [str(LOUPE), "worker", "--burst"]
                subprocess.run(burst, env=env, stdout=log, stderr=subprocess.STDOUT, check=True)
            body = client.get(f"/v1/evaluations/{evaluation_id}").json()
            with runtime.session() as session:
                evaluation = session.get(Evaluation, evaluation_id)
                assert evaluation is not None
                heartbeat = evaluation.heartbeat_at
                session.commit()
            forgotten = _rows(runtime, evaluation_id)
        finally:
            client.close()
            if process.poll() is None:
                kill(process)
            engine.dispose()

    assert answers == ["RemoteProtocolError"], answers
    # Still open, its heartbeat fresh: the stale-heartbeat sweep had nothing to find.
    assert later.status_code in (200, 202), later.text
    assert body["status"] == "in_progress", body
    assert utcnow() - heartbeat < timedelta(seconds=settings.stuck_after_seconds)
    counts = body["result_counts"]
    assert (counts["passed"], counts["failed"], counts["pending"]) == (2, 1, 0), counts
    # Recorded with the batch and forgotten once queued, by the tick here, as usual for the next.
    assert (left, forgotten) == ([(0, 2)], [])


def _rows(runtime: Runtime, evaluation_id: str) -> list[tuple[int, int]]:
    with runtime.session() as session:
        rows = session.query(UnqueuedSlice).filter_by(evaluation_id=evaluation_id).all()
        found = [(row.start, row.stop) for row in rows]
        session.commit()
    return found
