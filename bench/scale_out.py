"""Scaling out: one API, 1, 2 and 4 `loupe worker` processes, PostgreSQL and Redis.

The judge is the scripted one of bench/throughput.py (loopback, a fixed latency, no limit
headers and no 429s: a provider that allows whatever is asked), answering the four seed judged
metrics over N test cases with text and two images each. An evaluation is scored in slices of
`LOUPE_JOB_SLICE_SIZE` test cases (1,000 by default), one RQ job each, and a worker runs one job
at a time: one evaluation spreads over at most N / 1,000 workers, so a run submits N cases as
`--evaluations` evaluations at once (each split in slices in turn) to give every worker work.

Per run it prints wall time (first submit to the last evaluation's `completed_at`), wall time
per 1,000 judge calls, calls/s, and CPU seconds per component read from /proc over the run: the
API (`loupe serve`), the workers summed, PostgreSQL (the postmaster and every backend, reaped
ones included), Redis, and the judge server (its thread in this process); then CPU ms per judge
call and cores (CPU s / wall s) per component, the busiest worker's cores, and the machine's
busy cores from /proc/stat (2 vCPU here: everything above shares them).

    flock /tmp/bench.lock .venv/bin/python bench/scale_out.py           # the recorded set
    flock /tmp/bench.lock .venv/bin/python bench/scale_out.py --workers 1,2 --runs 0:400:2
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import httpx
import psycopg
from redis import Redis

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.procs import TICKS, children, find_process, proc_stat, pythonpath, tree_cpu  # noqa: E402
from bench.throughput import (  # noqa: E402
    LOUPE,
    METRICS,
    calibration_seconds,
    test_cases,
    wait_ready,
)
from tests.fixtures.judge import ScriptedJudge, plausible_answer  # noqa: E402
from tests.fixtures.services import free_port, running_postgres, running_redis  # noqa: E402

COMPONENTS = ("api", "workers", "postgres", "redis", "judge")


def thread_cpu(native_id: int) -> float:
    fields = proc_stat(Path(f"/proc/self/task/{native_id}/stat"))
    return 0.0 if fields is None else (int(fields[11]) + int(fields[12])) / TICKS


def machine_busy() -> float:
    """CPU seconds every core of the machine spent not idle, since boot."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(values) - values[3] - values[4]) / TICKS  # minus idle and iowait


@dataclass
class Stack:
    """The running service: pids per component (workers change between runs)."""

    base_url: str
    env: dict[str, str]
    judge: ScriptedJudge
    api: int
    postgres: int
    redis: int
    redis_url: str
    postgres_port: int
    log: Path
    workers: list[subprocess.Popen] = field(default_factory=list)

    def cpu(self) -> dict[str, float]:
        tree = children()
        return {
            "api": tree_cpu(self.api, tree),
            "workers": sum(tree_cpu(worker.pid, tree) for worker in self.workers),
            "postgres": tree_cpu(self.postgres, tree),
            "redis": tree_cpu(self.redis, tree),
            "judge": thread_cpu(self.judge._thread.native_id),  # type: ignore[arg-type]
            "busiest_worker": max(
                (tree_cpu(worker.pid, tree) for worker in self.workers), default=0.0
            ),
            "machine": machine_busy(),
            # This process: the judge's thread and the bench's own polling.
            "bench": time.process_time(),
        }

    def operations(self) -> dict[str, int]:
        """Counters of work done by PostgreSQL (the bench database) and Redis, since start."""
        with psycopg.connect(
            host="127.0.0.1", port=self.postgres_port, user="postgres", dbname="bench"
        ) as connection:
            row = connection.execute(
                "SELECT xact_commit, tup_inserted, tup_updated, tup_fetched"
                " FROM pg_stat_database WHERE datname = 'bench'"
            ).fetchone()
        assert row is not None
        redis = Redis.from_url(self.redis_url)
        try:
            commands = int(redis.info("stats")["total_commands_processed"])
        finally:
            redis.close()
        names = ("pg_commits", "pg_inserted", "pg_updated", "pg_fetched", "redis_commands")
        return dict(zip(names, (*row, commands), strict=True))

    def worker_cpus(self) -> list[float]:
        tree = children()
        return [tree_cpu(worker.pid, tree) for worker in self.workers]

    @contextmanager
    def running_workers(self, count: int) -> Iterator[None]:
        """`count` worker processes, registered with RQ before this yields."""
        with open(self.log, "ab") as log:
            self.workers = [
                subprocess.Popen([str(LOUPE), "worker"], env=self.env, stdout=log, stderr=log)
                for _ in range(count)
            ]
        redis = Redis.from_url(self.redis_url)
        try:
            deadline = time.monotonic() + 60
            while redis.scard("rq:workers") < count:
                if time.monotonic() > deadline or any(w.poll() is not None for w in self.workers):
                    raise RuntimeError(f"the workers did not start (see {self.log})")
                time.sleep(0.1)
            yield
        finally:
            for worker in self.workers:
                worker.terminate()
            for worker in self.workers:
                try:
                    worker.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    worker.kill()
            self.workers = []
            # A worker stopped mid-wait may leave its registration for a while.
            while redis.scard("rq:workers") and time.monotonic() < deadline + 30:
                time.sleep(0.1)
            redis.close()


