"""`loupe worker` as a real process next to the served API (distributed mode only).

Nothing runs jobs in the test process here: the API enqueues to Redis and separate
`loupe worker` processes, configured through LOUPE_* variables as in production, consume them.
"""

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import httpx
from standardwebhooks import Webhook

from app import migrate
from app import runtime as runtime_module
from app.config import Settings
from app.models import Evaluation
from tests.evaluations.test_tasks import fresh_judge
from tests.fixtures.api import Api, ServedApp, postgres_settings
from tests.fixtures.judge import ScriptedJudge
from tests.fixtures.receiver import WebhookReceiver
from tests.fixtures.services import PostgresServer, RedisServer

LOUPE = Path(sys.executable).with_name("loupe")


def evaluation_body(cases: int, metrics: int, **fields: Any) -> dict[str, Any]:
    return {
        "name": "worker process",
        "metrics": [{"type": "exact_match", "name": f"exact_{m:02d}"} for m in range(metrics)],
        "test_cases": [
            {
                "id": f"tc-{i:05d}",
                "input": f"q{i}",
                "actual_output": f"a{i}",
                "expected_output": f"a{i}" if i % 4 else f"b{i}",
            }
            for i in range(cases)
        ],
        **fields,
    }


def worker_env(settings: Settings, **overrides: Any) -> dict[str, str]:
    """The environment of a worker process with `settings` (plus overrides) as LOUPE_* vars."""
    env = {name: value for name, value in os.environ.items() if not name.startswith("LOUPE_")}
    values = settings.model_dump()
    values.update(overrides)
    for name, value in values.items():
        if value is None:
            continue
        if isinstance(value, bool):
            text = "true" if value else "false"
        elif isinstance(value, list):
            # The README's form for list settings: comma-separated.
            text = ",".join(str(item) for item in value)
        elif isinstance(value, dict):
            # The README's form for mappings (LOUPE_MODEL_PRICES): JSON.
            text = json.dumps(value)
        else:
            text = str(value)
        env[f"LOUPE_{name.upper()}"] = text
    return env


class WorkerProcess:
    """A `loupe worker` subprocess in its own process group, logging to a file."""

    def __init__(self, process: subprocess.Popen[bytes], log_path: Path) -> None:
        self.process = process
        self.log_path = log_path

    def alive(self) -> bool:
        return self.process.poll() is None

    def log_tail(self, lines: int = 40) -> str:
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        return "\n".join(text.splitlines()[-lines:])

    def kill(self) -> None:
        """SIGKILL the whole group: no warm shutdown, no last flush, no RQ bookkeeping."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.alive():
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
        # Whatever is left of the group (a process the worker started) goes too.
        with suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)


@contextmanager
def worker_process(
    settings: Settings, directory: Path, **overrides: Any
) -> Iterator[WorkerProcess]:
    """A running `loupe worker` for `settings`, stopped (or killed) however the block ends."""
    directory.mkdir(parents=True, exist_ok=True)
    log_path = directory / "worker.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [str(LOUPE), "worker"],
            env=worker_env(settings, **overrides),
            # An empty directory: no stray .env file feeds the worker other settings.
            cwd=directory,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    worker = WorkerProcess(process, log_path)
    try:
        yield worker
    finally:
        worker.stop()


@contextmanager
def served_api(settings: Settings) -> Iterator[Api]:
    """The API for `settings`, served in this process; workers are separate processes."""
    migrate.upgrade(settings)
    # Serving makes this app's runtime the process's current one; the session's `api` fixture
    # (which may still be up) runs in-process jobs and ticks through it, so put it back after.
    previous = runtime_module._current
    try:
        with ServedApp(settings) as served:
            # No Redis handle: Api.wait() must not run the queue in this process.
            yield Api(mode="distributed", served=served, redis=None)
    finally:
        runtime_module._current = previous


def wait_for(
    client: httpx.Client,
    evaluation_id: str,
    worker: WorkerProcess,
    timeout: float = 120,
) -> dict[str, Any]:
    """Poll until the evaluation is terminal, failing early if the worker process died."""
    deadline = time.monotonic() + timeout
    while True:
        body = client.get(f"/v1/evaluations/{evaluation_id}").json()
        if body["status"] in ("completed", "failed", "canceled"):
            return body
        assert worker.alive(), f"the worker exited:\n{worker.log_tail()}"
        assert time.monotonic() < deadline, (
            f"evaluation still {body['status']} ({body['result_counts']}):\n{worker.log_tail()}"
        )
        time.sleep(0.1)


def all_results(client: httpx.Client, evaluation_id: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    after = None
    while True:
        params: dict[str, Any] = {"limit": 1000}
        if after:
            params["after"] = after
        response = client.get(f"/v1/evaluations/{evaluation_id}/results", params=params)
        assert response.status_code == 200, response.text
        page = response.json()
        rows += page["data"]
        if not page["has_more"]:
            return rows
        after = page["last_id"]


def wait_deliveries(
    client: httpx.Client, endpoint_id: str, count: int, timeout: float = 30
) -> list[dict[str, Any]]:
    """The endpoint's delivery history once it has `count` attempts; newest first."""
    deadline = time.monotonic() + timeout
    while True:
        history = client.get(f"/v1/webhook_endpoints/{endpoint_id}/deliveries").json()["data"]
        if len(history) >= count:
            return history
        assert time.monotonic() < deadline, f"deliveries never reached {count}: {history}"
        time.sleep(0.05)


