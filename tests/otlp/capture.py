"""An application's OpenAI calls, instrumented and exported over OTLP/HTTP to a loopback capture.

Each instrumentation patches the openai client globally: `instrumented` installs one with its
own TracerProvider and LoggerProvider (simple processors, so every span and record is exported
before the call returns) and uninstruments it afterwards, leaving other tests untouched.
"""

import base64
import contextlib
import io
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import openai
from opentelemetry.exporter.otlp.proto.http._log_exporter import OTLPLogExporter
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk._logs import LoggerProvider
from opentelemetry.sdk._logs.export import SimpleLogRecordProcessor
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from PIL import Image

SYSTEM = "You describe images in one sentence."
QUESTION = "What is in this image?"
ANSWER = "The image shows a red square."


def red_square_png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), (255, 0, 0)).save(buffer, format="PNG")
    return buffer.getvalue()


def data_url(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


@dataclass(frozen=True)
class Export:
    """One export request as it arrived."""

    path: str
    content_type: str
    content_encoding: str
    body: bytes
    # What the capture answered it (200, or the refusal it was told to give).
    status: int = 200
    # Its headers, names lower-cased.
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Capture:
    """A loopback OTLP/HTTP endpoint answering 200 to every export and keeping the bodies."""

    exports: list[Export] = field(default_factory=list)
    # Statuses answered, in order, before it answers 200 again (a collector away: 503).
    refusals: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        capture = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with capture._lock:
                    status = capture.refusals.pop(0) if capture.refusals else 200
                    capture.exports.append(
                        Export(
                            self.path,
                            self.headers.get("Content-Type") or "",
                            self.headers.get("Content-Encoding") or "",
                            body,
                            status,
                            {name.lower(): value for name, value in self.headers.items()},
                        )
                    )
                self.send_response(status)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,))
        self._thread.daemon = True
        self._thread.start()

    @property
    def endpoint(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def bodies(self, path: str) -> list[Export]:
        with self._lock:
            return [export for export in self.exports if export.path == path]

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


@dataclass(frozen=True)
class Receiver:
    """A live OTLP/HTTP receiver the exporters send to (Loupe's base URL)."""

    endpoint: str


@contextlib.contextmanager
def capture_server() -> Iterator[Capture]:
    capture = Capture()
    try:
        yield capture
    finally:
        capture.close()


@contextlib.contextmanager
def _environment(values: dict[str, str]) -> Iterator[None]:
    before = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@contextlib.contextmanager
def instrumented(
    which: str,
    capture: "Capture | Receiver",
    compression: str | None = None,
    official_mode: str = "SPAN_AND_EVENT",
    headers: dict[str, str] | None = None,
    capture_content: bool = True,
) -> Iterator[TracerProvider]:
    """The openai client instrumented by `which` (official, openinference, openllmetry, or
    openllmetry-events: its messages in log records).

    Args:
        capture: where the exporters send (its `endpoint`: a loopback capture, or Loupe).
        official_mode: where the official instrumentation puts content: SPAN_ONLY,
            EVENT_ONLY (the details log record) or SPAN_AND_EVENT.
        headers: sent with every export (Loupe's API key, as OTEL_EXPORTER_OTLP_HEADERS).
        capture_content: False turns content capture off (official: NO_CONTENT; OpenLLMetry:
            TRACELOOP_TRACE_CONTENT=false).
    """
    from opentelemetry.exporter.otlp.proto.http import Compression

    kind = Compression(compression) if compression else Compression.NoCompression
    resource = Resource.create({"service.name": f"app-{which}"})
    tracer_provider = TracerProvider(resource=resource)
    tracer_provider.add_span_processor(
        SimpleSpanProcessor(
            OTLPSpanExporter(
                endpoint=f"{capture.endpoint}/v1/traces", compression=kind, headers=headers
            )
        )
    )
    logger_provider = LoggerProvider(resource=resource)
    logger_provider.add_log_record_processor(
        SimpleLogRecordProcessor(
            OTLPLogExporter(
                endpoint=f"{capture.endpoint}/v1/logs", compression=kind, headers=headers
            )
        )
    )
    environment = {
        "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": (
            official_mode if capture_content else "NO_CONTENT"
        ),
        "OTEL_SEMCONV_STABILITY_OPT_IN": "gen_ai_latest_experimental",
        "TRACELOOP_TRACE_CONTENT": "true" if capture_content else "false",
    }
    with _environment(environment):
        instrumentor = _instrumentor(which)
        instrumentor.instrument(tracer_provider=tracer_provider, logger_provider=logger_provider)
        try:
            # The application's own spans (a retrieval step, a parent) go out through it too.
            yield tracer_provider
        finally:
            instrumentor.uninstrument()
            tracer_provider.shutdown()
            logger_provider.shutdown()


def _instrumentor(which: str) -> Any:
    if which == "official":
        from opentelemetry.instrumentation.openai_v2 import OpenAIInstrumentor

        return OpenAIInstrumentor()
    if which == "openinference":
        from openinference.instrumentation.openai import OpenAIInstrumentor

        return OpenAIInstrumentor()
    if which == "openllmetry":
        from opentelemetry.instrumentation.openai import OpenAIInstrumentor

        # The default uploader is awaited as a plain lambda and fails, dropping the input.
        return OpenAIInstrumentor(upload_base64_image=None)
    if which == "openllmetry-events":
        from opentelemetry.instrumentation.openai import OpenAIInstrumentor

        # Messages as per-message log records (gen_ai.user.message, gen_ai.choice, ...).
        return OpenAIInstrumentor(upload_base64_image=None, use_attributes=False)
    raise ValueError(which)


def ask_about_image(base_url: str, image_url: str) -> None:
    """One chat completion with a system message and a user message of text plus an image."""
    with httpx.Client(trust_env=False, timeout=30) as http:
        client = openai.OpenAI(base_url=base_url, api_key="test", http_client=http, max_retries=0)
        client.chat.completions.create(
            model="gpt-4o-mini",
            messages=[
                {"role": "system", "content": SYSTEM},
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": QUESTION},
                        {"type": "image_url", "image_url": {"url": image_url, "detail": "low"}},
                    ],
                },
            ],
            temperature=0.2,
        )


def ask_text(base_url: str, question: str) -> None:
    """One text-only chat completion."""
    with httpx.Client(trust_env=False, timeout=30) as http:
        client = openai.OpenAI(base_url=base_url, api_key="test", http_client=http, max_retries=0)
        client.chat.completions.create(
            model="gpt-4o-mini",
            messages=[{"role": "system", "content": SYSTEM}, {"role": "user", "content": question}],
        )
