"""Poll cost at 10,000 test cases, and a comparison of two 10,000-case evaluations.

Starts Loupe (embedded: SQLite; rq: PostgreSQL + Redis + one `loupe worker`), submits two
evaluations of N test cases with `exact_match` and `bleu` (no judge calls; the candidate answers
differently on every tenth case), waits for both, then times:

- `GET /v1/evaluations/{id}` polled `--polls` times (median and p95 latency, API CPU ms per poll
  from /proc), once as submitted and once for an evaluation with `cluster_by` (its clustered
  error bars read the results on every poll);
- `POST /v1/comparisons` `--repeats` times (median and max wall, API CPU ms per comparison).

Run it against older code to get the "before" poll figures (`--code DIR` with a checkout of
that commit: the script then starts that code's `loupe`; comparisons are skipped when the
service has none):

    .venv/bin/python bench/comparisons.py
    git archive <commit> | tar -x -C /tmp/before
    .venv/bin/python bench/comparisons.py --code /tmp/before
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.procs import cpu_seconds, pythonpath  # noqa: E402
from bench.throughput import wait_ready  # noqa: E402
from tests.fixtures.services import free_port, running_postgres, running_redis  # noqa: E402

LOUPE = Path(sys.executable).parent / "loupe"


@contextmanager
def service(mode: str, code: Path | None):
    """Start Loupe in `mode`; yields (base_url, env, api pid)."""
    with ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="loupe-bench-")))
        env = {
            **os.environ,
            "PYTHONPATH": pythonpath(),
            "LOUPE_PORT": str(free_port()),
            "LOUPE_MAX_BODY_BYTES": str(256 * 1024 * 1024),
        }
        if code is not None:
            # The older checkout's `app` and `migrations` win over this worktree's.
            env["PYTHONPATH"] = str(code)
        if mode == "embedded":
            env["LOUPE_DATABASE_URL"] = f"sqlite:///{tmp}/loupe.db"
        else:
            postgres = stack.enter_context(running_postgres())
            redis = stack.enter_context(running_redis())
            env["LOUPE_DATABASE_URL"] = postgres.create_database("bench")
            env["LOUPE_REDIS_URL"] = redis.url
            # Distributed mode refuses to start without a shared key of 32 bytes or more.
            env["LOUPE_SECRET_KEY"] = "bench-secret-key-of-at-least-32-bytes"
        cwd = code or ROOT
        subprocess.run([str(LOUPE), "migrate"], env=env, check=True, capture_output=True, cwd=cwd)
        created = subprocess.run(
            [str(LOUPE), "keys", "create", "--create-tenant", "--tenant", "bench"],
            env=env,
            check=True,
            capture_output=True,
            text=True,
            cwd=cwd,
        )
        env["BENCH_KEY"] = created.stdout.strip().splitlines()[-1]
        log = open(tmp / "service.log", "wb")  # noqa: SIM115 - closed with the stack
        stack.callback(log.close)
        processes = [
            subprocess.Popen([str(LOUPE), "serve"], env=env, stdout=log, stderr=log, cwd=cwd)
        ]
        if mode == "rq":
            processes.append(
                subprocess.Popen([str(LOUPE), "worker"], env=env, stdout=log, stderr=log, cwd=cwd)
            )
        try:
            base_url = f"http://127.0.0.1:{env['LOUPE_PORT']}"
            wait_ready(base_url, processes[0])
            yield base_url, env, processes[0].pid
        finally:
            for process in processes:
                process.terminate()
            for process in processes:
                try:
                    process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    process.kill()


def cases(n: int, wrong_every: int | None, clustered: bool) -> list[dict[str, Any]]:
    rows = []
    for i in range(n):
        reference = f"the answer to question {i} is {i * 7 % 13} apples and {i % 5} pears"
        wrong = wrong_every is not None and i % wrong_every == 0
        row: dict[str, Any] = {
            "id": f"q{i}",
            "input": f"question {i}",
            "actual_output": "no idea at all" if wrong else reference,
            "expected_output": reference,
        }
        if clustered:
            row["metadata"] = {"doc": f"d{i // 4}"}
        rows.append(row)
    return rows


def submit(client: httpx.Client, n: int, wrong_every: int | None, clustered: bool) -> str:
    body: dict[str, Any] = {
        "test_cases": cases(n, wrong_every, clustered),
        "metrics": [{"type": "exact_match"}, {"type": "bleu"}],
    }
    if clustered:
        body["cluster_by"] = "doc"
    response = client.post("/v1/evaluations", json=body)
    response.raise_for_status()
    return response.json()["id"]


def wait(client: httpx.Client, evaluation_id: str) -> None:
    while True:
        status = client.get(f"/v1/evaluations/{evaluation_id}").json()["status"]
        if status not in ("queued", "in_progress"):
            assert status == "completed", status
            return
        time.sleep(1)


def timed(pid: int, repeats: int, call) -> dict[str, float]:  # type: ignore[no-untyped-def]
    walls = []
    cpu_before = cpu_seconds(pid)
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        walls.append(time.perf_counter() - start)
    cpu = cpu_seconds(pid) - cpu_before
    walls.sort()
    return {
        "median_ms": statistics.median(walls) * 1000,
        "p95_ms": walls[int(len(walls) * 0.95) - 1] * 1000,
        "max_ms": walls[-1] * 1000,
        "cpu_ms": cpu / repeats * 1000,
    }


def measure(mode: str, args: argparse.Namespace) -> None:
    with service(mode, args.code) as (base_url, env, pid):
        headers = {"Authorization": f"Bearer {env['BENCH_KEY']}"}
        with httpx.Client(
            base_url=base_url, headers=headers, timeout=120, trust_env=False
        ) as client:
            baseline = submit(client, args.n, None, clustered=False)
            candidate = submit(client, args.n, 10, clustered=False)
            wait(client, baseline)
            wait(client, candidate)
            poll = timed(pid, args.polls, lambda: client.get(f"/v1/evaluations/{baseline}"))
            print(f"{mode} poll n={args.n}: " + fmt(poll), flush=True)
            if args.code is not None:
                return
            clustered = submit(client, args.n, 10, clustered=True)
            wait(client, clustered)
            poll = timed(
                pid, max(1, args.polls // 4), lambda: client.get(f"/v1/evaluations/{clustered}")
            )
            print(f"{mode} poll n={args.n} cluster_by: " + fmt(poll), flush=True)

            def compare() -> None:
                response = client.post(
                    "/v1/comparisons", json={"baseline_id": baseline, "candidate_id": candidate}
                )
                response.raise_for_status()

            figures = timed(pid, args.repeats, compare)
            print(f"{mode} comparison 2 x {args.n}: " + fmt(figures), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--modes", default="embedded,rq")
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--polls", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--code", type=Path, help="a checkout of older code to measure")
    args = parser.parse_args()
    for mode in args.modes.split(","):
        measure(mode, args)


def fmt(figures: dict[str, float]) -> str:
    return ", ".join(f"{key} {value:.1f}" for key, value in figures.items())


if __name__ == "__main__":
    main()