def stored(body: dict[str, Any]) -> int:
    return body["result_counts"]["total"] - body["result_counts"]["pending"]


class TestWorkerProcess:
    def test_consumes_an_evaluation_and_delivers_its_webhook(
        self,
        postgres_server: PostgresServer,
        redis_server: RedisServer,
        tmp_path: Path,
    ) -> None:
        settings = postgres_settings(postgres_server, redis_server, job_slice_size=10)
        with served_api(settings) as api, WebhookReceiver() as receiver:
            client = api.tenant_client()
            endpoint = client.post("/v1/webhook_endpoints", json={"url": receiver.url}).json()
            # The first attempt fails: the worker's own ticker must enqueue the retry.
            receiver.answer(500, 200)
            created = client.post(
                "/v1/evaluations", json=evaluation_body(45, 3, webhook_url=receiver.url)
            )
            assert created.status_code == 202, created.text
            evaluation_id = created.json()["id"]
            assert created.json()["status"] == "queued"

            with worker_process(settings, tmp_path / "worker") as worker:
                final = wait_for(client, evaluation_id, worker)
                receiver.wait_for(2)
                history = wait_deliveries(client, endpoint["id"], count=2)
                assert worker.alive(), worker.log_tail()

            assert final["status"] == "completed", final
            assert final["result_counts"] == {
                "total": 135,
                "passed": 99,
                "failed": 36,
                "errored": 0,
                "pending": 0,
                "canceled": 0,
                "skipped": 0,
            }
            rows = all_results(client, evaluation_id)
            assert len({(r["test_case_id"], r["metric"]) for r in rows}) == len(rows) == 135

            first, second = receiver.received
            assert first.headers["webhook-id"] == second.headers["webhook-id"]
            payload = Webhook(endpoint["secret"]).verify(second.body, second.headers)
            assert payload["type"] == "evaluation.completed"
            assert payload["data"]["id"] == evaluation_id
            assert [(d["status_code"], d["succeeded"]) for d in history] == [
                (200, True),
                (500, False),
            ]

    def test_sigkilled_worker_is_recovered_by_the_next_one(
        self,
        postgres_server: PostgresServer,
        redis_server: RedisServer,
        tmp_path: Path,
    ) -> None:
        # 30,000 results: enough that the kill lands mid-run with batches stored and pending.
        cases, metrics = 1500, 20
        total = cases * metrics
        settings = postgres_settings(
            postgres_server,
            redis_server,
            # One job for the whole evaluation: the kill always lands inside it, so only the
            # ticker's re-enqueue can finish the evaluation.
            job_slice_size=cases,
            # Small writes make progress visible (and leave a partial batch to lose).
            result_batch_size=50,
            max_body_bytes=16 * 1024 * 1024,
        )
        with served_api(settings) as api:
            client = api.tenant_client()
            created = client.post("/v1/evaluations", json=evaluation_body(cases, metrics))
            assert created.status_code == 202, created.text
            evaluation_id = created.json()["id"]

            with worker_process(settings, tmp_path / "first") as first:
                deadline = time.monotonic() + 120
                while True:
                    before_kill = client.get(f"/v1/evaluations/{evaluation_id}").json()
                    # A tenth done: enough stored results for the next worker to skip.
                    if stored(before_kill) >= total // 10:
                        break
                    assert before_kill["status"] in ("queued", "in_progress"), before_kill
                    assert first.alive(), first.log_tail()
                    assert time.monotonic() < deadline, first.log_tail()
                    time.sleep(0.02)
                assert before_kill["result_counts"]["pending"] > 0, before_kill
                first.kill()

            # Nothing works on the evaluation now, so this is how the kill left it: mid-run.
            after_kill = client.get(f"/v1/evaluations/{evaluation_id}").json()
            assert after_kill["status"] == "in_progress", after_kill
            assert after_kill["completed_at"] is None
            assert total // 10 <= stored(after_kill) < total, after_kill["result_counts"]
            assert after_kill["result_counts"]["pending"] > 0
            assert stored(after_kill) >= stored(before_kill)
            with api.served.runtime.session() as session:
                row = session.get(Evaluation, evaluation_id)
                assert row is not None
                assert (row.status, row.dispatch_attempts) == ("in_progress", 1)

            with worker_process(
                settings, tmp_path / "second", stuck_after_seconds=2, heartbeat_seconds=0.5
            ) as second:
                final = wait_for(client, evaluation_id, second, timeout=240)
                assert second.alive(), second.log_tail()

            assert final["status"] == "completed", final
            counts = final["result_counts"]
            assert counts["total"] == total
            assert counts["pending"] == 0
            assert counts["passed"] + counts["failed"] + counts["errored"] == total
            assert counts["errored"] == 0
            assert counts["failed"] == total // 4
            with api.served.runtime.session() as session:
                row = session.get(Evaluation, evaluation_id)
                assert row is not None
                # The dead worker's job was replaced by the ticker, not left to RQ's cleanup (it
                # completed), and its attempts count again from the one that made progress.
                assert row.dispatch_attempts == 1

            rows = all_results(client, evaluation_id)
            assert len(rows) == total
            assert len({(r["test_case_id"], r["metric"]) for r in rows}) == total

    def test_sigterm_stores_what_is_in_flight_and_hands_back_the_rest(
        self,
        postgres_server: PostgresServer,
        redis_server: RedisServer,
        judge: ScriptedJudge,
        tmp_path: Path,
    ) -> None:
        """A stopping worker (SIGTERM: a rollout, a scale-in) finished its whole slice first,
        minutes for 1,000 test cases, past its supervisor's grace: killed, its calls in flight
        were billed but never counted and the slice waited for its lease to lapse. It stores
        what is in flight, queues the rest for another worker, and exits."""
        fresh_judge(judge)
        judge.script(lambda request: {"reasoning": "same answer", "verdict": "A"})
        judge.latency = 0.2
        cases = 40
        settings = postgres_settings(
            postgres_server,
            redis_server,
            judge_base_url=judge.base_url,
            judge_concurrency=2,
            judge_max_concurrency=2,
            worker_concurrency=2,
            job_slice_size=cases,
        )
        body = {
            "metrics": [{"type": "llm_accuracy"}],
            "test_cases": [
                {"input": f"q{i};", "actual_output": f"a{i}", "expected_output": f"a{i}"}
                for i in range(cases)
            ],
        }
        with served_api(settings) as api:
            client = api.tenant_client()
            created = client.post("/v1/evaluations", json=body)
            assert created.status_code == 202, created.text
            path = f"/v1/evaluations/{created.json()['id']}"
            with worker_process(settings, tmp_path / "first") as first:
                deadline = time.monotonic() + 120
                while stored(client.get(path).json()) < 4:
                    assert first.alive(), first.log_tail()
                    assert time.monotonic() < deadline, first.log_tail()
                    time.sleep(0.05)
                first.process.send_signal(signal.SIGTERM)
                first.process.wait(timeout=120)
                said = first.log_path.read_text(errors="replace")
            handed_back = client.get(path).json()
            with worker_process(settings, tmp_path / "second") as second:
                final = wait_for(client, created.json()["id"], second)
            rows = all_results(client, created.json()["id"])

        assert first.process.returncode == 0, said[-3000:]
        assert "evaluation.gave_way" in said, said[-3000:]
        assert handed_back["result_counts"]["pending"] > 0, handed_back
        assert final["status"] == "completed", final
        assert final["result_counts"]["errored"] == 0
        assert len({row["test_case_id"] for row in rows}) == len(rows) == cases
        # Every call the judge answered is counted, none made twice.
        assert final["usage"]["calls"] == len(judge.requests) == cases
