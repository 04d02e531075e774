"""Refuse request bodies, and request heads, over the configured size before they are read
into memory."""

import asyncio
import functools
from collections.abc import Callable
from typing import Any

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from app.config import Settings
from app.problems import (
    PROBLEM_MEDIA_TYPE,
    ErrorDialect,
    Problem,
    field_error,
    otlp_dialect,
    problem_response,
)


class _TooLarge(HTTPException):
    # An HTTPException so FastAPI's body parser re-raises it instead of answering 400.
    def __init__(self, max_bytes: int, setting: str) -> None:
        super().__init__(413, _detail(max_bytes, setting))


# A refused body is read and thrown away, up to this many bytes, before the 413 is sent: a
# client still uploading when the server answers and closes gets a connection reset instead of
# the answer (Node's fetch does; httpx reads the early answer). Past this, the connection is
# closed unread. Clients that sent `Expect: 100-continue` are answered without reading.
DRAIN_BYTES = 32 * 1024 * 1024


def _detail(max_bytes: int, setting: str = "LOUPE_MAX_BODY_BYTES") -> str:
    return f"The request body exceeds {max_bytes} bytes ({setting})."


class BodySizeLimitMiddleware:
    """413 for bodies over `max_bytes`, by Content-Length or by counting a streamed body.

    `path_limits` gives other limits for exact paths: {path: (max_bytes, setting name)};
    `otlp_paths` are answered as the OTLP receiver answers (a `google.rpc.Status` in the
    request's encoding), as the refusal comes before any route takes the request.
    """

    def __init__(
        self,
        app: ASGIApp,
        max_bytes: int,
        path_limits: dict[str, tuple[int, str]] | None = None,
        otlp_paths: frozenset[str] = frozenset(),
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.path_limits = path_limits or {}
        self.otlp_paths = otlp_paths

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        max_bytes, setting = self.path_limits.get(
            scope.get("path", ""), (self.max_bytes, "LOUPE_MAX_BODY_BYTES")
        )
        headers = dict(scope.get("headers", []))
        declared = headers.get(b"content-length", b"")
        if declared.isdigit() and int(declared) > max_bytes:
            if headers.get(b"expect", b"").lower() != b"100-continue":
                await _drain(receive, more_body=True)
            await self._refuse(scope, send, max_bytes, setting)
            return
        seen = 0
        started = False
        more_body = True

        async def counting_receive() -> Message:
            nonlocal seen, more_body
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                more_body = message.get("more_body", False)
                if seen > max_bytes:
                    raise _TooLarge(max_bytes, setting)
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counting_receive, tracking_send)
        except _TooLarge:
            if not started:
                await _drain(receive, more_body)
                await self._refuse(scope, send, max_bytes, setting)

    async def _refuse(self, scope: Scope, send: Send, max_bytes: int, setting: str) -> None:
        problem = Problem(
            type="https://loupe.dev/problems/body-too-large",
            title="Content Too Large",
            status=413,
            detail=_detail(max_bytes, setting),
            instance=scope.get("path"),
            # The field at fault, as every other problem names it.
            errors=[field_error(["body"], _detail(max_bytes, setting), "too_large")],
        )
        dialect: ErrorDialect = "problem"
        if scope.get("path") in self.otlp_paths:
            headers = dict(scope.get("headers", []))
            dialect = otlp_dialect(headers.get(b"content-type", b"").decode("latin-1"))
        response = problem_response(problem, dialect=dialect)
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", response.headers["content-type"].encode("latin-1")),
                    (b"content-length", str(len(response.body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": response.body})


async def _drain(receive: Receive, more_body: bool) -> None:
    """Read and discard the rest of a request body, up to DRAIN_BYTES."""
    drained = 0
    while more_body and drained <= DRAIN_BYTES:
        message = await receive()
        if message["type"] != "http.request":
            return
        drained += len(message.get("body", b""))
        more_body = message.get("more_body", False)


class HeadLimitedProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, refusing a request whose line and headers pass
    `max_head_bytes` (431) or take longer than `head_timeout` seconds to arrive (408).

    Neither uvicorn nor httptools bounds a request's head: a header of 200 MB was taken whole,
    and httptools joins a header's pieces by copying, so the work grows with the square of its
    size (120 MB held the event loop, and every request of the process, for 12 s). Counted as
    the bytes arrive, a head is refused at most one read (256 KiB) past the limit. Nor does
    uvicorn time a head: a connection that sent nothing, or half a head, was held open for
    good, so a client could take every connection the process may hold.
    """

    def __init__(self, *args: Any, max_head_bytes: int, head_timeout: float, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._max_head_bytes = max_head_bytes
        self._head_timeout = head_timeout
        self._head_bytes = 0
        self._in_head = True
        self._head_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._start_head_clock()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_head_clock()
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._in_head = True
        # A kept-alive connection's next request: its head has the same time to arrive.
        self._start_head_clock()

    def on_headers_complete(self) -> None:
        self._in_head = False
        self._head_bytes = 0
        self._stop_head_clock()
        super().on_headers_complete()

    def _start_head_clock(self) -> None:
        if self._head_deadline is None:
            self._head_deadline = self.loop.call_later(self._head_timeout, self._head_too_slow)

    def _stop_head_clock(self) -> None:
        if self._head_deadline is not None:
            self._head_deadline.cancel()
            self._head_deadline = None

    def _head_too_slow(self) -> None:
        self._head_deadline = None
        if self.transport.is_closing():
            return
        detail = (
            f"The request line and headers did not arrive within {self._head_timeout:g} s "
            "(LOUPE_HEADER_TIMEOUT_SECONDS)."
        )
        self._refuse(408, "Request Timeout", "header-timeout", detail, "timeout")

    def data_received(self, data: bytes) -> None:
        in_head = self._in_head
        super().data_received(data)
        if not (in_head and self._in_head) or self.transport.is_closing():
            return
        self._head_bytes += len(data)
        if self._head_bytes > self._max_head_bytes:
            self._refuse_head()

    def _refuse_head(self) -> None:
        detail = (
            f"The request line and headers exceed {self._max_head_bytes} bytes "
            "(LOUPE_MAX_HEADER_BYTES)."
        )
        self.logger.warning("Request head over %d bytes refused.", self._max_head_bytes)
        title = "Request Header Fields Too Large"
        self._refuse(431, title, "header-too-large", detail, "too_large")

    def send_400_response(self, msg: str) -> None:
        # What httptools cannot parse (a control character in a header, a bad request line)
        # is a problem too, not uvicorn's text/plain line.
        detail = f"The request's line or headers are not HTTP/1.1: {msg}"
        self._refuse(400, "Bad Request", "malformed-http", detail, "invalid_http")

    def _refuse(self, status: int, title: str, slug: str, detail: str, code: str) -> None:
        """Answer with a problem naming the head and close the connection."""
        body = (
            Problem(
                type=f"https://loupe.dev/problems/{slug}",
                title=title,
                status=status,
                detail=detail,
                errors=[field_error(["header"], detail, code)],
            )
            .model_dump_json(exclude_none=True)
            .encode()
        )
        head = (
            f"HTTP/1.1 {status} {title}\r\ncontent-type: {PROBLEM_MEDIA_TYPE}\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
        )
        self.transport.write(head.encode() + body)
        self.transport.close()


def bounded_http(settings: Settings) -> Callable[..., HttpToolsProtocol]:
    """uvicorn's `http` option for Loupe's servers: HeadLimitedProtocol with the settings'
    limits (a partial of a module-level class, so `loupe serve --workers N` can hand it to
    each process)."""
    return functools.partial(
        HeadLimitedProtocol,
        max_head_bytes=settings.max_header_bytes,
        head_timeout=settings.header_timeout_seconds,
    )
