"""The HTTP client under the judge's AsyncOpenAI, without httpx's per-request extras; its
transport (`_transport.py`) sends Loupe's own requests through `_lean_http.LeanPool`.

The SDK builds every request through `build_request` and sends it through `send`, both public
httpx methods. httpx's versions merge client-level cookies, params and headers, run the auth
and redirect flows and parse each response's Set-Cookie headers into a jar: work a judge
endpoint never needs (the SDK sets its own headers and auth; chat completions do not redirect
or set cookies) that cost about a sixth of the service's CPU per judge call. Requests of any
other shape fall back to httpx's own code.

With an address policy (a tenant's model), every connection's address is checked against it
(`_resolver.py`) and proxy variables are ignored, as for image URLs and webhooks: a proxy would
resolve the name itself, out of the policy's sight.

Every body is read up to the endpoint's cap (`LOUPE_MAX_MODEL_RESPONSE_BYTES`, counted after
decompression) and no further: a model on a host a tenant chose could otherwise answer
gigabytes, all of it held in memory and stored on a result.
"""

import ssl
from typing import Any

import aiohttp
import httpx
import openai
from openai._models import FinalRequestOptions

from app.judges._http1 import BodyTooLarge
from app.judges._resolver import PolicyResolver, check_literal
from app.judges._transport import STREAMED, LeanAiohttpTransport, ReadBody
from app.judges._types import DEFAULT_MAX_RESPONSE_BYTES
from app.media.netguard import AddressPolicy, url_host


class ReplyRefused(openai.OpenAIError):
    """An endpoint's response body that Loupe does not read; what came of it was dropped.

    An OpenAIError, so the SDK passes it on as it is (no retry, no APIConnectionError).
    """

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


