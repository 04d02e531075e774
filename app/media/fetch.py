"""Fetch image URLs without becoming a way into the network Loupe runs in.

Every hop: parse once with httpx, resolve the host, refuse if any address is not public (see
netguard), connect to the checked address with the original Host header and TLS server name,
stream the body under a byte cap, and re-check redirects by hand.
"""

import asyncio
import ssl
from dataclasses import dataclass
from typing import Any

import certifi
import httpx

from app.media.netguard import (
    AddressPolicy,
    BlockedAddress,
    InvalidHost,
    ResolveTimeout,
    pin,
    resolve,
    url_host,
)

# Content-Type -> format; the body's magic bytes are checked again by images.check.
_IMAGE_TYPES = {
    "image/png": "png",
    "image/jpeg": "jpeg",
    "image/jpg": "jpeg",
    "image/pjpeg": "jpeg",
    "image/webp": "webp",
    "image/gif": "gif",
}
_REDIRECTS = (301, 302, 303, 307, 308)


class FetchError(Exception):
    """Why an image URL was not fetched; `type` becomes the field error's type."""

    def __init__(self, message: str, type_: str) -> None:
        super().__init__(message)
        self.message = message
        self.type = type_


@dataclass(frozen=True)
class FetchPolicy:
    addresses: AddressPolicy
    max_bytes: int
    # Each DNS lookup, and each TCP (and TLS) connect.
    connect_timeout: float = 3.0
    # Silence while waiting for the headers or the next piece of the body.
    read_timeout: float = 5.0
    # For the whole fetch, redirects included: a server trickling bytes cannot hold us.
    timeout: float = 10.0
    max_redirects: int = 3

    @classmethod
    def from_settings(cls, settings: Any) -> "FetchPolicy":
        return cls(
            addresses=AddressPolicy.from_settings(settings),
            max_bytes=settings.max_image_bytes,
            connect_timeout=settings.fetch_connect_timeout_seconds,
            read_timeout=settings.fetch_read_timeout_seconds,
            timeout=settings.fetch_timeout_seconds,
            max_redirects=settings.fetch_max_redirects,
        )


@dataclass(frozen=True)
class FetchedImage:
    data: bytes
    format: str
    url: str


def trust_context(ca_bundle: Any) -> ssl.SSLContext | None:
    """The public CAs plus a private bundle (LOUPE_CA_BUNDLE); None without one (the default)."""
    if not ca_bundle:
        return None
    context = ssl.create_default_context(cafile=certifi.where())
    context.load_verify_locations(cafile=str(ca_bundle))
    return context


def new_client(policy: FetchPolicy, verify: ssl.SSLContext | None = None) -> httpx.AsyncClient:
    """A client for `fetch_image`: no redirects, no proxy variables, no connection reuse.

    Args:
        verify: the TLS trust to check servers against; None is httpx's default (the
            certifi CA bundle, certificate and host name checked).
    """
    return httpx.AsyncClient(
        follow_redirects=False,
        trust_env=False,
        verify=True if verify is None else verify,
        timeout=httpx.Timeout(policy.read_timeout, connect=policy.connect_timeout),
        # Pooled connections are keyed by address; reusing one for another host name would
        # send that host's request over a TLS session checked for the first.
        limits=httpx.Limits(max_keepalive_connections=0),
        headers={
            "User-Agent": "Loupe-ImageFetcher/1",
            "Accept": ", ".join(t for t in _IMAGE_TYPES if t not in ("image/jpg", "image/pjpeg")),
            "Accept-Encoding": "identity",
        },
    )


def parse_url(url: str | httpx.URL) -> httpx.URL:
    """The URL, if it is one Loupe may fetch: http(s), a host, no credentials."""
    try:
        parsed = httpx.URL(url) if isinstance(url, str) else url
    except (httpx.InvalidURL, TypeError, ValueError) as exc:
        raise FetchError(f"not a valid URL: {exc}", "url_invalid") from exc
    if parsed.scheme not in ("http", "https"):
        raise FetchError("only http and https URLs are fetched", "url_scheme")
    if not parsed.raw_host:
        raise FetchError("the URL has no host", "url_invalid")
    if parsed.userinfo:
        raise FetchError("the URL must not carry credentials", "url_invalid")
    return parsed


