"""Judge throughput: all four judged metrics over N test cases (text + 2 images each).

Starts a scripted OpenAI-compatible judge on loopback with a fixed latency and the service in
embedded mode (SQLite, in-process worker) and RQ mode (PostgreSQL + Redis + 1 `loupe worker`),
submits N test cases, waits for completion and prints, per run: judge calls per test case,
wall time, calls/s, service CPU ms per judge call (API + worker processes, from /proc), and the
ratio of wall time to the bound calls x latency / 64 (the in-flight cap before issue 31) and
the peak of judge calls in flight. Wall time runs from the submit to the evaluation's
`completed_at`; `calib s` is a fixed Python loop's CPU time before the run (this machine's speed
at the time), `judge ms` the scripted judge's own CPU per call (the same work every run, so a
second gauge of the machine's speed). Under each row, the CPU per call by process (the API, the
workers) as user and system time, and the workers' by thread: the judge loop
(`loupe-judge-loop`), the threads writing results and reading the judge cache (`asyncio_`), RQ's
main thread; `--py-spy` names the threads (Python 3.11 gives the system no names).

`--max-concurrency 64,1024` runs each mode with LOUPE_JUDGE_MAX_CONCURRENCY at each value (64:
the in-flight limit never grows past LOUPE_JUDGE_CONCURRENCY, as before issue 31), an A/B in one
run. `--deepeval-python` also runs deepeval 4.3.1's `evaluate()` (its four analogous metrics, a
separate virtualenv) over the first run's N at its latency against the same judge, and prints
each Loupe row's speed-up over it.

    .venv/bin/python bench/throughput.py                         # the recorded set of runs
    .venv/bin/python bench/throughput.py --modes embedded --runs 0.2:400,0:400
    .venv/bin/python bench/throughput.py --modes rq --runs 0.2:400,0:400 \
        --max-concurrency 64,1024 --deepeval-python /tmp/deepeval-venv/bin/python
"""

import argparse
import base64
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import uuid
from contextlib import ExitStack, contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.procs import children, find_process, pythonpath, tree_cpu  # noqa: E402
from bench.rate_limit import OTHER_CLIENTS_ANSWER  # noqa: E402
from tests.fixtures.judge import JUDGED_METRICS as METRICS  # noqa: E402
from tests.fixtures.judge import Reply, ScriptedJudge, plausible_answer  # noqa: E402
from tests.fixtures.services import free_port, running_postgres, running_redis  # noqa: E402

LOUPE = Path(sys.executable).parent / "loupe"
CONCURRENCY = 64
TICKS = os.sysconf("SC_CLK_TCK")


def png(seed: int) -> str:
    image = Image.new("RGB", (64, 48), ((seed * 37) % 256, (seed * 91) % 256, (seed * 53) % 256))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()


IMAGES = [png(seed) for seed in range(20)]


def test_cases(n: int, run: str) -> list[dict[str, Any]]:
    def image(i: int) -> dict:
        return {"type": "image_url", "image_url": {"url": IMAGES[i % len(IMAGES)]}}

    return [
        {
            "input": [f"[{run}] What does picture {i} show?", image(i)],
            "actual_output": f"[{run}] It shows shape number {i}.",
            "expected_output": f"Shape number {i}.",
            "retrieval_context": [f"[{run}] Document {i} describes shape {i}.", [image(i + 7)]],
        }
        for i in range(n)
    ]


def calibration_seconds() -> float:
    """CPU seconds of a fixed pure-Python loop: how fast this machine runs Python right now.

    Shared machines vary (seen here: 0.44-0.78 s for the same loop within minutes), so each
    run prints it beside its CPU figures.
    """
    started = time.process_time()
    total = 0
    for i in range(3_000_000):
        total += i * i % 7
    return time.process_time() - started


