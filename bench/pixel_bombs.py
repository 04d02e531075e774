"""Pixel bombs: the audit's 7000 x 7000 blank RGBA PNGs (~190 kB each, under
LOUPE_MAX_IMAGE_PIXELS) posted as data URLs to a served instance; the time of each request and
the serving process's peak RSS, for this checkout and, with `--before`, another one measured in
the same run.

    flock /tmp/bench.lock .venv/bin/python bench/pixel_bombs.py [--before <checkout>] \\
        [--out bench/results/pixel_bombs.json]

Each checkout serves from a fresh process (`loupe serve`, embedded mode, a fresh SQLite file,
default settings, on 127.0.0.1) per scenario: 1 image, 4 and 5 images in one request, and 3
parallel requests of 3 images. Peak RSS is sampled every 10 ms and cross-checked with VmHWM;
CPU is the process's own. Results go to docs/benchmarks.md.
"""

import argparse
import base64
import json
import os
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.media_ingest import RssSampler, free_port, rss_kib  # noqa: E402
from bench.procs import tree_cpu  # noqa: E402

SIDE = 7000
SCENARIOS = [
    ("1 image", 1, 1),
    ("4 images, one request", 1, 4),  # 196M pixels: within the default request budget
    ("5 images, one request", 1, 5),
    ("3 requests of 3, at once", 3, 3),
]


def chunk(tag: bytes, data: bytes) -> bytes:
    crc = struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)
    return struct.pack(">I", len(data)) + tag + data + crc


def blank_png(width: int, height: int, seed: int) -> bytes:
    """The audit's image: all-zero RGBA rows, deflated; a text chunk makes each one distinct."""
    deflate = zlib.compressobj(9)
    row = b"\0" * (1 + width * 4)
    idat = b"".join(deflate.compress(row) for _ in range(height)) + deflate.flush()
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
        + chunk(b"tEXt", b"k\0" + str(seed).encode())
        + chunk(b"IDAT", idat)
        + chunk(b"IEND", b"")
    )


def body(images: list[bytes]) -> bytes:
    cases = [
        {
            "input": "What is shown?",
            "actual_output": [
                {
                    "type": "image_url",
                    "image_url": {
                        "url": "data:image/png;base64," + base64.b64encode(data).decode()
                    },
                }
            ],
            "expected_output": "x",
        }
        for data in images
    ]
    return json.dumps({"test_cases": cases, "metrics": [{"type": "exact_match"}]}).encode()


class Served:
    """`loupe serve` from `checkout` (its own code on PYTHONPATH), on a fresh SQLite file."""

    def __init__(self, checkout: Path, directory: Path) -> None:
        self.port = free_port()
        self.env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("LOUPE_")},
            "PYTHONPATH": str(checkout),
            "LOUPE_DATABASE_URL": f"sqlite:///{directory}/loupe.db",
            "LOUPE_PORT": str(self.port),
            "LOUPE_HOST": "127.0.0.1",
        }
        self.directory = directory

    def loupe(self, *args: str) -> str:
        command = [sys.executable, "-c", "from app.cli import main; main()", *args]
        done = subprocess.run(
            command, env=self.env, cwd=self.directory, check=True, capture_output=True, text=True
        )
        return done.stdout

    def __enter__(self) -> "Served":
        self.loupe("migrate")
        self.key = self.loupe("keys", "create", "--create-tenant", "--tenant", "bench")
        self.key = self.key.strip().splitlines()[-1]
        self.process = subprocess.Popen(
            [sys.executable, "-c", "from app.cli import main; main()", "serve", "--no-migrate"],
            env=self.env,
            cwd=self.directory,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                if self.client().get("/healthz").status_code == 200:
                    return self
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise SystemExit("the server did not start")
            time.sleep(0.1)

    def client(self) -> httpx.Client:
        headers = {"Authorization": f"Bearer {getattr(self, 'key', '')}"}
        headers["Content-Type"] = "application/json"
        base_url = f"http://127.0.0.1:{self.port}"
        return httpx.Client(base_url=base_url, headers=headers, timeout=600, trust_env=False)

    def __exit__(self, *exc: object) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


def measure(checkout: Path, requests: int, per_request: int) -> dict:
    """One scenario on a fresh server from `checkout`: each request's seconds and status, the
    server's peak RSS and CPU seconds while they ran."""
    bodies = [
        body([blank_png(SIDE, SIDE, r * 100 + i) for i in range(per_request)])
        for r in range(requests)
    ]
    with (
        tempfile.TemporaryDirectory(prefix="loupe-pixels-") as directory,
        Served(checkout, Path(directory)) as served,
    ):
        pid = served.process.pid
        idle = rss_kib(pid)
        cpu_before = tree_cpu(pid, {})
        sampler = RssSampler(pid)
        sampler.start()

        def post(content: bytes) -> tuple[float, int, str]:
            with served.client() as client:
                began = time.perf_counter()
                response = client.post("/v1/evaluations", content=content)
                took = time.perf_counter() - began
            return took, response.status_code, response.text[:300]

        began = time.perf_counter()
        with ThreadPoolExecutor(requests) as pool:
            answers = list(pool.map(post, bodies))
        wall = time.perf_counter() - began
        sampler.running = False
        sampler.join()
        cpu = tree_cpu(pid, {}) - cpu_before
        hwm = rss_kib(pid, "VmHWM")
    return {
        "requests": requests,
        "images_per_request": per_request,
        "body_bytes": len(bodies[0]),
        "seconds": [round(took, 2) for took, _, _ in answers],
        "statuses": [status for _, status, _ in answers],
        "refusals": [text for _, status, text in answers if status != 202],
        "wall_seconds": round(wall, 2),
        "cpu_seconds": round(cpu, 2),
        "idle_rss_mib": round(idle / 1024),
        "peak_rss_mib": round(max(sampler.peak, hwm) / 1024),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="a checkout of the code before the change")
    parser.add_argument("--out", type=Path, help="write the figures here as JSON")
    parser.add_argument(
        "--only",
        default="",
        help="only the scenarios whose label holds one of these comma-separated texts (e.g. "
        "'5 images', refused before any decode: a quick check that the bench runs)",
    )
    args = parser.parse_args()
    wanted = [text for text in args.only.split(",") if text]
    runs = (
        [("before", args.before.resolve()), ("after", ROOT)] if args.before else [("after", ROOT)]
    )
    figures: dict[str, dict[str, dict]] = {}
    for label, requests, per_request in SCENARIOS:
        if wanted and not any(text in label for text in wanted):
            continue
        for name, checkout in runs:
            result = measure(checkout, requests, per_request)
            figures.setdefault(label, {})[name] = result
            print(
                f"{label:<26} {name:<6} {result['body_bytes'] / 1e6:.2f} MB a body: "
                f"{', '.join(f'{s:.2f}s' for s in result['seconds'])} "
                f"(statuses {result['statuses']}), CPU {result['cpu_seconds']:.1f} s, "
                f"RSS {result['idle_rss_mib']} -> {result['peak_rss_mib']} MiB",
                flush=True,
            )
        if args.before:
            before, after = figures[label]["before"], figures[label]["after"]
            wall = after["wall_seconds"] / before["wall_seconds"]
            cpu = after["cpu_seconds"] / max(before["cpu_seconds"], 0.01)
            rss = after["peak_rss_mib"] / before["peak_rss_mib"]
            print(f"{label:<26} after/before: wall {wall:.2f}, CPU {cpu:.2f}, peak RSS {rss:.2f}")
    if args.out:
        args.out.write_text(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
