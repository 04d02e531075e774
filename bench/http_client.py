"""CPU per HTTP request of the clients a judge request could go through, against the scripted
judge in another process: aiohttp's `ClientSession` (what the SDK's aiohttp client used),
Loupe's pool (`app/judges/_lean_http.py`, what judge requests use now), and asyncio's own
streams writing a request and reading its answer by hand (a floor: no pool, no checks).

Each client sends the same small chat-completion POST, `--n` times with `--in-flight` at once,
after a warm-up; the figure is this process's user and system CPU per request (the judge's is
its own). `calib s` is a fixed Python loop's CPU time (this machine's speed at the time).

    .venv/bin/python bench/http_client.py                 # 3 rounds, 3,000 requests, 64 at once
    .venv/bin/python bench/http_client.py --in-flight 1 --rounds 5
"""

import argparse
import asyncio
import json
import os
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import aiohttp
import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.judges._lean_http import LeanPool  # noqa: E402
from app.judges._transport import ReadBody  # noqa: E402
from bench.judge_path import calibration_seconds, judge_process  # noqa: E402

BODY = json.dumps(
    {"model": "judge", "messages": [{"role": "user", "content": "Loupe task: g_eval_score x"}]}
).encode()
HEADERS = {"Content-Type": "application/json", "Authorization": "Bearer sk-bench"}


async def per_request(send: Callable[[], Awaitable[bytes]], n: int, in_flight: int) -> tuple:
    """User and system CPU µs per request of `n` sends, `in_flight` at once."""
    gate = asyncio.Semaphore(in_flight)

    async def one() -> bytes:
        async with gate:
            return await send()

    await asyncio.gather(*(one() for _ in range(200)))  # warm-up: connections, caches
    before = os.times()
    answers = await asyncio.gather(*(one() for _ in range(n)))
    after = os.times()
    assert all(answer.startswith(b"{") for answer in answers)
    return 1e6 * (after.user - before.user) / n, 1e6 * (after.system - before.system) / n


async def with_aiohttp(url: str, n: int, in_flight: int) -> tuple:
    async with aiohttp.ClientSession() as session:

        async def send() -> bytes:
            async with session.post(url, data=BODY, headers=HEADERS) as response:
                return await response.read()

        return await per_request(send, n, in_flight)


async def with_pool(url: str, n: int, in_flight: int) -> tuple:
    import ssl

    pool = LeanPool(ssl.create_default_context(), httpx.Limits(max_connections=1000))

    # Built once: the SDK builds a judge request's httpx.Request whichever client sends it.
    request = httpx.Request(
        "POST",
        url,
        content=BODY,
        headers=HEADERS,
        extensions={"timeout": {"connect": 30.0, "read": 30.0, "pool": 30.0}},
    )

    async def send() -> bytes:
        answer = await pool.send(request, 1 << 20)
        return await ReadBody(answer.body, 1 << 20).read_up_to(1 << 20)

    try:
        return await per_request(send, n, in_flight)
    finally:
        await pool.aclose()


async def with_streams(url: str, n: int, in_flight: int) -> tuple:
    parsed = httpx.URL(url)
    head = (
        f"POST {parsed.raw_path.decode()} HTTP/1.1\r\nHost: {parsed.host}:{parsed.port}\r\n"
        + "".join(f"{name}: {value}\r\n" for name, value in HEADERS.items())
        + f"Content-Length: {len(BODY)}\r\n\r\n"
    ).encode()
    idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []

    async def send() -> bytes:
        reader, writer = (
            idle.pop() if idle else await asyncio.open_connection(parsed.host, parsed.port)
        )
        writer.write(head + BODY)
        answer_head = await reader.readuntil(b"\r\n\r\n")
        length = next(
            int(line.split(b":", 1)[1])
            for line in answer_head.split(b"\r\n")
            if line.lower().startswith(b"content-length:")
        )
        body = await reader.readexactly(length)
        idle.append((reader, writer))
        return body

    try:
        return await per_request(send, n, in_flight)
    finally:
        for _, writer in idle:
            writer.close()


CLIENTS = {"aiohttp": with_aiohttp, "loupe pool": with_pool, "asyncio streams": with_streams}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=3000)
    parser.add_argument("--in-flight", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with judge_process() as base_url:
        url = base_url + "/chat/completions"
        print(f"{'client':16} {'in flight':>9} {'user µs':>8} {'sys µs':>7} {'calib s':>7}")
        rows = []
        for _ in range(args.rounds):
            for name, client in CLIENTS.items():
                calibration = calibration_seconds()
                user, system = asyncio.run(client(url, args.n, args.in_flight))
                rows.append(
                    {
                        "client": name,
                        "in_flight": args.in_flight,
                        "user_us": user,
                        "sys_us": system,
                        "calibration_s": calibration,
                    }
                )
                print(
                    f"{name:16} {args.in_flight:9d} {user:8.0f} {system:7.0f} {calibration:7.3f}",
                    flush=True,
                )
        print(json.dumps(rows))


if __name__ == "__main__":
    main()
