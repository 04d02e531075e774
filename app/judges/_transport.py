"""The transport under the judge's httpx client: Loupe's own requests through `LeanPool`, any
other through httpx-aiohttp.

A request whose body is in memory, to an http or https URL, with no proxy, no server name of
its own and an answer read whole (every request the judge client makes) is sent by
`_lean_http.LeanPool` and answered with its body read already, up to the endpoint's cap
(`ReadBody`). Anything else takes httpx-aiohttp's own path. aiohttp's client was the largest
part of the service's CPU per judge call (docs/benchmarks.md, issue 31).
"""

from collections.abc import AsyncIterator
from typing import Any

import httpx
from httpx_aiohttp.transport import AiohttpTransport

from app.judges._http1 import BodyTooLarge
from app.judges._lean_http import LeanPool
from app.judges._resolver import PolicyResolver
from app.judges._types import DEFAULT_MAX_RESPONSE_BYTES

# Marks a request whose answer the caller reads as it comes (`stream=True`): the pool reads
# whole answers only.
STREAMED = "loupe_streamed"

# Slices a compressed body is decoded in: one inflates to at most about 16 MiB (deflate's
# ratio) before the cap counts it.
_DECODE_SLICE = 16 * 1024


class ReadBody(httpx.AsyncByteStream):
    """A response body the pool has read (None: it ran past the cap, and was left unread)."""

    def __init__(self, body: bytes | None, limit: int) -> None:
        self._body = body
        self._limit = limit

    async def read_up_to(self, limit: int) -> bytes:
        """The whole body as it came, or BodyTooLarge when it is more than `limit` bytes."""
        if self._body is None or len(self._body) > limit:
            raise BodyTooLarge(min(limit, self._limit))
        return self._body

    async def __aiter__(self) -> AsyncIterator[bytes]:
        if self._body is None:
            raise BodyTooLarge(self._limit)
        view = memoryview(self._body)
        for start in range(0, len(view), _DECODE_SLICE):
            yield bytes(view[start : start + _DECODE_SLICE])

    async def aclose(self) -> None:
        pass


class LeanAiohttpTransport(AiohttpTransport):
    def __init__(
        self,
        *,
        resolver: PolicyResolver | None = None,
        max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
        **options: Any,
    ) -> None:
        super().__init__(**options)
        self.max_response_bytes = max_response_bytes
        self.pool = LeanPool(self.ssl_context, self.limits, resolver)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        extensions = request.extensions
        if (
            self.proxy is not None
            or extensions.get("sni_hostname")
            or extensions.get(STREAMED)
            or not isinstance(request.stream, httpx.ByteStream)
            or request.url.scheme not in ("http", "https")
            # Answered without a body whatever their headers say: the parser cannot tell.
            or request.method in ("HEAD", "CONNECT")
        ):
            return await super().handle_async_request(request)
        limit = self.max_response_bytes
        answer = await self.pool.send(request, limit)
        return httpx.Response(
            status_code=answer.status,
            headers=answer.headers,
            stream=ReadBody(answer.body, limit),
            request=request,
            extensions={"http_version": b"HTTP/" + answer.http_version.encode()},
        )

    async def aclose(self) -> None:
        await self.pool.aclose()
        await super().aclose()
