"""Provider rate limits: a loopback judge allowing RPM requests a minute (a one-second burst).

The judge is an OpenAI-compatible server on loopback (tests/fixtures/judge.py) behind a token
bucket: RPM/60 tokens a second, at most RPM/60 stored (the one-second burst). A request finding
the bucket empty gets 429 with `Retry-After` (whole seconds until a token, at least 1) and the
`x-ratelimit-*` headers OpenAI sends; every answer carries them too. Loupe runs in RQ mode
(PostgreSQL, Redis, `loupe serve` and 1 or 3 `loupe worker` processes) and scores N test cases
with the four seed judged metrics. Printed per run: requests answered and refused, the share
refused, the sustained rate (answered requests over the time from the first request to the
last answer) against the limit, results errored, and the wall time.

    .venv/bin/python bench/rate_limit.py                      # 1 and 3 workers, 600 RPM
    .venv/bin/python bench/rate_limit.py --workers 3 --cases 60 --rpm 1200
"""

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.procs import pythonpath  # noqa: E402
from tests.fixtures.judge import (  # noqa: E402
    JUDGED_METRICS,
    PLAUSIBLE_ANSWERS,
    Reply,
    ScriptedJudge,
    plausible_answer,
    task_of,
)
from tests.fixtures.services import free_port, running_postgres, running_redis  # noqa: E402

LOUPE = Path(sys.executable).parent / "loupe"


# deepeval's prompts are not Loupe's tasks: one object holding every field its four metrics'
# schemas read (pydantic ignores the others).
OTHER_CLIENTS_ANSWER = {
    "steps": ["Read the input.", "Check the output answers it."],
    "score": 8,
    "reason": "The output answers the input.",
    "truths": ["The item is blue."],
    "claims": ["The item is blue."],
    "statements": ["The item is blue."],
    "verdicts": [{"verdict": "yes", "reason": "It matches."}],
}


class TokenBucket:
    """The provider's limit: `rpm` a minute, refilled continuously, at most a second's worth."""

    def __init__(self, rpm: int) -> None:
        self.rpm = rpm
        self.rate = rpm / 60.0
        self.capacity = self.rate
        self.tokens = self.capacity
        self.stamp = time.monotonic()
        self.lock = threading.Lock()
        self.answered: list[float] = []
        self.refused: list[float] = []

    def admit(self, request: dict) -> Reply | dict:
        with self.lock:
            now = time.monotonic()
            self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
            self.stamp = now
            if self.tokens >= 1:
                self.tokens -= 1
                self.answered.append(now)
                allowed = True
            else:
                self.refused.append(now)
                allowed = False
            headers = {
                "x-ratelimit-limit-requests": str(self.rpm),
                "x-ratelimit-remaining-requests": str(math.floor(self.tokens)),
                # Until the bucket is full again, as OpenAI counts it.
                "x-ratelimit-reset-requests": f"{(self.capacity - self.tokens) / self.rate:.3f}s",
            }
        if not allowed:
            wait = max(1, math.ceil((1 - self.tokens) / self.rate))
            return Reply(
                status=429,
                content="Rate limit reached for requests",
                error_code="rate_limit_exceeded",
                headers={**headers, "Retry-After": str(wait)},
            )
        if task_of(request) in PLAUSIBLE_ANSWERS:
            answer = plausible_answer(request)
        else:
            answer = OTHER_CLIENTS_ANSWER
        reply = answer if isinstance(answer, Reply) else Reply(content=json.dumps(answer))
        reply.headers = {**reply.headers, **headers}
        return reply


def test_cases(n: int, run: str) -> list[dict[str, Any]]:
    return [
        {
            "input": f"[{run}] What is the colour of item {i}?",
            "actual_output": f"[{run}] Item {i} is blue.",
            "expected_output": f"Item {i} is blue.",
            "retrieval_context": [f"[{run}] Document {i}: item {i} is painted blue."],
        }
        for i in range(n)
    ]


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


@contextmanager
def service(judge: ScriptedJudge, workers: int, slice_size: int, **settings: str):
    """Loupe in RQ mode with `workers` worker processes and `settings` (LOUPE_* names without
    the prefix, lower case); yields (base_url, env)."""
    with ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="loupe-bench-")))
        postgres = stack.enter_context(running_postgres())
        redis = stack.enter_context(running_redis())
        port = free_port()
        env = {
            **os.environ,
            "PYTHONPATH": pythonpath(),
            "LOUPE_PORT": str(port),
            "LOUPE_DATABASE_URL": postgres.create_database("bench"),
            "LOUPE_REDIS_URL": redis.url,
            # Distributed mode refuses to start without a shared key of 32 bytes or more.
            "LOUPE_SECRET_KEY": "bench-secret-key-of-at-least-32-bytes",
            "LOUPE_JUDGE_BASE_URL": judge.base_url,
            "LOUPE_JUDGE_API_KEY": "sk-bench",
            "LOUPE_JOB_SLICE_SIZE": str(slice_size),
            "LOUPE_METRICS_PORT": "0",
            **{f"LOUPE_{name.upper()}": value for name, value in settings.items()},
        }
        subprocess.run([str(LOUPE), "migrate"], env=env, check=True, capture_output=True)
        log = open(tmp / "service.log", "wb")  # noqa: SIM115 - closed with the stack
        stack.callback(log.close)
        processes = [subprocess.Popen([str(LOUPE), "serve"], env=env, stdout=log, stderr=log)]
        for _ in range(workers):
            processes.append(
                subprocess.Popen([str(LOUPE), "worker"], env=env, stdout=log, stderr=log)
            )
        try:
            base_url = f"http://127.0.0.1:{port}"
            wait_ready(base_url, processes[0])
            yield base_url, env
        finally:
            for process in processes:
                process.terminate()
            for process in processes:
                try:
                    process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    process.kill()