def cpu_split(pid: int) -> tuple[float, float]:
    """User and system CPU seconds of `pid` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) / TICKS, int(fields[12]) / TICKS  # utime, stime


def thread_cpu(pids: list[int]) -> dict[str, float]:
    """CPU seconds (user + system) so far of every thread of `pids` but the first (the API),
    by thread id."""
    totals: dict[str, float] = {}
    for pid in pids[1:]:
        for task in Path(f"/proc/{pid}/task").iterdir():
            try:
                fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
            except FileNotFoundError:
                continue  # the thread ended
            totals[task.name] = (int(fields[11]) + int(fields[12])) / TICKS
    return totals


def thread_names(pids: list[int], py_spy: str | None) -> dict[str, str]:
    """Python's names of the threads of `pids` by thread id (`py-spy dump` reads them; Python
    3.11 gives the system none), with digits dropped (`asyncio_3` is `asyncio_`)."""
    names: dict[str, str] = {}
    for pid in pids[1:] if py_spy else []:
        dump = subprocess.run([py_spy, "dump", "--pid", str(pid)], capture_output=True, text=True)
        for match in re.finditer(r'^Thread (\d+) \([^)]*\): "([^"]*)"', dump.stdout, re.M):
            names[match[1]] = match[2].rstrip("0123456789")
    return names


def wait_ready(base_url: str, process: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
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


# RQ mode's PostgreSQL and Redis servers, by name: pid (the service in use's).
SERVERS: dict[str, int] = {}


def servers_cpu() -> dict[str, float]:
    """CPU seconds so far of each server in SERVERS, its processes' descendants included."""
    tree = children()
    return {name: tree_cpu(pid, tree) for name, pid in SERVERS.items()}


@contextmanager
def service(mode: str, judge: ScriptedJudge, workers: int = 1, **settings: str):
    """Start Loupe in `mode` (`settings`: more environment; `workers`: `loupe worker`s in RQ
    mode); yields (base_url, env, [pids])."""
    with ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="loupe-bench-")))
        port = free_port()
        env = {
            **os.environ,
            "PYTHONPATH": pythonpath(),
            "LOUPE_PORT": str(port),
            "LOUPE_JUDGE_BASE_URL": judge.base_url,
            "LOUPE_JUDGE_API_KEY": "sk-bench",
            "LOUPE_JUDGE_CONCURRENCY": str(CONCURRENCY),
            "LOUPE_MAX_BODY_BYTES": str(256 * 1024 * 1024),
            **settings,
        }
        if mode == "embedded":
            env["LOUPE_DATABASE_URL"] = f"sqlite:///{tmp}/loupe.db"
        else:
            postgres = stack.enter_context(running_postgres())
            redis = stack.enter_context(running_redis())
            env["LOUPE_DATABASE_URL"] = postgres.create_database("bench")
            env["LOUPE_REDIS_URL"] = redis.url
            # Distributed mode refuses to start without a shared key of 32 bytes or more.
            env["LOUPE_SECRET_KEY"] = "bench-secret-key-of-at-least-32-bytes"
            # Their CPU is counted beside the service's (not in it): servers of their own.
            SERVERS["postgres"] = find_process("postgres", "-D", f"-p {postgres.port} ")
            SERVERS["redis"] = find_process("redis-server", f":{redis.port}")
        subprocess.run([str(LOUPE), "migrate"], env=env, check=True, capture_output=True)
        log = open(tmp / "service.log", "wb")  # noqa: SIM115 - closed with the stack
        stack.callback(log.close)
        processes = [subprocess.Popen([str(LOUPE), "serve"], env=env, stdout=log, stderr=log)]
        if mode == "rq":
            processes.extend(
                subprocess.Popen([str(LOUPE), "worker"], env=env, stdout=log, stderr=log)
                for _ in range(workers)
            )
        if mode != "rq":
            SERVERS.clear()
        try:
            base_url = f"http://127.0.0.1:{port}"
            wait_ready(base_url, processes[0])
            yield base_url, env, [p.pid for p in processes]
        finally:
            for process in processes:
                process.terminate()
            for process in processes:
                try:
                    process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    process.kill()


