"""What `POST /v1/evaluations/estimate` costs on long conversations judged turn by turn.

turn_faithfulness and turn_contextual_relevancy show each judged turn with up to `window_size`
earlier exchanges, so the prompts of one conversation grow as judged turns x window x turn size.
This bench builds `--conversations` conversations of 200 turns (100 exchanges, every assistant
turn with a one-passage retrieval context, each turn `--turn-chars` characters of words), asks
an embedded `loupe serve` (SQLite, no judge called) for their estimate with both metrics at
`window_size` 200, and prints the body's size, the request's wall time, the prompt tokens the
estimate counts and the API process's peak resident memory (VmHWM from /proc) before and after.

    .venv/bin/python bench/window_estimate.py                       # 3.9 MB body
    .venv/bin/python bench/window_estimate.py --before /work/main   # the same on another checkout
    .venv/bin/python bench/window_estimate.py --conversations 60 --window-chars 20000
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

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


def body_of(conversations: int, turn_chars: int) -> dict[str, Any]:
    rng = random.Random(7)
    return {
        "test_cases": [conversation(n, turn_chars, rng) for n in range(conversations)],
        "metrics": [
            {"type": "turn_faithfulness", "window_size": 200},
            {"type": "turn_contextual_relevancy", "window_size": 200},
        ],
        "judge": {"model": "gpt-4o"},
    }


def run(conversations: int, turn_chars: int, before: str | None, window_chars: int | None) -> None:
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
        }
        if window_chars is not None:
            env["LOUPE_MAX_WINDOW_CHARS"] = str(window_chars)
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
                payload = json.dumps(body_of(conversations, turn_chars)).encode()
                headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
                with httpx.Client(base_url=base_url, timeout=3600, trust_env=False) as http:
                    peak_before, _ = memory_mb(api.pid)
                    started = time.perf_counter()
                    answer = http.post("/v1/evaluations/estimate", content=payload, headers=headers)
                    seconds = time.perf_counter() - started
                    answer.raise_for_status()
                    peak_after, _ = memory_mb(api.pid)
                estimate = answer.json()
                print(
                    f"code {before or ROOT}; {conversations} conversations of 200 turns, "
                    f"{turn_chars} chars a turn; body {len(payload) / 1e6:.1f} MB"
                )
                print(
                    f"estimate: {seconds:.2f} s, calls {estimate['calls']:,}, prompt tokens "
                    f"{estimate['prompt_tokens']:,}; API peak RSS {peak_before:.0f} -> "
                    f"{peak_after:.0f} MB"
                )
            finally:
                api.terminate()
                try:
                    api.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    api.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--conversations", type=int, default=30)
    parser.add_argument("--turn-chars", type=int, default=600)
    parser.add_argument("--before", help="a checkout whose code to measure instead")
    parser.add_argument("--window-chars", type=int, help="LOUPE_MAX_WINDOW_CHARS for the server")
    args = parser.parse_args()
    run(args.conversations, args.turn_chars, args.before, args.window_chars)


if __name__ == "__main__":
    main()
