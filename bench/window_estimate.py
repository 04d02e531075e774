"""What `POST /v1/evaluations/estimate` costs on long conversations judged turn by turn.

turn_faithfulness and turn_contextual_relevancy show each judged turn with up to `window_size`
earlier exchanges, so the prompts of one conversation grow as judged turns x window x turn size.
This bench builds `--conversations` conversations of 200 turns (100 exchanges, every assistant
turn with a one-passage retrieval context, each turn `--turn-chars` characters of words), asks
an embedded `loupe serve` (SQLite, no judge called) for their estimate with both metrics at
`window_size` 200, and prints the body's size, the request's wall time, the prompt tokens the
estimate counts and the API process's peak resident memory (VmHWM from /proc) before and after.
Then the same body's estimate on a second server whose LOUPE_MAX_PLANNED_WINDOW_CHARS is `--cap`
(its default unless given): its refusal's time, and how many times faster it is than the whole
estimate measured just before (the whole one on a server with the cap out of reach).

    .venv/bin/python bench/window_estimate.py                       # 3.9 MB body
    .venv/bin/python bench/window_estimate.py --before /work/main   # the same on another checkout
    .venv/bin/python bench/window_estimate.py --conversations 60 --window-chars 20000
    .venv/bin/python bench/window_estimate.py --conversations 460   # 64 MB: refused by default
    .venv/bin/python bench/window_estimate.py --conversations 460 --metrics 20
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.config import Settings  # noqa: E402
from bench.append_memory import memory_mb, wait_ready  # noqa: E402
from bench.procs import pythonpath  # noqa: E402
from tests.fixtures.services import free_port  # noqa: E402

LOUPE = Path(sys.executable).parent / "loupe"
WORDS = [
    "dose",
    "leaflet",
    "tablet",
    "children",
    "adult",
    "morning",
    "evening",
    "water",
    "food",
    "kidney",
    "liver",
    "allergy",
    "pharmacist",
    "doctor",
    "prescription",
    "daily",
    "weekly",
    "twice",
    "once",
    "label",
    "warning",
    "side",
    "effect",
    "rash",
    "headache",
    "nausea",
    "store",
    "room",
    "temperature",
    "light",
    "moisture",
    "bottle",
    "blister",
    "pack",
]


def text_of(chars: int, rng: random.Random) -> str:
    words: list[str] = []
    size = 0
    while size < chars:
        word = rng.choice(WORDS)
        words.append(word)
        size += len(word) + 1
    return " ".join(words)[:chars]


def conversation(number: int, turn_chars: int, rng: random.Random) -> dict[str, Any]:
    turns: list[dict[str, Any]] = []
    for exchange in range(100):
        turns.append({"role": "user", "content": text_of(turn_chars, rng)})
        turns.append(
            {
                "role": "assistant",
                "content": text_of(turn_chars, rng),
                "retrieval_context": [f"Passage {exchange}: {text_of(80, rng)}"],
            }
        )
    return {"id": f"chat-{number}", "turns": turns}


def body_of(conversations: int, turn_chars: int, metrics: int) -> dict[str, Any]:
    """The conversations with `metrics` windowed metrics at `window_size` 200, the two kinds in
    turn (named apart past the first two, as a submission comparing judges or thresholds is)."""
    rng = random.Random(7)
    kinds = ["turn_faithfulness", "turn_contextual_relevancy"]
    return {
        "test_cases": [conversation(n, turn_chars, rng) for n in range(conversations)],
        "metrics": [
            {"type": kinds[n % 2], "window_size": 200}
            | ({"name": f"{kinds[n % 2]} {n // 2}"} if n >= 2 else {})
            for n in range(metrics)
        ],
        "judge": {"model": "gpt-4o"},
    }


@contextmanager
def served(before: str | None, settings: dict[str, str]) -> Iterator[tuple[str, str, int]]:
    """An embedded `loupe serve` on a fresh SQLite database: its base URL, a key, its pid."""
    with tempfile.TemporaryDirectory(prefix="loupe-window-") as tmp:
        port = free_port()
        env = {
            **os.environ,
            "PYTHONPATH": pythonpath(*([before] if before else [])),
            "LOUPE_PORT": str(port),
            "LOUPE_DATABASE_URL": f"sqlite:///{tmp}/loupe.db",
            "LOUPE_JUDGE_BASE_URL": "http://127.0.0.1:9/v1",
            "LOUPE_JUDGE_API_KEY": "sk-bench",
            "LOUPE_JUDGE_MODEL": "gpt-4o",
            "LOUPE_SECRET_KEY": "bench-secret-key-of-at-least-32-bytes",
            "LOUPE_MAX_BODY_BYTES": str(256 * 1024 * 1024),
            **settings,
        }
        subprocess.run([str(LOUPE), "migrate"], env=env, check=True, capture_output=True)
        key = subprocess.run(
            [str(LOUPE), "keys", "create", "--create-tenant", "--tenant", "bench"],
            env=env,
            check=True,
            capture_output=True,
            text=True,
        ).stdout.split()[-1]
        with open(Path(tmp) / "serve.log", "wb") as log:
            api = subprocess.Popen([str(LOUPE), "serve"], env=env, stdout=log, stderr=log)
            try:
                base_url = f"http://127.0.0.1:{port}"
                wait_ready(base_url, api)
                yield base_url, key, api.pid
            finally:
                api.terminate()
                try:
                    api.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    api.kill()


def estimate_of(
    before: str | None, settings: dict[str, str], payload: bytes
) -> tuple[float, httpx.Response, float, float]:
    """One estimate request on a server of its own: seconds, the answer, and the API's peak
    RSS in MB before and after."""
    with served(before, settings) as (base_url, key, pid):
        headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
        with httpx.Client(base_url=base_url, timeout=3600, trust_env=False) as http:
            peak_before, _ = memory_mb(pid)
            started = time.perf_counter()
            answer = http.post("/v1/evaluations/estimate", content=payload, headers=headers)
            seconds = time.perf_counter() - started
            peak_after, _ = memory_mb(pid)
    return seconds, answer, peak_before, peak_after


def run(
    conversations: int,
    turn_chars: int,
    before: str | None,
    window_chars: int | None,
    cap: int,
    metrics: int,
) -> None:
    settings = {} if window_chars is None else {"LOUPE_MAX_WINDOW_CHARS": str(window_chars)}
    payload = json.dumps(body_of(conversations, turn_chars, metrics)).encode()
    print(
        f"code {before or ROOT}; {conversations} conversations of 200 turns, "
        f"{turn_chars} chars a turn, {metrics} windowed metrics; body {len(payload) / 1e6:.1f} MB"
    )
    # The whole estimate: past any cap (an older checkout has none, and ignores the setting).
    uncapped = {**settings, "LOUPE_MAX_PLANNED_WINDOW_CHARS": str(10**18)}
    full, answer, peak_before, peak_after = estimate_of(before, uncapped, payload)
    answer.raise_for_status()
    estimate = answer.json()
    print(
        f"estimate: {full:.2f} s, calls {estimate['calls']:,}, prompt tokens "
        f"{estimate['prompt_tokens']:,}; API peak RSS {peak_before:.0f} -> {peak_after:.0f} MB"
    )
    if before:
        return
    capped = {**settings, "LOUPE_MAX_PLANNED_WINDOW_CHARS": str(cap)}
    seconds, answer, peak_before, peak_after = estimate_of(before, capped, payload)
    if answer.status_code != 422:
        print(f"within LOUPE_MAX_PLANNED_WINDOW_CHARS={cap:,}: {answer.status_code}")
        return
    (cases,) = [e["msg"] for e in answer.json()["errors"] if e["loc"] == "test_cases"]
    print(
        f"refused at LOUPE_MAX_PLANNED_WINDOW_CHARS={cap:,}: {seconds:.2f} s "
        f"({full / seconds:.1f} times faster than the whole estimate); API peak RSS "
        f"{peak_before:.0f} -> {peak_after:.0f} MB"
    )
    print(f"  test_cases: {cases}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--conversations", type=int, default=30)
    parser.add_argument("--turn-chars", type=int, default=600)
    parser.add_argument("--before", help="a checkout whose code to measure instead")
    parser.add_argument("--window-chars", type=int, help="LOUPE_MAX_WINDOW_CHARS for the server")
    parser.add_argument(
        "--cap",
        type=int,
        default=Settings.model_fields["max_planned_window_chars"].default,
        help="LOUPE_MAX_PLANNED_WINDOW_CHARS for the refused estimate (default: its default)",
    )
    parser.add_argument("--metrics", type=int, default=2, help="windowed metrics (2: one of each)")
    args = parser.parse_args()
    run(
        args.conversations,
        args.turn_chars,
        args.before,
        args.window_chars,
        args.cap,
        args.metrics,
    )


if __name__ == "__main__":
    main()
