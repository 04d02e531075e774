"""The HTTP client under the judge's AsyncOpenAI: aiohttp, without httpx's per-request extras.

The SDK builds every request through `build_request` and sends it through `send`, both public
httpx methods. httpx's versions merge client-level cookies, params and headers, run the auth
and redirect flows and parse each response's Set-Cookie headers into a jar: work a judge
endpoint never needs (the SDK sets its own headers and auth; chat completions do not redirect
or set cookies) that cost about a sixth of the service's CPU per judge call. Requests of any
other shape fall back to httpx's own code.
"""

from typing import Any

import httpx
import openai


class LeanAioHttpClient(openai.DefaultAioHttpClient):
    def build_request(  # type: ignore[override]
        self,
        method: str,
        url: httpx.URL | str,
        *,
        content: bytes | None = None,
        headers: httpx.Headers | None = None,
        timeout: Any = httpx.USE_CLIENT_DEFAULT,
        extensions: dict[str, Any] | None = None,
        **other: Any,
    ) -> httpx.Request:
        if (
            any(value is not None for value in other.values())
            or not isinstance(url, httpx.URL)
            or not url.is_absolute_url
            or not isinstance(content, bytes)
            or not isinstance(headers, httpx.Headers)
        ):
            return super().build_request(
                method,
                url,
                content=content,
                headers=headers,
                timeout=timeout,
                extensions=extensions,
                **other,
            )
        if self.headers:
            # Client defaults (User-Agent, Accept-Encoding...) under the SDK's own headers.
            merged = self.headers.copy()
            merged.update(headers)
            headers = merged
        timeout = self.timeout if timeout is httpx.USE_CLIENT_DEFAULT else httpx.Timeout(timeout)
        return httpx.Request(
            method,
            url,
            content=content,
            headers=headers,
            extensions={**(extensions or {}), "timeout": timeout.as_dict()},
        )

    async def send(  # type: ignore[override]
        self,
        request: httpx.Request,
        *,
        stream: bool = False,
        **_: Any,
    ) -> httpx.Response:
        if self.is_closed:
            raise RuntimeError("Cannot send a request, as the client has been closed.")
        # Proxies from the environment are mounted per URL pattern, as httpx would pick them.
        transport = self._transport_for_url(request.url)
        response = await transport.handle_async_request(request)
        response.request = request
        try:
            if not stream:
                await response.aread()
        except BaseException:
            await response.aclose()
            raise
        return response
