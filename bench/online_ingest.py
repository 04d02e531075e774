"""Online ingest: OTLP/HTTP exports of GenAI spans into a live Loupe (issue 26's speed and limits).

Starts a scripted OpenAI-compatible judge on loopback and `loupe serve` in embedded mode
(SQLite, in-process worker) or distributed mode (PostgreSQL + Redis + one `loupe worker`),
then sends protobuf `ExportTraceServiceRequest`s of `--batch` spans each (512: the SDK's
BatchSpanProcessor's export size), every span a chat call in the GenAI semantic conventions
1.37 with text content (system, user and assistant messages, ~1.2 kB of JSON per span), one
request at a time as one exporter does. Bodies are built before each request is timed.

Phases, each printed with the run's baseline beside it:
- decode: the bench process decodes one body and reads its calls (`app.otlp`), no service;
- bare: a tenant with no rule (auth, HTTP, decoding: the service's floor);
- rate 0: a tenant whose one rule matches every call and samples none (the cost of a span
  not sampled);
- rate 0.1: a tenant whose rule samples 10% over `--spans` spans (100,000): spans/s, API CPU
  per span, RSS after every request and its slope; the judge then scores the sampled calls;
- latency: with workers idle, exports of one batch each to the 10% rule; per sampled span,
  the time from the export's start to the judge receiving it (p50, p95, max);
- big: one span carrying `--big-mb` MB of images (blob parts), to a rule sampling every call,
  accepted under the default LOUPE_OTLP_MAX_BYTES and refused (413) under a limit below its
  size, each on a fresh service: API RSS idle -> peak (sampled every 5 ms, VmHWM too).

API CPU is the `loupe serve` process's utime + stime from /proc (in distributed mode the
worker's is printed apart); `calib s` is a fixed Python loop's CPU time (this machine's speed
right now: the machine is shared).

    .venv/bin/python bench/online_ingest.py                     # embedded, 100,000 spans
    .venv/bin/python bench/online_ingest.py --mode rq --spans 20000

Where the embedded API's memory goes as it ingests and judges (SQLite, malloc, Python's heap
by tracemalloc): bench/online_memory.py.
"""

import argparse
import base64
import io
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, ArrayValue, KeyValue
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app import otlp  # noqa: E402
from app.online.matching import sampled  # noqa: E402
from bench.procs import pythonpath  # noqa: E402
from tests.fixtures.judge import (  # noqa: E402
    Reply,
    ScriptedJudge,
    image_parts,
    plausible_answer,
    task_of,
)
from tests.fixtures.services import free_port, running_postgres, running_redis  # noqa: E402

LOUPE = Path(sys.executable).parent / "loupe"
TICKS = os.sysconf("SC_CLK_TCK")
METRIC = {
    "type": "g_eval",
    "name": "helpful",
    "criteria": "Is the answer helpful?",
    "evaluation_steps": ["Check that the output answers the input."],
    "evaluation_params": ["input", "actual_output"],
}
SYSTEM = (
    "You are the support assistant of an online shop. Answer in two or three sentences, "
    "politely, citing the order number when the customer gives one."
)
TOPICS = [
    "a delayed parcel",
    "a refund",
    "a wrong size",
    "a broken zip",
    "an invoice",
    "a gift card",
]


# --- spans ------------------------------------------------------------------------------------


def _attr(key: str, value: Any) -> KeyValue:
    if isinstance(value, bool):
        return KeyValue(key=key, value=AnyValue(bool_value=value))
    if isinstance(value, int):
        return KeyValue(key=key, value=AnyValue(int_value=value))
    if isinstance(value, list):
        values = [AnyValue(string_value=item) for item in value]
        return KeyValue(key=key, value=AnyValue(array_value=ArrayValue(values=values)))
    return KeyValue(key=key, value=AnyValue(string_value=value))


def _resource(service: str) -> list[KeyValue]:
    return [
        _attr("service.name", service),
        _attr("telemetry.sdk.language", "python"),
        _attr("telemetry.sdk.name", "opentelemetry"),
        _attr("telemetry.sdk.version", "1.38.0"),
        _attr("deployment.environment", "production"),
    ]


