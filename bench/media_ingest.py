"""Media ingest benchmark: 200 test cases sharing 10 distinct ~2 MB images, sent as data URLs.

Starts `loupe serve` (embedded mode, a fresh SQLite file) in a subprocess, submits the cases,
and prints the API process's peak memory (RSS), the request latency, and the blobs stored.

    .venv/bin/python bench/media_ingest.py             # one request of 200 cases (~600 MB body)
    .venv/bin/python bench/media_ingest.py --batch 20  # ten requests of 20 (~60 MB each)
"""

import argparse
import base64
import io
import json
import os
import random
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.procs import pythonpath  # noqa: E402

LOUPE = Path(sys.executable).parent / "loupe"


def images(count: int) -> list[tuple[str, bytes]]:
    """`count` distinct images of about 2 MB: half noisy PNGs already within the judge's
    limits (sent as they are), half large JPEGs that must be downscaled and re-encoded."""
    made = []
    for index in range(count):
        generator = random.Random(index)
        if index % 2 == 0:
            side = 820  # 820 x 820 x 3 bytes of noise: ~2.0 MB, incompressible
            image = Image.frombytes("RGB", (side, side), generator.randbytes(side * side * 3))
            out = io.BytesIO()
            image.save(out, "PNG")
            made.append(("image/png", out.getvalue()))
        else:
            size = (3000, 2000)
            base = Image.linear_gradient("L").resize(size).convert("RGB")
            noise = Image.frombytes(
                "RGB", (size[0] // 2, size[1] // 2), generator.randbytes(size[0] * size[1] * 3 // 4)
            )
            image = Image.blend(base, noise.resize(size), 0.35)
            out = io.BytesIO()
            image.save(out, "JPEG", quality=88)
            made.append(("image/jpeg", out.getvalue()))
    return made


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def rss_kib(pid: int, field: str = "VmRSS") -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


class RssSampler(threading.Thread):
    """Peak RSS of a process, sampled every 10 ms (VmHWM is read too, as a cross-check)."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid = pid
        self.peak = 0
        self.running = True

    def run(self) -> None:
        while self.running:
            self.peak = max(self.peak, rss_kib(self.pid))
            time.sleep(0.01)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--distinct", type=int, default=10)
    parser.add_argument("--batch", type=int, default=0, help="test cases per request (0: all)")
    args = parser.parse_args()
    batch = args.batch or args.cases

    pictures = images(args.distinct)
    urls = [f"data:{kind};base64,{base64.b64encode(data).decode()}" for kind, data in pictures]
    sizes = [len(data) for _, data in pictures]
    print(f"images: {args.distinct} distinct, {min(sizes) / 1e6:.2f}-{max(sizes) / 1e6:.2f} MB")

    directory = Path(tempfile.mkdtemp(prefix="loupe-bench-"))
    port = free_port()
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("LOUPE_")},
        "PYTHONPATH": pythonpath(),
        "LOUPE_DATABASE_URL": f"sqlite:///{directory}/loupe.db",
        "LOUPE_PORT": str(port),
        # The single request is ~600 MB; the default request image total (100 MiB) already
        # covers the 10 distinct images (~22 MB), since each is counted once.
        "LOUPE_MAX_BODY_BYTES": str(2 * 1024**3),
    }
    subprocess.run([str(LOUPE), "migrate"], env=env, cwd=directory, check=True, capture_output=True)
    key = (
        subprocess.run(
            [str(LOUPE), "keys", "create", "--create-tenant", "--tenant", "bench"],
            env=env,
            cwd=directory,
            check=True,
            capture_output=True,
            text=True,
        )
        .stdout.strip()
        .splitlines()[-1]
    )
    server = subprocess.Popen(
        [str(LOUPE), "serve", "--no-migrate"],
        env=env,
        cwd=directory,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    client = httpx.Client(
        base_url=f"http://127.0.0.1:{port}",
        headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"},
        timeout=600,
        trust_env=False,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if client.get("/healthz").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("the server did not start")
            time.sleep(0.1)
        idle = rss_kib(server.pid)
        sampler = RssSampler(server.pid)
        sampler.start()
        latencies, ids, body_bytes = [], [], 0
        for start in range(0, args.cases, batch):
            cases = [
                {
                    "id": f"case-{i}",
                    "input": "What is shown?",
                    "actual_output": [
                        "An image:",
                        {"type": "image_url", "image_url": {"url": urls[i % len(urls)]}},
                    ],
                    "expected_output": "An image:",  # exact_match compares text only
                }
                for i in range(start, min(start + batch, args.cases))
            ]
            body = json.dumps(
                {"name": "bench", "test_cases": cases, "metrics": [{"type": "exact_match"}]}
            ).encode()
            body_bytes = max(body_bytes, len(body))
            began = time.perf_counter()
            response = client.post("/v1/evaluations", content=body)
            latencies.append(time.perf_counter() - began)
            del body, cases
            if response.status_code != 202:
                raise SystemExit(f"{response.status_code}: {response.text[:500]}")
            ids.append(response.json()["id"])
        request_peak = sampler.peak
        began = time.perf_counter()
        for evaluation_id in ids:
            while client.get(f"/v1/evaluations/{evaluation_id}").json()["status"] not in (
                "completed",
                "failed",
                "canceled",
            ):
                time.sleep(0.2)
        scoring = time.perf_counter() - began
        sampler.running = False
        sampler.join()
        hwm = rss_kib(server.pid, "VmHWM")
        with sqlite3.connect(directory / "loupe.db") as db:
            blobs, blob_bytes = db.execute(
                "SELECT count(*), coalesce(sum(size), 0) FROM blob"
            ).fetchone()
            case_bytes = db.execute(
                "SELECT sum(length(actual_output) + length(expected_output)) FROM test_case"
            ).fetchone()[0]
        final = client.get(f"/v1/evaluations/{ids[-1]}").json()
        results = client.get(f"/v1/evaluations/{ids[-1]}/results?limit=1").json()["data"]
    finally:
        client.close()
        server.terminate()
        server.wait(timeout=30)

    print(f"requests: {len(ids)} x {batch} test cases, largest body {body_bytes / 1e6:.0f} MB")
    print("request latency: " + ", ".join(f"{t:.2f}s" for t in latencies))
    print(
        f"API RSS: idle {idle / 1024:.0f} MiB, peak during submit {request_peak / 1024:.0f} MiB, "
        f"peak overall (VmHWM) {hwm / 1024:.0f} MiB"
    )
    print(
        f"scoring after submit: {scoring:.2f}s, last evaluation {final['status']}, "
        f"passed {final['result_counts']['passed']}/{final['result_counts']['total']}"
    )
    print(
        f"blobs stored: {blobs} ({blob_bytes / 1e6:.1f} MB); "
        f"test_case content stored: {case_bytes / 1e3:.0f} kB"
    )
    print(f"media log of one result: {json.dumps(results[0]['logs'].get('media', [])[:1])}")


if __name__ == "__main__":
    sys.exit(main())