@contextmanager
def stack(judge: ScriptedJudge, extra_env: dict[str, str]) -> Iterator[Stack]:
    """PostgreSQL, Redis and `loupe serve` (no workers yet)."""
    with ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="loupe-scale-")))
        postgres = stack.enter_context(running_postgres())
        redis = stack.enter_context(running_redis())
        port = free_port()
        env = {
            **os.environ,
            "PYTHONPATH": pythonpath(),
            "LOUPE_PORT": str(port),
            "LOUPE_JUDGE_BASE_URL": judge.base_url,
            "LOUPE_JUDGE_API_KEY": "sk-bench",
            "LOUPE_MAX_BODY_BYTES": str(256 * 1024 * 1024),
            "LOUPE_DATABASE_URL": postgres.create_database("bench"),
            "LOUPE_REDIS_URL": redis.url,
            # Distributed mode refuses to start without a shared key of 32 bytes or more.
            "LOUPE_SECRET_KEY": "bench-secret-key-of-at-least-32-bytes",
            **extra_env,
        }
        subprocess.run([str(LOUPE), "migrate"], env=env, check=True, capture_output=True)
        log = tmp / "service.log"
        with open(log, "wb") as output:
            api = subprocess.Popen([str(LOUPE), "serve"], env=env, stdout=output, stderr=output)
        try:
            base_url = f"http://127.0.0.1:{port}"
            wait_ready(base_url, api)
            yield Stack(
                base_url=base_url,
                env=env,
                judge=judge,
                api=api.pid,
                postgres=find_process("postgres", "-D", f"-p {postgres.port} "),
                redis=find_process("redis-server", f":{redis.port}"),
                redis_url=redis.url,
                postgres_port=postgres.port,
                log=log,
            )
        finally:
            api.terminate()
            try:
                api.wait(timeout=20)
            except subprocess.TimeoutExpired:
                api.kill()


def idle(service: Stack, seconds: float) -> dict[str, float]:
    """Cores each component uses with no work queued (heartbeats, tickers, RQ's polling)."""
    before = service.cpu()
    time.sleep(seconds)
    after = service.cpu()
    return {name: (after[name] - before[name]) / seconds for name in (*COMPONENTS, "machine")}


