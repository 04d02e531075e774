"""Memory of the API and a worker while one open evaluation takes 100,000 cases in batches.

RQ mode: PostgreSQL and Redis on loopback (tests.fixtures.services), `loupe serve` and one
`loupe worker` as subprocesses, the scripted judge (tests/fixtures/judge.py) on loopback at zero
latency. One evaluation is submitted with `open: true` and two metrics (exact_match, and a
G-Eval with given steps: one judge call per case); `--cases` test cases are appended in batches
of `--batch` (each with its own Idempotency-Key) while the worker scores them, then it is closed
and awaited. After each checkpoint of appended cases (10k, 25k, 50k, 100k) and at completion it
prints each process's peak RSS (VmHWM) and current RSS (VmRSS) from /proc, the cases scored so
far and the time per batch since the previous checkpoint.

    flock /tmp/bench.lock .venv/bin/python bench/append_memory.py               # 100,000
    .venv/bin/python bench/append_memory.py --cases 5000 --batch 500           # developing
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.procs import pythonpath  # noqa: E402
from tests.fixtures.judge import ScriptedJudge, plausible_answer  # noqa: E402
from tests.fixtures.services import free_port, running_postgres, running_redis  # noqa: E402

LOUPE = Path(sys.executable).parent / "loupe"
METRICS = [
    {"type": "exact_match"},
    {
        "type": "g_eval",
        "name": "answers",
        "evaluation_steps": ["Check that the output answers the input."],
        "evaluation_params": ["input", "actual_output"],
    },
]
CHECKPOINTS = (10_000, 25_000, 50_000, 100_000)


def memory_mb(pid: int) -> tuple[float, float]:
    """(VmHWM, VmRSS) of a process, in MB."""
    fields = dict(
        line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
    )
    return tuple(int(fields[name].split()[0]) / 1024 for name in ("VmHWM", "VmRSS"))  # type: ignore[return-value]


def batch_of(first: int, size: int, run: str) -> list[dict[str, Any]]:
    return [
        {
            "id": f"{run}-{i}",
            "input": f"What is {i} plus one? (case {i} of run {run}, padded to a few lines of text "
            "as a production prompt would be)",
            "actual_output": f"{i + 1}",
            "expected_output": f"{i + 1}",
            "metadata": {"batch": str(first // size)},
        }
        for i in range(first, first + size)
    ]


def wait_ready(base_url: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("the service exited during start-up")
        try:
            if httpx.get(f"{base_url}/readyz", trust_env=False).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise RuntimeError("the service did not become ready")


@contextmanager
def rq_service(judge: ScriptedJudge) -> Iterator[tuple[str, dict[str, str], int, int]]:
    """PostgreSQL, Redis, `loupe serve` and one `loupe worker`: (base URL, env, API pid,
    worker pid)."""
    with ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="loupe-append-")))
        postgres = stack.enter_context(running_postgres())
        redis = stack.enter_context(running_redis())
        port = free_port()
        env = {
            **os.environ,
            "PYTHONPATH": pythonpath(),
            "LOUPE_PORT": str(port),
            "LOUPE_JUDGE_BASE_URL": judge.base_url,
            "LOUPE_JUDGE_API_KEY": "sk-bench",
            "LOUPE_DATABASE_URL": postgres.create_database("bench"),
            "LOUPE_REDIS_URL": redis.url,
            "LOUPE_SECRET_KEY": "bench-secret-key-of-at-least-32-bytes",
        }
        subprocess.run([str(LOUPE), "migrate"], env=env, check=True, capture_output=True)
        log = open(tmp / "service.log", "wb")  # noqa: SIM115 - closed with the stack
        stack.callback(log.close)
        api = subprocess.Popen([str(LOUPE), "serve"], env=env, stdout=log, stderr=log)
        worker = subprocess.Popen([str(LOUPE), "worker"], env=env, stdout=log, stderr=log)
        try:
            base_url = f"http://127.0.0.1:{port}"
            wait_ready(base_url, api)
            yield base_url, env, api.pid, worker.pid
        finally:
            for process in (api, worker):
                process.terminate()
            for process in (api, worker):
                try:
                    process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    process.kill()


def row(label: str, appended: int, scored: int, api: int, worker: int, batches: list[float]) -> str:
    api_peak, api_now = memory_mb(api)
    worker_peak, worker_now = memory_mb(worker)
    timing = (
        f"{statistics.mean(batches) * 1000:9.0f} {max(batches) * 1000:9.0f}"
        if batches
        else f"{'-':>9} {'-':>9}"
    )
    return (
        f"{label:>10} {appended:9,d} {scored:9,d} {api_peak:9.1f} {api_now:9.1f} "
        f"{worker_peak:9.1f} {worker_now:9.1f} {timing}"
    )


def scored_of(state: dict[str, Any]) -> int:
    counts = state["result_counts"]
    return (counts["total"] - counts["pending"]) // len(METRICS)


def run(cases: int, batch: int) -> None:
    checkpoints = [mark for mark in CHECKPOINTS if mark < cases] + [cases]
    with ScriptedJudge() as judge, rq_service(judge) as (base_url, env, api, worker):
        judge.script(plausible_answer)
        key = subprocess.run(
            [str(LOUPE), "keys", "create", "--create-tenant", "--tenant", "bench"],
            env=env,
            check=True,
            capture_output=True,
            text=True,
        ).stdout.split()[-1]
        headers = {"Authorization": f"Bearer {key}"}
        with httpx.Client(base_url=base_url, headers=headers, timeout=300, trust_env=False) as http:
            print(f"cases {cases:,} in batches of {batch:,}; API pid {api}, worker pid {worker}")
            print(
                f"{'at':>10} {'appended':>9} {'scored':>9} {'API HWM':>9} {'API RSS':>9} "
                f"{'wrk HWM':>9} {'wrk RSS':>9} {'batch ms':>9} {'max ms':>9}"
            )
            print(row("start", 0, 0, api, worker, []))
            created = http.post("/v1/evaluations", json={"open": True, "metrics": METRICS})
            created.raise_for_status()
            evaluation_id = created.json()["id"]
            run_id = uuid.uuid4().hex[:6]
            started = time.perf_counter()
            timings: list[float] = []
            appended = 0
            for first in range(0, cases, batch):
                size = min(batch, cases - first)
                body = {"test_cases": batch_of(first, size, run_id)}
                began = time.perf_counter()
                answer = http.post(
                    f"/v1/evaluations/{evaluation_id}/test_cases",
                    json=body,
                    headers={"Idempotency-Key": f"{run_id}-{first}"},
                )
                answer.raise_for_status()
                timings.append(time.perf_counter() - began)
                appended = answer.json()["test_case_count"]
                # The scripted judge keeps every request it was sent; this process is not measured.
                judge.requests.clear()
                if appended >= checkpoints[0]:
                    state = http.get(f"/v1/evaluations/{evaluation_id}").json()
                    print(row(f"{appended:,}", appended, scored_of(state), api, worker, timings))
                    checkpoints.pop(0)
                    timings = []
            appending_s = time.perf_counter() - started
            closed = http.post(f"/v1/evaluations/{evaluation_id}/close")
            closed.raise_for_status()
            while True:
                state = http.get(f"/v1/evaluations/{evaluation_id}").json()
                judge.requests.clear()
                if state["status"] in ("completed", "failed", "canceled"):
                    break
                time.sleep(1.0)
            total_s = time.perf_counter() - started
            print(row(state["status"], appended, scored_of(state), api, worker, []))
            print(
                f"appending took {appending_s:.1f} s ({appending_s / (cases / batch):.2f} s per "
                f"batch); scored and completed {total_s:.1f} s after the first batch; errored "
                f"{state['result_counts']['errored']}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=int, default=100_000)
    parser.add_argument("--batch", type=int, default=1000)
    args = parser.parse_args()
    run(args.cases, args.batch)


if __name__ == "__main__":
    main()