class ReplyTooLarge(ReplyRefused):
    """The body ran past the cap."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"the response body is larger than {limit} bytes")
        self.limit = limit


async def read_capped(response: httpx.Response, limit: int) -> bytes:
    """The whole (decoded) body of `response`, or ReplyTooLarge as soon as it passes `limit`
    bytes: a declared Content-Length over it is refused unread, and a body without one
    (chunked) is counted as it arrives (by the pool, which closes the connection with the rest
    unread; or here, for a response httpx-aiohttp made)."""
    # One pass over the raw pairs (each lookup in httpx's Headers scans them all).
    declared, codings = b"", []
    for name, value in response.headers.raw:
        lowered = name.lower()
        if lowered == b"content-length":
            declared = value
        elif lowered == b"content-encoding":
            codings += [c for c in value.lower().replace(b" ", b"").split(b",") if c]
    codings = [coding for coding in codings if coding != b"identity"]
    if declared.strip().isdigit() and int(declared) > limit:
        await response.aclose()
        raise ReplyTooLarge(limit)
    if len(codings) > 1:
        # Each layer multiplies what one slice inflates to before it is counted (two gzip
        # layers: a few hundred bytes to hundreds of MiB). No provider sends two.
        await response.aclose()
        raise ReplyRefused(
            f"the response body is encoded more than once ({b', '.join(codings).decode()})"
        )
    try:
        if isinstance(response.stream, ReadBody) and not codings:
            # Nothing to decode: the body as the pool read it, past httpx's chunkers.
            return await response.stream.read_up_to(limit)
        parts: list[bytes] = []
        size = 0
        # Decoded bytes: a gzip body counts as what it inflates to. One 16 KiB chunk inflates
        # to at most about 16 MiB (deflate's ratio) before it is counted and dropped.
        async for part in response.aiter_bytes():
            size += len(part)
            if size > limit:
                raise ReplyTooLarge(limit)
            parts.append(part)
        return b"".join(parts)
    except BodyTooLarge:
        await response.aclose()
        raise ReplyTooLarge(limit) from None
    except BaseException:
        await response.aclose()
        raise


class LeanAioHttpClient(openai.DefaultAioHttpClient):
    def __init__(
        self,
        *,
        address_policy: AddressPolicy | None = None,
        max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
        **options: Any,
    ) -> None:
        # Read by _init_transport, which httpx calls from its constructor.
        self.address_policy = address_policy
        self.max_response_bytes = max_response_bytes
        if address_policy is not None:
            options["trust_env"] = False
        super().__init__(**options)

    def _init_transport(  # type: ignore[override]
        self,
        verify: ssl.SSLContext | str | bool = True,
        limits: httpx.Limits = httpx.Limits(),
        **options: Any,
    ) -> httpx.AsyncBaseTransport:
        policy = self.address_policy
        capped = self.max_response_bytes
        if policy is None:
            given = options.pop("transport", None)
            if given is not None:
                return given
            return LeanAiohttpTransport(
                verify=verify, limits=limits, max_response_bytes=capped, **options
            )
        timeout = self.timeout.connect or self.timeout.pool or 60.0
        transport = LeanAiohttpTransport(
            verify=verify,
            limits=limits,
            trust_env=False,
            resolver=PolicyResolver(policy, timeout),
            max_response_bytes=capped,
        )

        def session() -> aiohttp.ClientSession:
            # httpx-aiohttp's own connector, resolving through the policy. No DNS cache:
            # every new connection is resolved and checked again.
            connector = aiohttp.TCPConnector(
                keepalive_timeout=limits.keepalive_expiry,
                ssl=transport.ssl_context,
                limit=limits.max_connections or 0,
                resolver=PolicyResolver(policy, timeout),
                use_dns_cache=False,
            )
            return aiohttp.ClientSession(connector=connector)

        transport.client = session
        return transport

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
            # Client defaults (User-Agent, Accept-Encoding...) under the SDK's own headers, as
            # raw pairs: Headers.update re-derives the encoding per key (5% of a worker's CPU).
            given = headers.raw
            taken = {key.lower() for key, _ in given}
            headers = httpx.Headers(
                [(key, value) for key, value in self.headers.raw if key.lower() not in taken]
                + given
            )
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
        if self.address_policy is not None:
            # An IP literal reaches no resolver: checked here, on every request.
            check_literal(self.address_policy, url_host(request.url))
        if stream:
            request.extensions[STREAMED] = True
        # Proxies from the environment are mounted per URL pattern, as httpx would pick them.
        transport = self._transport_for_url(request.url)
        response = await transport.handle_async_request(request)
        response.request = request
        if not stream:
            # What httpx's aread does, up to the cap (Loupe never streams a completion).
            response._content = await read_capped(response, self.max_response_bytes)
        return response


class LeanOpenAI(openai.AsyncOpenAI):
    """The SDK's async client, with what it derives again for every request from values fixed
    when it was made (each path's URL merged with the base URL, the default headers with the
    async library sniffed) derived once: most of the tenth of a worker's CPU per judge call that
    building the request took.

    Loupe's own requests (`post_bytes`: a POST of a serialised body with fixed headers) go
    through the SDK's `request`, its errors and its hooks, with their options copied from one
    the SDK made for the path and their request from one the SDK built for it: building both
    anew was about a quarter of the judge path's CPU per call (docs/benchmarks.md, issue 31).
    """

    def __init__(self, **options: Any) -> None:
        self._prepared_urls: dict[str, httpx.URL] = {}
        self._fixed_headers: dict[str, Any] | None = None
        # By (path, headers): the options post_bytes copies, and the request built from them.
        self._options: dict[tuple[Any, ...], FinalRequestOptions] = {}
        self._requests: dict[tuple[Any, ...], tuple[httpx.Request, bool]] = {}
        super().__init__(**options)

    async def post_bytes(
        self, path: str, content: bytes, headers: dict[str, str], idempotency_key: str
    ) -> httpx.Response:
        """POST `content` (JSON already) to `path`; the response, read, as `post` with
        `cast_to=httpx.Response` would return it (no retries: the caller's loop has them)."""
        key = (path, *headers.items())
        options = self._options.get(key)
        if options is None:
            options = self._options[key] = FinalRequestOptions.construct(
                method="post",
                url=path,
                headers=headers,
                max_retries=0,
                timeout=self.timeout,
                params={},
                content=b"",
            )
        this = options.model_copy(update={"content": content, "idempotency_key": idempotency_key})
        return await self.request(httpx.Response, this)

    def _build_request(
        self, options: FinalRequestOptions, *, retries_taken: int = 0
    ) -> httpx.Request:
        # post_bytes's requests differ only in their body: the headers, URL and extensions of
        # the first one the SDK built (for an empty body) serve every later one.
        content = options.content
        headers = options.headers
        if (
            type(content) is not bytes
            or options.method != "post"
            or options.timeout is not self.timeout
            or options.json_data is not None
            or options.extra_json is not None
            or options.files is not None
            or options.params
            or not isinstance(headers, dict)
            or not all(type(value) is str for value in headers.values())
            # A per-request header the SDK would add (OpenAI's client has none).
            or self._idempotency_header
        ):
            return super()._build_request(options, retries_taken=retries_taken)
        # The key too: the Authorization header comes from it.
        key = (options.url, retries_taken, self.api_key, *headers.items())
        built = self._requests.get(key)
        if built is None:
            first = super()._build_request(
                options.model_copy(update={"content": b""}), retries_taken=retries_taken
            )
            first.headers.pop("content-length", None)
            built = self._requests[key] = (first, super()._should_stream_response_body(first))
        first, stream = built
        headers = first.headers.copy()
        headers["Content-Length"] = str(len(content))
        # Given as a stream with its headers complete, the request is taken as it is: httpx
        # neither encodes the body nor derives its headers again (each lookup in a new
        # Headers first works out their encoding, a pass over all of them).
        request = httpx.Request(
            "POST",
            first.url,
            headers=headers,
            stream=httpx.ByteStream(content),
            extensions={**first.extensions, _STREAM: stream},
        )
        request.headers.encoding = headers.encoding
        request.read()
        return request

    def _should_stream_response_body(self, request: httpx.Request) -> bool:
        stream = request.extensions.get(_STREAM)
        if stream is None:
            return super()._should_stream_response_body(request)
        return bool(stream)

    def _prepare_url(self, url: str) -> httpx.URL:
        prepared = self._prepared_urls.get(url)
        if prepared is None:
            # Loupe's own few paths only: the cache stays small.
            prepared = self._prepared_urls[url] = super()._prepare_url(url)
        return prepared

    @property
    def user_agent(self) -> str:
        # The SDK names its class here: providers see the official client's name.
        return f"AsyncOpenAI/Python {self._version}"

    @property
    def default_headers(self) -> dict[str, Any]:
        if self._fixed_headers is None:
            # Without the SDK's platform headers (operating system, architecture, runtime and
            # versions): they tell a provider about the machine, and every header is scanned
            # again by each of the SDK's and httpx's lookups in a request's headers.
            self._fixed_headers = {
                name: value
                for name, value in super().default_headers.items()
                if name not in _PLATFORM_HEADERS
            }
        # A copy: callers merge into what they are given.
        return dict(self._fixed_headers)


# Whether the SDK streams a request's response, worked out once for the requests built alike.
_STREAM = "loupe_stream_response"

_PLATFORM_HEADERS = frozenset(
    {
        "X-Stainless-Lang",
        "X-Stainless-Package-Version",
        "X-Stainless-OS",
        "X-Stainless-Arch",
        "X-Stainless-Runtime",
        "X-Stainless-Runtime-Version",
        "X-Stainless-Async",
    }
)
