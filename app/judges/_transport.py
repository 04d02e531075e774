"""httpx-aiohttp's transport, without what it redoes for every judge request.

The SDK's requests reach aiohttp through httpx-aiohttp's transport, which hands aiohttp the
request's httpx `Headers` (a mapping each of whose lookups scans every header, so aiohttp's
copy of them costs a scan per header), makes a new aiohttp timeout for each request, and gives
back a response whose body httpx then reads through its chunkers and decoders. Here the headers
go over as plain pairs, timeouts are made once per value, and a body without a
Content-Encoding is read straight from aiohttp, up to the endpoint's cap (`read_up_to`). Any
other request (through a proxy, with a streamed body, or a server name of its own) takes
httpx-aiohttp's own path. Together about a tenth of the judge path's CPU per call
(docs/benchmarks.md, issue 31).
"""

from typing import Any

import aiohttp
import httpx
from httpx_aiohttp.transport import (
    AiohttpResponseStream,
    AiohttpTransport,
    map_aiohttp_exceptions,
)


class BodyTooLarge(Exception):
    """A body ran past the cap it was read with; the rest was left unread."""


class LeanResponseStream(AiohttpResponseStream):
    async def read_up_to(self, limit: int) -> bytes:
        """The whole body as it came (no Content-Encoding to undo), or BodyTooLarge as soon
        as it passes `limit` bytes."""
        parts: list[bytes] = []
        size = 0
        content = self._aiohttp_response.content
        with map_aiohttp_exceptions():
            while chunk := await content.readany():
                size += len(chunk)
                if size > limit:
                    raise BodyTooLarge(limit)
                parts.append(chunk)
        return b"".join(parts)


class LeanAiohttpTransport(AiohttpTransport):
    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._timeouts: dict[tuple[Any, ...], aiohttp.ClientTimeout] = {}

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        extensions = request.extensions
        if (
            self.proxy is not None
            or extensions.get("sni_hostname")
            or not isinstance(request.stream, httpx.ByteStream)
        ):
            return await super().handle_async_request(request)
        if not isinstance(self.client, aiohttp.ClientSession):
            self.client = self.get_client()
        timeout = extensions.get("timeout", {})
        key = (timeout.get("connect"), timeout.get("read"), timeout.get("pool"))
        client_timeout = self._timeouts.get(key)
        if client_timeout is None:
            client_timeout = self._timeouts[key] = aiohttp.ClientTimeout(
                sock_connect=key[0], sock_read=key[1], connect=key[2]
            )
        try:
            headers = [
                (name.decode("ascii"), value.decode("ascii")) for name, value in request.headers.raw
            ]
        except UnicodeDecodeError:
            headers = request.headers.multi_items()  # decoded as httpx encoded them
        with map_aiohttp_exceptions():
            response = await self.client.request(
                method=request.method,
                url=str(request.url),
                headers=headers,
                data=request.content or None,
                allow_redirects=False,
                auto_decompress=False,
                compress=False,
                timeout=client_timeout,
            ).__aenter__()
        return httpx.Response(
            status_code=response.status,
            headers=response.raw_headers,
            stream=LeanResponseStream(response),
            request=request,
            extensions=(
                {"http_version": b"HTTP/1.1", "reason_phrase": response.reason.encode()}
                if response.reason
                else {"http_version": b"HTTP/1.1"}
            ),
        )
