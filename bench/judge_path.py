"""CPU per judge call of the judge path alone: the four judged metrics' `measure()` over N text
test cases against a scripted judge in another process, with no database, queue or API.

It isolates what issue 31's "service CPU per judge call" spends in the metrics, the judge
client, the `openai` SDK and aiohttp from the database work around them (compare with
`bench/throughput.py` at 0 ms). Each setting of the garbage collector runs in a process of its
own: `default` is CPython's, `settled` what `loupe serve` and `loupe worker` do
(`app/heap.py`), `off` none at all (a floor, not a setting to run with). `calib s` is a fixed
Python loop's CPU time (this machine's speed at the time).

    .venv/bin/python bench/judge_path.py                       # N = 400, every setting, 3 runs
    .venv/bin/python bench/judge_path.py --n 800 --runs 5 --gc settled
"""

import argparse
import asyncio
import contextlib
import gc
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def serve_judge() -> None:
    """A scripted judge answering every Loupe task plausibly, until SIGTERM."""
    from tests.fixtures.judge import ScriptedJudge, plausible_answer

    with ScriptedJudge() as judge:
        judge.script(plausible_answer)
        print(judge.base_url, flush=True)
        signal.sigwait({signal.SIGTERM, signal.SIGINT})


@contextlib.contextmanager
def judge_process() -> Iterator[str]:
    """The scripted judge in a process of its own (its CPU is not the measured one): its URL."""
    judge = subprocess.Popen(
        [sys.executable, "-c", "import bench.judge_path as b; b.serve_judge()"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        yield judge.stdout.readline().strip()  # type: ignore[union-attr]
    finally:
        judge.terminate()
        judge.wait(timeout=30)


def calibration_seconds() -> float:
    started = time.process_time()
    total = 0
    for value in range(2_000_000):
        total += value % 7
    return time.process_time() - started


def measure_once(base_url: str, n: int, collector: str) -> dict:
    """One run in this process: CPU seconds per judge call of every metric over n cases."""
    from app import heap
    from app.judges import JudgeClient, JudgeEndpoint
    from app.metrics import MetricContext, measure, parse_spec
    from app.metrics._types import MetricTestCase
    from tests.fixtures.judge import JUDGED_METRICS

    specs = [parse_spec(metric) for metric in JUDGED_METRICS]
    cases = [
        MetricTestCase(
            index=i,
            id=str(i),
            input=f"What does document {i} say?",
            actual_output=f"It describes shape {i}.",
            expected_output=f"Shape {i}.",
            retrieval_context=[f"Document {i} describes shape {i}."],
            context=[f"Shape {i} is a polygon."],
        )
        for i in range(n)
    ]
    if collector == "settled":
        heap.settle(50_000)
    elif collector == "off":
        gc.disable()
    calibration = calibration_seconds()

    async def go() -> dict:
        endpoint = JudgeEndpoint(
            base_url=base_url, api_key="sk-bench", default_model="judge", max_concurrency=1024
        )
        client = JudgeClient(endpoint)
        ctx = MetricContext(evaluation_id="bench", judge=client)
        try:
            # Warm-up: connections, caches, the schemas' JSON.
            await asyncio.gather(*(measure(spec, cases[0], ctx) for spec in specs))
            cpu, wall = time.process_time(), time.perf_counter()
            results = await asyncio.gather(
                *(measure(spec, case, ctx) for case in cases for spec in specs)
            )
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        finally:
            await client.close()
        calls = sum(result.usage.calls for result in results)
        return {
            "collector": collector,
            "n": n,
            "judge_calls": calls,
            "errored": sum(1 for result in results if result.error is not None),
            "cpu_ms_per_call": 1000 * cpu / calls,
            "wall_s": wall,
            "calibration_s": calibration,
        }

    return asyncio.run(go())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=400)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--gc", default="default,settled,off", help="comma-separated settings")
    parser.add_argument("--one", nargs=3, metavar=("BASE_URL", "N", "GC"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        base_url, n, collector = args.one
        print(json.dumps(measure_once(base_url, int(n), collector)))
        return
    with judge_process() as base_url:
        print(f"{'gc':8} {'N':>5} {'calls':>6} {'errored':>7} {'CPU ms/call':>11} {'calib s':>7}")
        rows = []
        for _ in range(args.runs):
            for collector in args.gc.split(","):
                done = subprocess.run(
                    [sys.executable, __file__, "--one", base_url, str(args.n), collector],
                    env={**os.environ, "PYTHONHASHSEED": "0"},
                    capture_output=True,
                    text=True,
                    check=True,
                )
                row = json.loads(done.stdout.strip().splitlines()[-1])
                rows.append(row)
                print(
                    f"{collector:8} {row['n']:5d} {row['judge_calls']:6d} {row['errored']:7d} "
                    f"{row['cpu_ms_per_call']:11.3f} {row['calibration_s']:7.3f}",
                    flush=True,
                )
        print(json.dumps(rows))


if __name__ == "__main__":
    main()
