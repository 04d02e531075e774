"""Refuse request bodies over the configured size before they are read into memory."""

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.problems import ErrorDialect, Problem, field_error, otlp_dialect, problem_response


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