def run_once(
    base_url: str,
    key: str,
    pids: list[int],
    judge: ScriptedJudge,
    n: int,
    latency: float,
    poll: float = 0.5,
    py_spy: str | None = None,
) -> dict:
    calibration = calibration_seconds()
    judge.reset()
    seen: list[float] = []

    def timed(request: dict) -> Reply | dict:
        seen.append(time.perf_counter())
        return plausible_answer(request)

    judge.script(timed)
    judge.latency = latency
    body = {"test_cases": test_cases(n, uuid.uuid4().hex[:8]), "metrics": METRICS}
    headers = {"Authorization": f"Bearer {key}"}
    with httpx.Client(base_url=base_url, headers=headers, timeout=300, trust_env=False) as client:
        split_before = [cpu_split(pid) for pid in pids]
        threads_before = thread_cpu(pids)
        servers_before = servers_cpu()
        cpu_before = sum(map(sum, split_before))
        # This process serves the scripted judge: its CPU is the provider's, not Loupe's.
        judge_cpu_before = time.process_time()
        started = time.perf_counter()
        started_at = time.time()
        response = client.post("/v1/evaluations", json=body)
        response.raise_for_status()
        evaluation_id = response.json()["id"]
        while True:
            state = client.get(f"/v1/evaluations/{evaluation_id}").json()
            if state["status"] in ("completed", "failed", "canceled"):
                break
            time.sleep(poll)
        split_after = [cpu_split(pid) for pid in pids]
        threads_after = thread_cpu(pids)
        servers_after = servers_cpu()
        cpu = sum(map(sum, split_after)) - cpu_before
        judge_cpu = time.process_time() - judge_cpu_before
        # Wall time ends when the service marked the evaluation done (same machine, same
        # clock), not when a poll saw it: polling granularity adds nothing.
        completed_at = datetime.fromisoformat(state["completed_at"]).timestamp()
        wall = completed_at - started_at
        finished = started + wall
    calls = len(judge.requests)
    names = thread_names(pids, py_spy)
    by_name: dict[str, float] = {}
    for tid, seconds in threads_after.items():
        name = names.get(tid, "?")
        by_name[name] = (
            by_name.get(name, 0.0) + 1000 * (seconds - threads_before.get(tid, 0.0)) / calls
        )
    bound = calls * latency / CONCURRENCY
    return {
        "n": n,
        "latency_s": latency,
        "status": state["status"],
        "errored": state["result_counts"]["errored"],
        "judge_calls": calls,
        "calls_per_case": calls / n,
        "wall_s": wall,
        "calls_per_s": calls / wall,
        "cpu_ms_per_call": 1000 * cpu / calls,
        "judge_cpu_ms_per_call": 1000 * judge_cpu / calls,
        # Where the service's CPU went: the API process, then its workers; user and system.
        "api_user_sys_ms_per_call": [
            1000 * (split_after[0][i] - split_before[0][i]) / calls for i in (0, 1)
        ],
        # A worker's threads (RQ mode), by name: the judge loop, the database threads...
        "worker_threads_ms_per_call": by_name,
        "workers_user_sys_ms_per_call": [
            1000
            * sum(a[i] - b[i] for a, b in zip(split_after[1:], split_before[1:], strict=True))
            / calls
            for i in (0, 1)
        ],
        # RQ mode: PostgreSQL's and Redis's CPU per call (servers of their own, not counted
        # in cpu_ms_per_call; embedded mode's SQLite is, being in the service's process).
        "servers_ms_per_call": {
            name: 1000 * (servers_after[name] - servers_before.get(name, 0.0)) / calls
            for name in servers_after
        },
        "bound_s": bound,
        "wall_over_bound": wall / bound if bound else None,
        "max_in_flight": judge.max_in_flight,
        "calibration_s": calibration,
        # Where the wall time beyond the judge's goes: before the first call, after the last.
        "to_first_call_s": seen[0] - started if seen else None,
        "after_last_call_s": finished - seen[-1] - latency if seen else None,
    }