def new_key(env: dict) -> str:
    """An API key of a new tenant, made by `loupe keys create` as an operator would."""
    return subprocess.run(
        [
            str(LOUPE),
            "keys",
            "create",
            "--create-tenant",
            "--tenant",
            f"bench-{uuid.uuid4().hex[:6]}",
        ],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()[-1]


def run_once(base_url: str, env: dict, judge: ScriptedJudge, args: argparse.Namespace) -> dict:
    key = new_key(env)
    bucket = TokenBucket(args.rpm)
    judge.reset()
    judge.latency = args.latency
    judge.script(bucket.admit)
    body = {"test_cases": test_cases(args.cases, uuid.uuid4().hex[:8]), "metrics": JUDGED_METRICS}
    headers = {"Authorization": f"Bearer {key}"}
    with httpx.Client(base_url=base_url, headers=headers, timeout=300, trust_env=False) as client:
        started = time.monotonic()
        response = client.post("/v1/evaluations", json=body)
        response.raise_for_status()
        evaluation_id = response.json()["id"]
        while True:
            state = client.get(f"/v1/evaluations/{evaluation_id}").json()
            if state["status"] in ("completed", "failed", "canceled"):
                break
            time.sleep(0.5)
        wall = time.monotonic() - started
    answered, refused = len(bucket.answered), len(bucket.refused)
    first = min(bucket.answered[:1] + bucket.refused[:1])
    span = bucket.answered[-1] + args.latency - first
    rate = answered / span
    return {
        "cases": args.cases,
        "results": state["result_counts"]["total"],
        "errored": state["result_counts"]["errored"],
        "answered": answered,
        "refused_429": refused,
        "refused_share": refused / (answered + refused),
        "sustained_per_s": rate,
        "limit_per_s": bucket.rate,
        "share_of_limit": rate / bucket.rate,
        "wall_s": wall,
    }


def run_deepeval(judge: ScriptedJudge, python: str, args: argparse.Namespace) -> dict:
    """deepeval's four analogous metrics over the same cases, against the same limit."""
    bucket = TokenBucket(args.rpm)
    judge.reset()
    judge.latency = args.latency
    judge.script(bucket.admit)
    env = {**os.environ, "DEEPEVAL_TELEMETRY_OPT_OUT": "YES", "OPENAI_API_KEY": "sk-bench"}
    scratch = tempfile.mkdtemp(prefix="deepeval-bench-")  # deepeval writes .deepeval/ here
    done = subprocess.run(
        [python, str(ROOT / "bench" / "deepeval_rate_limit.py"), judge.base_url, str(args.cases)],
        env=env,
        cwd=scratch,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    if done.returncode != 0:
        raise RuntimeError(f"deepeval failed:\n{done.stderr[-3000:]}")
    outcome = json.loads(done.stdout.strip().splitlines()[-1])
    answered, refused = len(bucket.answered), len(bucket.refused)
    first = min(bucket.answered[:1] + bucket.refused[:1])
    rate = answered / (bucket.answered[-1] + args.latency - first)
    return {
        "cases": args.cases,
        "results": outcome["results"],
        "errored": outcome["errored"],
        "answered": answered,
        "refused_429": refused,
        "refused_share": refused / (answered + refused),
        "sustained_per_s": rate,
        "limit_per_s": bucket.rate,
        "share_of_limit": rate / bucket.rate,
        "wall_s": outcome["wall_s"],
    }


def print_row(name: str, row: dict) -> None:
    print(
        f"{name:>8} {row['cases']:5d} {row['results']:7d} {row['answered']:8d} "
        f"{row['refused_429']:5d} {100 * row['refused_share']:6.1f} "
        f"{row['sustained_per_s']:6.2f} {row['limit_per_s']:5.1f} "
        f"{100 * row['share_of_limit']:7.1f} {row['errored']:7d} {row['wall_s']:6.1f}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workers", default="1,3", help="comma-separated worker counts")
    parser.add_argument("--rpm", type=int, default=600)
    parser.add_argument("--cases", type=int, default=150)
    parser.add_argument("--latency", type=float, default=0.2, help="judge seconds per answer")
    parser.add_argument(
        "--deepeval-python",
        help="a python with deepeval installed (a separate venv): runs it against the same limit",
    )
    args = parser.parse_args()
    print(
        f"{'client':>8} {'cases':>5} {'results':>7} {'answered':>8} {'429s':>5} {'429 %':>6} "
        f"{'req/s':>6} {'limit':>5} {'% limit':>7} {'errored':>7} {'wall s':>6}"
    )
    rows = []
    with ScriptedJudge() as judge:
        for workers in (int(w) for w in args.workers.split(",")):
            # One job per worker: the evaluation's slices spread over all of them.
            slice_size = math.ceil(args.cases / workers)
            with service(judge, workers, slice_size) as (base_url, env):
                row = run_once(base_url, env, judge, args)
            row["client"] = f"loupe x{workers}"
            rows.append(row)
            print_row(row["client"], row)
        if args.deepeval_python:
            row = run_deepeval(judge, args.deepeval_python, args)
            row["client"] = "deepeval"
            rows.append(row)
            print_row(row["client"], row)
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
