"""Fair sharing: a 10-case evaluation of one tenant submitted while another tenant's
10,000-case evaluation runs, against the same 10 cases alone.

Loupe runs in RQ mode (PostgreSQL, Redis, `loupe serve`, W `loupe worker` processes) against a
loopback OpenAI-compatible judge answering after LATENCY seconds. Each case is one judge call
(g_eval with given steps). Per setting, in one run:

- `alone`: the small evaluation on an idle service;
- `fair`: the big one first; once it has stored `--head-start` results, the small one;
- `fifo`: the same with LOUPE_FAIR_SHARING=false (first come, first served, as before).

Printed: the small evaluation's time from submit to `completed_at` (server clock), its ratio to
`alone`, and the big evaluation's wall time (what fairness costs the big tenant).

    .venv/bin/python bench/fair_share.py                         # 1 worker, 10,000 + 10 cases
    .venv/bin/python bench/fair_share.py --workers 3 --big 3000
"""

import argparse
import json
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.rate_limit import new_key, service  # noqa: E402
from tests.fixtures.judge import ScriptedJudge  # noqa: E402


def body(prefix: str, cases: int) -> dict[str, Any]:
    return {
        "test_cases": [
            {"input": f"[{prefix}] question {i}", "actual_output": f"answer {i}"}
            for i in range(cases)
        ],
        "metrics": [
            {
                "type": "g_eval",
                "name": "helpful",
                "evaluation_steps": ["Check that the output answers the input."],
                "evaluation_params": ["input", "actual_output"],
            }
        ],
    }


def g_eval_answer(request: dict) -> dict:
    return {"score": 8, "reason": "The output answers the input."}


def tenant(env: dict) -> httpx.Client:
    """A client for a new tenant."""
    return httpx.Client(
        base_url=f"http://127.0.0.1:{env['LOUPE_PORT']}",
        headers={"Authorization": f"Bearer {new_key(env)}"},
        timeout=300,
        trust_env=False,
    )


def submit(client: httpx.Client, payload: dict[str, Any]) -> str:
    response = client.post("/v1/evaluations", json=payload)
    response.raise_for_status()
    return response.json()["id"]


def finished(client: httpx.Client, evaluation_id: str, every: float = 0.05) -> dict[str, Any]:
    while True:
        state = client.get(f"/v1/evaluations/{evaluation_id}").json()
        if state["status"] in ("completed", "failed", "canceled"):
            return state
        time.sleep(every)


def seconds(state: dict[str, Any]) -> float:
    """Submit to completion, on the server's clock."""
    created = datetime.fromisoformat(state["created_at"])
    return (datetime.fromisoformat(state["completed_at"]) - created).total_seconds()


def stored(state: dict[str, Any]) -> int:
    return state["result_counts"]["total"] - state["result_counts"]["pending"]


def small_alone(env: dict, args: argparse.Namespace) -> float:
    with tenant(env) as small:
        return seconds(finished(small, submit(small, body("small", args.small))))


def small_behind_big(env: dict, args: argparse.Namespace) -> dict[str, float]:
    with tenant(env) as big, tenant(env) as small:
        started = time.monotonic()
        big_id = submit(big, body("big", args.big))
        while stored(big.get(f"/v1/evaluations/{big_id}").json()) < args.head_start:
            time.sleep(0.05)
        small_state = finished(small, submit(small, body("small", args.small)))
        big_then = big.get(f"/v1/evaluations/{big_id}").json()
        big_state = finished(big, big_id, every=0.5)
        return {
            "small_s": seconds(small_state),
            "big_pending_then": big_then["result_counts"]["pending"],
            "big_s": seconds(big_state),
            "big_wall_s": time.monotonic() - started,
            "errored": small_state["result_counts"]["errored"]
            + big_state["result_counts"]["errored"],
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--big", type=int, default=10_000)
    parser.add_argument("--small", type=int, default=10)
    parser.add_argument("--latency", type=float, default=0.2, help="judge seconds per answer")
    parser.add_argument("--head-start", type=int, default=500, help="big results before small")
    parser.add_argument("--slice", type=int, default=1000, help="LOUPE_JOB_SLICE_SIZE")
    args = parser.parse_args()
    rows = []
    print(
        f"{'setting':>8} {'workers':>7} {'small s':>8} {'x alone':>8} "
        f"{'big pending then':>16} {'big s':>7} {'errored':>7}",
        flush=True,
    )
    with ScriptedJudge() as judge:
        judge.latency = args.latency
        judge.script(g_eval_answer)
        alone = None
        for setting in ("fair", "fifo"):
            fair = "true" if setting == "fair" else "false"
            with service(judge, args.workers, args.slice, fair_sharing=fair) as (_, env):
                if alone is None:
                    alone = small_alone(env, args)
                    rows.append({"setting": "alone", "small_s": alone})
                    print(f"{'alone':>8} {args.workers:7d} {alone:8.2f} {1:8.1f}", flush=True)
                row = {"setting": setting, **small_behind_big(env, args)}
            rows.append(row)
            print(
                f"{setting:>8} {args.workers:7d} {row['small_s']:8.2f} "
                f"{row['small_s'] / alone:8.1f} {row['big_pending_then']:16d} "
                f"{row['big_s']:7.1f} {row['errored']:7d}",
                flush=True,
            )
    print(json.dumps({"args": vars(args), "rows": rows}))


if __name__ == "__main__":
    main()