def run_deepeval(
    judge: ScriptedJudge, python: str, n: int, latency: float, max_concurrent: int | None = None
) -> dict:
    """deepeval's `evaluate()` over n cases at `latency` against the same judge (no limit),
    `max_concurrent` test cases at once (None: deepeval's default, 20)."""
    judge.reset()
    judge.latency = latency
    judge.script(lambda request: OTHER_CLIENTS_ANSWER)
    env = {**os.environ, "DEEPEVAL_TELEMETRY_OPT_OUT": "YES", "OPENAI_API_KEY": "sk-bench"}
    scratch = tempfile.mkdtemp(prefix="deepeval-bench-")  # deepeval writes .deepeval/ here
    done = subprocess.run(
        [
            python,
            str(ROOT / "bench" / "deepeval_rate_limit.py"),
            judge.base_url,
            str(n),
            *([str(max_concurrent)] if max_concurrent else []),
        ],
        env=env,
        cwd=scratch,
        capture_output=True,
        text=True,
        timeout=3600,
    )
    if done.returncode != 0:
        raise RuntimeError(f"deepeval failed:\n{done.stderr[-3000:]}")
    outcome = json.loads(done.stdout.strip().splitlines()[-1])
    return {
        **outcome,
        "n": n,
        "latency_s": latency,
        "judge_calls": len(judge.requests),
        "max_in_flight": judge.max_in_flight,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--modes", default="embedded,rq")
    parser.add_argument(
        "--runs",
        default="0.2:400,0:400,0.05:100,0.05:400,0.05:1000,0.05:4000",
        help="comma-separated latency_seconds:N pairs",
    )
    parser.add_argument(
        "--poll",
        type=float,
        default=0.5,
        help="seconds between polls (the wall time comes from the evaluation's completed_at)",
    )
    parser.add_argument(
        "--max-concurrency",
        default="",
        help="comma-separated LOUPE_JUDGE_MAX_CONCURRENCY values, each a service of its own "
        "(default: the service's default)",
    )
    parser.add_argument(
        "--gc-young-threshold",
        default="",
        help="comma-separated LOUPE_GC_YOUNG_THRESHOLD values, each a service of its own (0: "
        "CPython's collector as it is, as before issue 31)",
    )
    parser.add_argument(
        "--workers",
        default="1",
        help="comma-separated counts of `loupe worker`s (RQ mode), each a service of its own",
    )
    parser.add_argument(
        "--slice-size",
        help="LOUPE_JOB_SLICE_SIZE for every service (default 1,000: one job for N <= 1,000, "
        "which one worker scores)",
    )
    parser.add_argument(
        "--py-spy", help="a py-spy executable: the workers' CPU is shown by thread name"
    )
    parser.add_argument("--deepeval-python", help="a python with deepeval 4.3.1 installed")
    parser.add_argument(
        "--deepeval-max-concurrent",
        type=int,
        help="deepeval's AsyncConfig.max_concurrent, the test cases it scores at once (default: "
        "its own, 20), to check that its multiple is not its default concurrency's",
    )
    args = parser.parse_args()
    runs = [(float(lat), int(n)) for lat, n in (item.split(":") for item in args.runs.split(","))]
    ceilings = [value for value in args.max_concurrency.split(",") if value] or [None]
    thresholds = [value for value in args.gc_young_threshold.split(",") if value] or [None]
    worker_counts = [int(value) for value in args.workers.split(",") if value]
    variants = [
        (ceiling, gc, workers)
        for ceiling in ceilings
        for gc in thresholds
        for workers in worker_counts
    ]
    print(
        f"{'mode':9} {'max':>5} {'gc':>7} {'w':>2} {'latency':>7} {'N':>5} {'calls/case':>10} "
        f"{'wall s':>8} "
        f"{'calls/s':>8} {'CPU ms/call':>11} {'judge ms':>8} {'peak':>5} {'bound64 s':>9} "
        f"{'wall/bound':>10} {'errored':>7} {'first s':>7} {'tail s':>6} {'calib s':>7}"
    )
    results = []
    with ScriptedJudge() as judge:
        for mode in args.modes.split(","):
            for ceiling, gc, workers in variants:
                if mode == "embedded" and workers != worker_counts[0]:
                    continue  # the embedded mode has its one in-process worker
                settings = {"LOUPE_JUDGE_MAX_CONCURRENCY": ceiling} if ceiling else {}
                if gc:
                    settings["LOUPE_GC_YOUNG_THRESHOLD"] = gc
                if args.slice_size:
                    settings["LOUPE_JOB_SLICE_SIZE"] = args.slice_size
                with service(mode, judge, workers, **settings) as (base_url, env, pids):
                    key = subprocess.run(
                        [str(LOUPE), "keys", "create", "--create-tenant", "--tenant", "bench"],
                        env=env,
                        check=True,
                        capture_output=True,
                        text=True,
                    ).stdout.split()[-1]
                    run_once(base_url, key, pids, judge, 20, 0.0)  # warm-up: imports, caches
                    for latency, n in runs:
                        row = run_once(
                            base_url, key, pids, judge, n, latency, args.poll, args.py_spy
                        )
                        row["mode"], row["max_concurrency"] = mode, ceiling or "default"
                        row["gc_young_threshold"] = gc or "default"
                        row["workers"] = workers if mode == "rq" else 0
                        results.append(row)
                        ratio = f"{row['wall_over_bound']:.2f}" if row["wall_over_bound"] else "-"
                        print(
                            f"{mode:9} {row['max_concurrency']:>5} "
                            f"{row['gc_young_threshold']:>7} {row['workers']:2d} "
                            f"{latency:7.3f} {n:5d} "
                            f"{row['calls_per_case']:10.2f} {row['wall_s']:8.2f} "
                            f"{row['calls_per_s']:8.0f} {row['cpu_ms_per_call']:11.2f} "
                            f"{row['judge_cpu_ms_per_call']:8.2f} "
                            f"{row['max_in_flight']:5d} {row['bound_s']:9.2f} {ratio:>10} "
                            f"{row['errored']:7d} {row['to_first_call_s']:7.2f} "
                            f"{row['after_last_call_s']:6.2f} {row['calibration_s']:7.3f}",
                            flush=True,
                        )
                        api, work = (
                            row["api_user_sys_ms_per_call"],
                            row["workers_user_sys_ms_per_call"],
                        )
                        print(
                            f"{'':9} CPU ms/call: API user {api[0]:.3f} sys {api[1]:.3f}, "
                            f"worker(s) user {work[0]:.3f} sys {work[1]:.3f}; by thread: "
                            + ", ".join(
                                f"{name} {ms:.3f}"
                                for name, ms in sorted(
                                    row["worker_threads_ms_per_call"].items(), key=lambda x: -x[1]
                                )
                            )
                            + "".join(
                                f"; servers: {name} {ms:.3f}"
                                for name, ms in row["servers_ms_per_call"].items()
                            ),
                            flush=True,
                        )
        if args.deepeval_python:
            latency, n = runs[0]
            theirs = run_deepeval(
                judge, args.deepeval_python, n, latency, args.deepeval_max_concurrent
            )
            expected = len(METRICS) * n
            # deepeval drops a test case whose metric timed out in its own loop: a run that
            # returned fewer results did less work, and its time is no fair baseline.
            theirs["complete"] = theirs["results"] == expected and not theirs["errored"]
            print(
                f"deepeval 4.3.1: N={n} latency {latency:.3f}: {theirs['wall_s']:.1f} s, "
                f"{theirs['judge_calls']} judge calls, {theirs['results']} of {expected} "
                f"results, {theirs['errored']} errored, {theirs['max_concurrent']} test cases at "
                f"once, peak {theirs['max_in_flight']} calls in flight (Loupe's: each row's "
                "peak column); its cases are text, Loupe's carry two images each"
                + ("" if theirs["complete"] else " -- INCOMPLETE: not a fair baseline"),
                flush=True,
            )
            for row in results:
                if (row["latency_s"], row["n"]) == (latency, n):
                    print(
                        f"  Loupe {row['mode']} max {row['max_concurrency']} "
                        f"gc {row['gc_young_threshold']} workers {row['workers']}: "
                        f"{row['wall_s']:.2f} s, {theirs['wall_s'] / row['wall_s']:.1f}x deepeval"
                    )
            results.append({"client": "deepeval", **theirs})
    print(json.dumps(results))


if __name__ == "__main__":
    main()