def run_once(service: Stack, key: str, n: int, latency: float, evaluations: int) -> dict:
    """Submit `n` test cases as `evaluations` evaluations at once; wait for all of them."""
    calibration = calibration_seconds()
    judge = service.judge
    judge.reset()
    judge.script(plausible_answer)
    judge.latency = latency
    run = uuid.uuid4().hex[:8]
    cases = test_cases(n, run)
    per = -(-n // evaluations)
    bodies = [
        {"test_cases": cases[start : start + per], "metrics": METRICS} for start in range(0, n, per)
    ]
    headers = {"Authorization": f"Bearer {key}"}
    with httpx.Client(
        base_url=service.base_url, headers=headers, timeout=300, trust_env=False
    ) as client:
        operations_before = service.operations()
        before = service.cpu()
        workers_before = service.worker_cpus()
        started_at = time.time()
        ids = []
        for body in bodies:
            response = client.post("/v1/evaluations", json=body)
            response.raise_for_status()
            ids.append(response.json()["id"])
        states: dict[str, dict] = {}
        while len(states) < len(ids):
            for evaluation_id in ids:
                if evaluation_id in states:
                    continue
                state = client.get(f"/v1/evaluations/{evaluation_id}").json()
                if state["status"] in ("completed", "failed", "canceled"):
                    states[evaluation_id] = state
            time.sleep(0.5)
        after = service.cpu()
        workers_after = service.worker_cpus()
        elapsed = time.time() - started_at
    # Backends report their statistics within a second of a transaction's end.
    time.sleep(1.5)
    operations = {
        name: value - operations_before[name] for name, value in service.operations().items()
    }
    # Wall time ends when the service marked the last evaluation done, not when a poll saw it.
    finished = max(datetime.fromisoformat(s["completed_at"]).timestamp() for s in states.values())
    wall = finished - started_at
    calls = len(judge.requests)
    # CPU over the whole window this process watched (the polls' last half second included).
    cpu = {name: after[name] - before[name] for name in (*COMPONENTS, "machine", "bench")}
    # What else ran on the machine meanwhile (other sessions' tests share these cores).
    cpu["other"] = cpu["machine"] - sum(cpu[name] for name in COMPONENTS if name != "judge")
    cpu["other"] -= cpu["bench"]
    per_worker = [a - b for a, b in zip(workers_after, workers_before, strict=True)]
    return {
        "workers": len(service.workers),
        "evaluations": len(ids),
        "latency_s": latency,
        "n": n,
        "statuses": sorted({s["status"] for s in states.values()}),
        "errored": sum(s["result_counts"]["errored"] for s in states.values()),
        "judge_calls": calls,
        "wall_s": wall,
        "s_per_1000_calls": 1000 * wall / calls,
        "calls_per_s": calls / wall,
        "max_in_flight": judge.max_in_flight,
        # The judge's floor: every call waits `latency` with at most max_in_flight at once.
        "wall_over_bound": wall / (calls * latency / judge.max_in_flight) if latency else None,
        "cpu_s": cpu,
        "cpu_ms_per_call": {name: 1000 * cpu[name] / calls for name in COMPONENTS},
        "service_ms_per_call": 1000 * (cpu["api"] + cpu["workers"]) / calls,
        "cores": {name: cpu[name] / elapsed for name in (*COMPONENTS, "machine", "other")},
        "worker_cores": [round(c / elapsed, 2) for c in per_worker],
        "per_call": {name: value / calls for name, value in operations.items()},
        "calibration_s": calibration,
    }


HEADER = (
    f"{'workers':>7} {'evals':>5} {'latency':>7} {'N':>5} {'calls':>6} {'wall s':>7} "
    f"{'s/1k calls':>10} {'calls/s':>7} {'in flight':>9} {'wall/bound':>10} "
    + " ".join(f"{name + ' s':>10}" for name in COMPONENTS)
    + f" {'busy cores':>10} {'other cores':>11} {'calib s':>7}"
)
HEADER_MS = (
    f"{'workers':>7} {'latency':>7} "
    + " ".join(f"{name + ' ms':>11}" for name in COMPONENTS)
    + f" {'service ms':>10} "
    + " ".join(f"{name + ' cores':>11}" for name in ("api", "postgres", "redis", "judge"))
    + f" {'per-worker cores':>20}"
)
HEADER_OPS = f"{'workers':>7} {'latency':>7} " + " ".join(
    f"{name + '/call':>19}"
    for name in ("pg_commits", "pg_inserted", "pg_updated", "pg_fetched", "redis_commands")
)


def print_row(row: dict) -> None:
    cpu = row["cpu_s"]
    ratio = f"{row['wall_over_bound']:.2f}" if row["wall_over_bound"] else "-"
    print(
        f"{row['workers']:7d} {row['evaluations']:5d} {row['latency_s']:7.3f} {row['n']:5d} "
        f"{row['judge_calls']:6d} {row['wall_s']:7.2f} {row['s_per_1000_calls']:10.2f} "
        f"{row['calls_per_s']:7.0f} {row['max_in_flight']:9d} {ratio:>10} "
        + " ".join(f"{cpu[name]:10.2f}" for name in COMPONENTS)
        + f" {row['cores']['machine']:10.2f} {row['cores']['other']:11.2f}"
        + f" {row['calibration_s']:7.3f}",
        flush=True,
    )


def print_ms(row: dict) -> None:
    ms = row["cpu_ms_per_call"]
    cores = row["cores"]
    print(
        f"{row['workers']:7d} {row['latency_s']:7.3f} "
        + " ".join(f"{ms[name]:11.2f}" for name in COMPONENTS)
        + f" {row['service_ms_per_call']:10.2f} "
        + " ".join(f"{cores[name]:11.2f}" for name in ("api", "postgres", "redis", "judge"))
        + f" {' '.join(f'{c:.2f}' for c in row['worker_cores']):>20}",
        flush=True,
    )


def print_ops(row: dict) -> None:
    print(
        f"{row['workers']:7d} {row['latency_s']:7.3f} "
        + " ".join(f"{value:19.2f}" for value in row["per_call"].values()),
        flush=True,
    )


def fmt_idle(cores: dict[str, float]) -> str:
    return ", ".join(f"{name} {value:.3f}" for name, value in cores.items()) + " cores"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workers", default="1,2,4", help="worker counts, comma-separated")
    parser.add_argument(
        "--runs",
        default="0:4000:4,0.2:4000:4",
        help="comma-separated latency_seconds:N:evaluations triples (N cases in that many "
        "evaluations submitted at once)",
    )
    parser.add_argument(
        "--env",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a LOUPE_ setting for the API and the workers (repeatable), e.g. "
        "LOUPE_JOB_SLICE_SIZE=250",
    )
    parser.add_argument(
        "--idle",
        type=float,
        default=10.0,
        help="seconds of idle CPU measured per worker count (0: none)",
    )
    args = parser.parse_args()
    counts = [int(count) for count in args.workers.split(",")]
    runs = [
        (float(latency), int(n), int(evaluations))
        for latency, n, evaluations in (item.split(":") for item in args.runs.split(","))
    ]
    extra_env = dict(item.split("=", 1) for item in args.env)
    print(f"machine: {os.cpu_count()} CPUs; settings: {extra_env or 'defaults'}")
    results = []
    idles: list[tuple[int, dict[str, float]]] = []
    with ScriptedJudge() as judge, stack(judge, extra_env) as service:
        key = subprocess.run(
            [str(LOUPE), "keys", "create", "--create-tenant", "--tenant", "bench"],
            env=service.env,
            check=True,
            capture_output=True,
            text=True,
        ).stdout.split()[-1]
        for count in counts:
            with service.running_workers(count):
                # Warm-up: imports and connections in every worker (one small evaluation each).
                run_once(service, key, 20 * count, 0.0, count)
                if args.idle > 0:  # 0: not measured
                    cores = idle(service, args.idle)
                    idles.append((count, cores))
                    print(f"idle, {count} workers: " + fmt_idle(cores), flush=True)
                for latency, n, evaluations in runs:
                    row = run_once(service, key, n, latency, evaluations)
                    results.append(row)
                    print(HEADER)
                    print_row(row)
    print()
    print(HEADER)
    for row in results:
        print_row(row)
    print()
    print(HEADER_MS)
    for row in results:
        print_ms(row)
    print()
    print(HEADER_OPS)
    for row in results:
        print_ops(row)
    print()
    for count, cores in idles:
        print(f"idle, {count} workers: " + fmt_idle(cores))
    print(json.dumps({"runs": results, "idle_cores": dict(idles)}))


if __name__ == "__main__":
    main()
