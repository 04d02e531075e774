"""The API's request telemetry: an X-Request-Id per request, and HTTP metrics by route template."""

import re
import time
import uuid

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.telemetry import logs
from app.telemetry.metrics import HTTP_DURATION, HTTP_REQUESTS

# A client's id is echoed and logged: printable, short, no spaces or quotes.
_CLIENT_REQUEST_ID = re.compile(r"[A-Za-z0-9._:/+=@-]{1,128}")
# Paths no route matched are one label value, so scanners cannot grow the label set.
UNMATCHED = "unmatched"


def _client_request_id(scope: Scope) -> str | None:
    for name, value in scope.get("headers") or ():
        if name == b"x-request-id":
            text = value.decode("latin-1").strip()
            return text if _CLIENT_REQUEST_ID.fullmatch(text) else None
    return None


class RequestTelemetryMiddleware:
    """Accepts (or makes) the request id, echoes it, and counts and times every request."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_id = _client_request_id(scope) or f"req_{uuid.uuid4().hex}"
        token = logs.request_id.set(request_id)
        # For the 500 of an unhandled error, answered outside this layer (app/problems.py).
        scope.setdefault("state", {})["request_id"] = request_id
        started = time.perf_counter()
        method = scope.get("method", "GET")
        answered = False
        header = (b"x-request-id", request_id.encode("latin-1"))

        def count(status: int) -> None:
            route = scope.get("route")
            template = getattr(route, "path", None) or UNMATCHED
            HTTP_REQUESTS.labels(template, method, str(status)).inc()

        async def send_with_id(message: Message) -> None:
            nonlocal answered
            if message["type"] == "http.response.start":
                # Counted before the client can read the answer: a scrape right after it
                # sees the request.
                answered = True
                count(message["status"])
                message["headers"] = [*message.get("headers", []), header]
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            logs.request_id.reset(token)
            if not answered:
                count(500)  # an unhandled error: the server's 500 is sent outside this layer
            route = scope.get("route")
            template = getattr(route, "path", None) or UNMATCHED
            HTTP_DURATION.labels(template, method).observe(time.perf_counter() - started)