def chat_attributes(
    token: str, user_parts: list[dict[str, Any]] | None = None, context_chars: int = 0
) -> list[KeyValue]:
    """A chat call's attributes as opentelemetry-instrumentation-openai-v2 (1.37 conventions,
    content on the span) sets them; `token` marks the question so the judge's request names it."""
    rng = random.Random(token)
    topic = rng.choice(TOPICS)
    question = (
        f"[{token}] Hello, I am writing about {topic} for order {rng.randrange(10**7):07d}. "
        "It was due last week and the tracking page has not changed since. What can I do?"
    )
    answer = (
        f"I am sorry about {topic}. I have checked order {rng.randrange(10**7):07d}: it left "
        "our warehouse on Monday and should reach you within three working days. If it has "
        "not arrived by Friday, reply here and we will send a replacement at no cost."
    )
    parts = user_parts or [{"type": "text", "content": question}]
    messages = [
        {"role": "user", "parts": [{"type": "text", "content": question}, *parts[1:]]},
    ]
    if context_chars:
        # Earlier turns of the conversation, as a chat with history sends them.
        turn = "The customer asked about the delivery window and the returns policy. " * 8
        history = [
            {"role": role, "parts": [{"type": "text", "content": turn}]}
            for role in ["user", "assistant"] * (context_chars // (2 * len(turn)) + 1)
        ]
        messages = history[: max(1, context_chars // len(turn))] + messages
    output = [
        {
            "role": "assistant",
            "parts": [{"type": "text", "content": answer}],
            "finish_reason": "stop",
        }
    ]
    return [
        _attr("gen_ai.operation.name", "chat"),
        _attr("gen_ai.provider.name", "openai"),
        _attr("gen_ai.request.model", "gpt-4o-mini"),
        _attr("gen_ai.response.model", "gpt-4o-mini-2024-07-18"),
        _attr("gen_ai.response.id", f"chatcmpl-{token}"),
        _attr("gen_ai.response.finish_reasons", ["stop"]),
        _attr("gen_ai.usage.input_tokens", 60 + rng.randrange(40)),
        _attr("gen_ai.usage.output_tokens", 50 + rng.randrange(30)),
        _attr("gen_ai.request.temperature", "0.2"),
        _attr("server.address", "api.openai.com"),
        _attr("server.port", 443),
        _attr("gen_ai.system_instructions", json.dumps([{"type": "text", "content": SYSTEM}])),
        _attr("gen_ai.input.messages", json.dumps(messages)),
        _attr("gen_ai.output.messages", json.dumps(output)),
    ]


CONTEXT_CHARS = 0  # --context-chars
ENCODING = otlp.PROTOBUF  # --encoding


def export_body(
    rng: random.Random,
    spans: int,
    service: str = "shop-assistant",
    images: list[dict] | None = None,
) -> tuple[bytes, list[tuple[str, str]]]:
    """A protobuf ExportTraceServiceRequest of `spans` chat spans, and their (trace, span) ids."""
    request = ExportTraceServiceRequest()
    resource_spans = request.resource_spans.add()
    resource_spans.resource.attributes.extend(_resource(service))
    scope_spans = resource_spans.scope_spans.add()
    scope_spans.scope.name = "opentelemetry.instrumentation.openai_v2"
    scope_spans.scope.version = "2.2b0"
    ids = []
    now = time.time_ns()
    for _ in range(spans):
        trace_id, span_id = rng.randbytes(16), rng.randbytes(8)
        span = scope_spans.spans.add()
        span.trace_id, span.span_id, span.parent_span_id = trace_id, span_id, rng.randbytes(8)
        span.name = "chat gpt-4o-mini"
        span.kind = 3  # CLIENT
        span.start_time_unix_nano = now - 900_000_000
        span.end_time_unix_nano = now
        user_parts = None
        if images:
            user_parts = [{"type": "text", "content": ""}, *images]
        span.attributes.extend(chat_attributes(span_id.hex(), user_parts, CONTEXT_CHARS))
        ids.append((trace_id.hex(), span_id.hex()))
    if ENCODING == otlp.JSON:
        return otlp_json(request), ids
    return request.SerializeToString(), ids


def otlp_json(request: ExportTraceServiceRequest) -> bytes:
    """The request in OTLP/JSON: protobuf's JSON mapping with ids as hex, not base64."""
    document = json_format.MessageToDict(request)
    for resource_spans in document["resourceSpans"]:
        for scope_spans in resource_spans["scopeSpans"]:
            for span in scope_spans["spans"]:
                for key in ("traceId", "spanId", "parentSpanId"):
                    if key in span:
                        span[key] = base64.b64decode(span[key]).hex()
    return json.dumps(document).encode()


def noise_png(side: int, seed: int) -> bytes:
    """An incompressible PNG of side x side pixels (~3 bytes a pixel)."""
    image = Image.frombytes("RGB", (side, side), random.Random(seed).randbytes(side * side * 3))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


# --- the service ------------------------------------------------------------------------------


def calibration_seconds() -> float:
    started = time.process_time()
    total = 0
    for i in range(3_000_000):
        total += i * i % 7
    return time.process_time() - started


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def rss_kib(pid: int, field: str = "VmRSS") -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


class RssSampler(threading.Thread):
    """Peak RSS of a process, sampled every 5 ms."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid, self.peak, self.running = pid, 0, True

    def run(self) -> None:
        while self.running:
            self.peak = max(self.peak, rss_kib(self.pid))
            time.sleep(0.005)

    def stop(self) -> int:
        self.running = False
        self.join()
        return self.peak


@contextmanager
def service(mode: str, judge: ScriptedJudge, **settings: str):
    """Start Loupe in `mode`; yields (base_url, env, api pid, worker pid or None)."""
    with ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="loupe-bench-")))
        port = free_port()
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("LOUPE_")},
            "PYTHONPATH": pythonpath(),
            "LOUPE_PORT": str(port),
            "LOUPE_JUDGE_BASE_URL": judge.base_url,
            "LOUPE_JUDGE_API_KEY": "sk-bench",
            "LOUPE_LOG_LEVEL": "WARNING",
            **settings,
        }
        if mode == "embedded":
            env["LOUPE_DATABASE_URL"] = f"sqlite:///{tmp}/loupe.db"
        else:
            postgres = stack.enter_context(running_postgres())
            redis = stack.enter_context(running_redis())
            env["LOUPE_DATABASE_URL"] = postgres.create_database("bench")
            env["LOUPE_REDIS_URL"] = redis.url
            env["LOUPE_SECRET_KEY"] = "bench-secret-key-of-at-least-32-bytes"
        subprocess.run([str(LOUPE), "migrate"], env=env, check=True, capture_output=True)
        log = open(tmp / "service.log", "wb")  # noqa: SIM115 - closed with the stack
        stack.callback(log.close)
        processes = [
            subprocess.Popen([str(LOUPE), "serve", "--no-migrate"], env=env, stdout=log, stderr=log)
        ]
        if mode == "rq":
            processes.append(
                subprocess.Popen([str(LOUPE), "worker"], env=env, stdout=log, stderr=log)
            )
        try:
            base_url = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 60
            while True:
                if processes[0].poll() is not None:
                    raise SystemExit((tmp / "service.log").read_text()[-2000:])
                try:
                    if httpx.get(f"{base_url}/readyz", trust_env=False).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                if time.monotonic() > deadline:
                    raise SystemExit("the service did not become ready")
                time.sleep(0.1)
            worker = processes[1].pid if len(processes) > 1 else None
            yield base_url, env, processes[0].pid, worker
        finally:
            for process in processes:
                process.terminate()
            for process in processes:
                try:
                    process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    process.kill()


def tenant_client(base_url: str, env: dict[str, str], tenant: str) -> httpx.Client:
    key = subprocess.run(
        [str(LOUPE), "keys", "create", "--create-tenant", "--tenant", tenant],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()[-1]
    return httpx.Client(
        base_url=base_url,
        headers={"Authorization": f"Bearer {key}"},
        timeout=120,
        trust_env=False,
    )


def make_rule(client: httpx.Client, rate: float) -> str:
    body = {"name": f"rate {rate}", "sampling": {"rate": rate}, "metrics": [METRIC]}
    response = client.post("/v1/online_rules", json=body)
    assert response.status_code == 201, response.text
    return response.json()["id"]


def post(client: httpx.Client, body: bytes) -> httpx.Response:
    response = client.post("/v1/traces", content=body, headers={"Content-Type": ENCODING})
    if response.status_code != 200:
        raise SystemExit(f"/v1/traces answered {response.status_code}: {response.text[:300]}")
    return response


# --- phases -----------------------------------------------------------------------------------


def decode_alone(batch: int) -> float:
    """ms per span to decode one export and read its calls in this process (no service)."""
    body, _ = export_body(random.Random(1), batch)
    best = float("inf")
    for _ in range(5):
        started = time.process_time()
        otlp.judged_calls(otlp.decode_traces(body, ENCODING))
        best = min(best, time.process_time() - started)
    return best / batch * 1000


def send(
    client: httpx.Client,
    pid: int,
    requests: int,
    batch: int,
    seed: int,
    rss: list | None = None,
    rate: float = 0.1,
) -> dict[str, float]:
    """`requests` exports of `batch` spans: seconds in requests, API CPU seconds, spans sent."""
    rng = random.Random(seed)
    in_requests = 0.0
    cpu_before = cpu_seconds(pid)
    sampled_spans = 0
    for index in range(requests):
        body, ids = export_body(rng, batch)
        sampled_spans += sum(1 for trace_id, _ in ids if sampled(trace_id, rate))
        started = time.perf_counter()
        post(client, body)
        in_requests += time.perf_counter() - started
        if rss is not None:
            rss.append(((index + 1) * batch, rss_kib(pid)))
    return {
        "seconds": in_requests,
        "cpu": cpu_seconds(pid) - cpu_before,
        "spans": requests * batch,
        "sampled": sampled_spans,
    }


def slope(points: list[tuple[int, int]]) -> float:
    """Least-squares slope of RSS (KiB) over spans, in MiB per 100,000 spans."""
    n = len(points)
    mean_x = sum(x for x, _ in points) / n
    mean_y = sum(y for _, y in points) / n
    sxx = sum((x - mean_x) ** 2 for x, _ in points)
    sxy = sum((x - mean_x) * (y - mean_y) for x, y in points)
    return sxy / sxx * 100_000 / 1024 if sxx else 0.0


def counts(client: httpx.Client, rule_id: str) -> dict[str, Any]:
    return client.get(f"/v1/online_rules/{rule_id}").json()["counts"]


def wait_arrivals(clock: "ArrivalClock", want: int, timeout: float) -> float:
    """Seconds until the judge has received `want` distinct spans' questions in all."""
    started = time.monotonic()
    while len(clock.arrivals) < want and time.monotonic() - started < timeout:
        time.sleep(0.1)
    return time.monotonic() - started


def settle(clock: "ArrivalClock") -> None:
    """Wait until the judge has received nothing new for a second (workers idle)."""
    seen = -1
    while len(clock.arrivals) != seen:
        seen = len(clock.arrivals)
        time.sleep(1.0)


class ArrivalClock:
    """Records when the judge first receives each span's question (by the span id it names)."""

    def __init__(self) -> None:
        self.arrivals: dict[str, float] = {}
        self.images: dict[str, int] = {}
        self.lock = threading.Lock()

    def clear(self) -> None:
        """Forget every arrival (each mode sends the same seeded spans again)."""
        with self.lock:
            self.arrivals.clear()
            self.images.clear()

    def __call__(self, request: dict) -> Reply | dict:
        if task_of(request) is not None:
            text = json.dumps(request["messages"])
            at = text.find("[")
            while at != -1:
                token = text[at + 1 : at + 17]
                if len(token) == 16 and text[at + 17 : at + 18] == "]":
                    with self.lock:
                        self.arrivals.setdefault(token, time.time())
                        self.images[token] = len(image_parts(request))
                    break
                at = text.find("[", at + 1)
        return plausible_answer(request)


def run_mode(
    mode: str, args: argparse.Namespace, judge: ScriptedJudge, clock: ArrivalClock
) -> None:
    batch = args.batch
    with service(mode, judge) as (base_url, env, pid, worker):
        bare = tenant_client(base_url, env, "bare")
        zero = tenant_client(base_url, env, "zero")
        ten = tenant_client(base_url, env, "ten")
        make_rule(zero, 0.0)
        rule_ten = make_rule(ten, args.rate)
        for client in (bare, zero, ten):  # warm-up: imports, first connections
            send(client, pid, 2, batch, seed=99)
        settle(clock)
        probe = max(20, args.probe_requests)
        print(f"[{mode}] calib s {calibration_seconds():.3f}", flush=True)
        print(f"{'phase':22} {'spans':>7} {'spans/s':>8} {'API CPU ms/span':>15} {'x bare':>7}")
        rows = {}
        for name, client in (("bare (no rule)", bare), ("rate 0 (none sampled)", zero)):
            row = send(client, pid, probe, batch, seed=hash(name) % 1000)
            rows[name] = row
            print(
                f"{name:22} {row['spans']:7d} {row['spans'] / row['seconds']:8.0f} "
                f"{row['cpu'] / row['spans'] * 1000:15.3f} "
                f"{row['cpu'] / rows['bare (no rule)']['cpu']:7.2f}",
                flush=True,
            )
        # The 10% rule over --spans spans, RSS after every request.
        rss: list[tuple[int, int]] = []
        worker_cpu = cpu_seconds(worker) if worker else 0.0
        started = time.perf_counter()
        judged_before = counts(ten, rule_ten)["judged"]
        arrivals_before = len(clock.arrivals)
        row = send(ten, pid, args.spans // batch, batch, seed=7, rss=rss, rate=args.rate)
        wall = time.perf_counter() - started
        base = rows["bare (no rule)"]
        print(
            f"{f'rate {args.rate}':22} {row['spans']:7d} {row['spans'] / row['seconds']:8.0f} "
            f"{row['cpu'] / row['spans'] * 1000:15.3f} "
            f"{row['cpu'] / row['spans'] / (base['cpu'] / base['spans']):7.2f}",
            flush=True,
        )
        found = counts(ten, rule_ten)
        backlog = wait_arrivals(clock, arrivals_before + row["sampled"], 600)
        half = rss[len(rss) // 2 :]
        print(
            f"  wall incl. building bodies {wall:.1f} s ({row['spans'] / wall:.0f} spans/s); "
            f"sampled {row['sampled']} expected, counts {json.dumps(found)}; "
            f"appended {found['judged'] - judged_before}; the judge had every one "
            f"{backlog:.1f} s after the last export"
        )
        if worker:
            print(f"  worker CPU {cpu_seconds(worker) - worker_cpu:.1f} s")
        print(
            f"  API RSS {rss[0][1] / 1024:.0f} MiB after the first request, "
            f"{max(y for _, y in rss) / 1024:.0f} peak, {rss[-1][1] / 1024:.0f} last; slope "
            f"{slope(rss):+.1f} MiB per 100k spans (second half {slope(half):+.1f}); at each "
            "quarter: "
            + ", ".join(
                f"{spans:,} spans {kib / 1024:.0f}"
                for spans, kib in (rss[len(rss) * q // 4 - 1] for q in (1, 2, 3, 4))
            )
            + " MiB"
        )
        # Latency: workers idle, one export at a time, each sampled span to the judge.
        rng = random.Random(11)
        delays: list[float] = []
        for _ in range(args.latency_exports):
            body, ids = export_body(rng, batch)
            wanted = [span for trace, span in ids if sampled(trace, args.rate)]
            started = time.time()
            post(ten, body)
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                with clock.lock:
                    if all(span in clock.arrivals for span in wanted):
                        break
                time.sleep(0.01)
            delays.extend(clock.arrivals.get(span, float("inf")) - started for span in wanted)
            time.sleep(1.0)  # the judge's answers stored: workers idle again
        delays.sort()
        if not delays:
            return
        print(
            f"  export -> judge, {len(delays)} sampled spans in {args.latency_exports} exports "
            f"of {batch}: p50 {delays[len(delays) // 2]:.3f} s, "
            f"p95 {delays[int(len(delays) * 0.95)]:.3f} s, max {delays[-1]:.3f} s",
            flush=True,
        )


def run_big(mode: str, args: argparse.Namespace, judge: ScriptedJudge, clock: ArrivalClock) -> None:
    """One span carrying --big-mb MB of images: accepted under the default limit, refused under
    a smaller one; the API's RSS from idle to peak each time."""
    side = 1024  # ~3.1 MB of noise per PNG, ~4.2 MB as base64 in the JSON attribute
    count = max(1, round(args.big_mb * 1e6 / (side * side * 3 * 4 / 3)))
    images = [
        {
            "type": "blob",
            "modality": "image",
            "mime_type": "image/png",
            "content": base64.b64encode(noise_png(side, seed)).decode(),
        }
        for seed in range(count)
    ]
    body, [(_, big_span)] = export_body(random.Random(5), 1, images=images)
    print(f"[{mode}] big span: {count} images, body {len(body) / 1e6:.1f} MB")
    # Refused: a limit of ~3/4 of the body (16 MiB for the default 21 MB span).
    below = min(16 * 1024**2, len(body) * 3 // 4)
    limits = [
        ("default (64 MiB)", {}),
        (f"{below / 1024**2:.1f} MiB", {"LOUPE_OTLP_MAX_BYTES": str(below)}),
    ]
    for label, settings in limits:
        with service(mode, judge, **settings) as (base_url, env, pid, _):
            clock.clear()
            client = tenant_client(base_url, env, "big")
            rule = make_rule(client, 1.0)
            post(client, export_body(random.Random(6), 8)[0])  # warm-up
            time.sleep(1)
            idle = rss_kib(pid)
            sampler = RssSampler(pid)
            sampler.start()
            started, sent_at = time.perf_counter(), time.time()
            response = client.post("/v1/traces", content=body, headers={"Content-Type": ENCODING})
            took = time.perf_counter() - started
            in_request = sampler.peak
            judged = "not judged"
            if response.status_code == 200:
                # Then through its judging (embedded: in the API process) until the judge has it.
                deadline = time.monotonic() + 120
                while big_span not in clock.arrivals and time.monotonic() < deadline:
                    time.sleep(0.05)
                if big_span in clock.arrivals:
                    judged = (
                        f"at the judge with {clock.images[big_span]} of {count} images "
                        f"{clock.arrivals[big_span] - sent_at - took:.2f} s later"
                    )
                time.sleep(1)
            peak = sampler.stop()
            found = counts(client, rule)
            print(
                f"  limit {label}: {response.status_code} in {took:.2f} s, {judged}; API RSS "
                f"idle {idle / 1024:.0f} -> peak {in_request / 1024:.0f} MiB in the request "
                f"(+{(in_request - idle) / 1024:.0f}), {peak / 1024:.0f} through judging "
                f"(+{(peak - idle) / 1024:.0f}); counts {json.dumps(found)}",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mode", default="embedded", help="embedded, rq or embedded,rq")
    parser.add_argument("--spans", type=int, default=100_000)
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument("--rate", type=float, default=0.1, help="the long phase's sampling rate")
    parser.add_argument("--probe-requests", type=int, default=20)
    parser.add_argument("--latency-exports", type=int, default=10)
    parser.add_argument("--big-mb", type=float, default=20.0)
    parser.add_argument(
        "--context-chars",
        type=int,
        default=0,
        help="earlier turns of the conversation added to each span's input messages",
    )
    parser.add_argument("--skip", default="", help="comma-separated: ingest, big")
    parser.add_argument("--encoding", choices=["protobuf", "json"], default="protobuf")
    args = parser.parse_args()
    global CONTEXT_CHARS, ENCODING
    CONTEXT_CHARS = args.context_chars
    ENCODING = otlp.JSON if args.encoding == "json" else otlp.PROTOBUF
    skip = set(args.skip.split(","))
    body, _ = export_body(random.Random(1), args.batch)
    print(
        f"{args.batch} spans a request ({args.encoding}), {len(body) / args.batch / 1000:.1f} kB "
        "a span; decode "
        f"+ read calls alone (this process): {decode_alone(args.batch):.3f} ms/span"
    )
    clock = ArrivalClock()
    with ScriptedJudge() as judge:
        judge.script(clock)
        for mode in args.mode.split(","):
            if "ingest" not in skip:
                clock.clear()
                run_mode(mode, args, judge, clock)
            if "big" not in skip:
                clock.clear()
                run_big(mode, args, judge, clock)


if __name__ == "__main__":
    main()