async def fetch_image(client: httpx.AsyncClient, url: str, policy: FetchPolicy) -> FetchedImage:
    """The image at `url`, fetched under `policy`; raises FetchError."""
    try:
        async with asyncio.timeout(policy.timeout):
            return await _fetch(client, parse_url(url), policy)
    except TimeoutError as exc:
        raise FetchError(
            f"no complete answer within {policy.timeout:g} s", "image_fetch_timeout"
        ) from exc


async def _fetch(client: httpx.AsyncClient, target: httpx.URL, policy: FetchPolicy) -> FetchedImage:
    for _ in range(policy.max_redirects + 1):
        host = url_host(target)
        port = target.port or (443 if target.scheme == "https" else 80)
        try:
            addresses = await resolve(host, port, policy.addresses, policy.connect_timeout)
        except ResolveTimeout as exc:
            raise FetchError(str(exc), "image_fetch_timeout") from exc
        except (BlockedAddress, InvalidHost) as exc:
            raise FetchError(str(exc), "url_blocked") from exc
        pinned, headers, extensions = pin(target, addresses[0])
        request = client.build_request("GET", pinned, headers=headers, extensions=extensions)
        try:
            response = await client.send(request, stream=True)
            try:
                if response.status_code in _REDIRECTS and "location" in response.headers:
                    # Resolved against the URL as written, never the pinned address.
                    target = parse_url(target.join(response.headers["location"]))
                    continue
                return await _read_image(response, host, str(target), policy)
            finally:
                await response.aclose()
        # Raised while connecting, or while the body streams in.
        except httpx.ConnectTimeout as exc:
            raise FetchError(
                f"could not connect to {host} within {policy.connect_timeout:g} s",
                "image_fetch_timeout",
            ) from exc
        except httpx.TimeoutException as exc:
            raise FetchError(
                f"{host} sent nothing for {policy.read_timeout:g} s", "image_fetch_timeout"
            ) from exc
        except httpx.HTTPError as exc:
            raise FetchError(_failure(host, exc), "image_fetch_failed") from exc
    raise FetchError(f"more than {policy.max_redirects} redirects", "image_fetch_failed")


def _failure(host: str, exc: BaseException) -> str:
    cause: BaseException | None = exc
    while cause is not None:
        if isinstance(cause, ssl.SSLCertVerificationError):
            # Worth showing: the usual fix (a name or CA mismatch) is on the client's side.
            return f"the TLS certificate of {host} was not accepted: {cause.verify_message}"
        cause = cause.__cause__ or cause.__context__
    return f"could not fetch from {host}: {type(exc).__name__}"


async def _read_image(
    response: httpx.Response, host: str, url: str, policy: FetchPolicy
) -> FetchedImage:
    if response.status_code != 200:
        raise FetchError(f"{host} answered HTTP {response.status_code}", "image_fetch_failed")
    media_type = response.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    fmt = _IMAGE_TYPES.get(media_type)
    if fmt is None:
        raise FetchError(
            f"the response is {media_type or 'untyped'}, not image/png, jpeg, webp or gif",
            "image_content_type",
        )
    too_large = FetchError(
        f"the image is larger than {policy.max_bytes} bytes (LOUPE_MAX_IMAGE_BYTES)",
        "image_too_large",
    )
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > policy.max_bytes:
        raise too_large
    # Counted while streaming: Content-Length may be absent or wrong.
    body = bytearray()
    async for chunk in response.aiter_bytes():
        body += chunk
        if len(body) > policy.max_bytes:
            raise too_large
    return FetchedImage(bytes(body), fmt, url)
