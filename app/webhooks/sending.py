"""One webhook attempt over HTTP: the receiver's name looked up and checked against the address
policy, the request pinned to the checked address, and its answer's head, all within one
deadline (LOUPE_WEBHOOK_TIMEOUT_SECONDS)."""

import asyncio
import contextlib
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

import httpx

from app.media.netguard import AddressPolicy, pin, resolve_sync, url_host

# How much of a receiver's answer is kept (the delivery log shows it).
RESPONSE_BODY_LIMIT = 2048

# Lookups run here, not on the attempt's event loop's default executor: `asyncio.run` waits for
# that one's threads at its end, so a resolver that hangs would hold the attempt past its
# deadline all the same. A lookup given up on finishes here in the background.
_LOOKUPS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="loupe-webhook-dns")


def port_of(url: httpx.URL) -> int:
    """The port a receiver's URL names, or its scheme's."""
    return url.port or (443 if url.scheme == "https" else 80)


async def attempt(
    url: httpx.URL, policy: AddressPolicy, content: bytes, headers: dict[str, str], timeout: float
) -> tuple[int, str]:
    """POST `content` to `url`; its status and the start of its body. Checked on every attempt
    and pinned to the checked address: DNS may have changed since registration (rebinding).
    Raises TimeoutError when the lookup and the answer's head take longer than `timeout` all
    told (a resolver that hangs holds the worker no longer than a receiver that does),
    BlockedAddress, InvalidHost and httpx.HTTPError."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    port = port_of(url)
    host = url_host(url)
    try:
        async with asyncio.timeout_at(deadline):
            lookup = partial(resolve_sync, host, port, policy)
            addresses = await loop.run_in_executor(_LOOKUPS, lookup)
    except TimeoutError as exc:
        raise TimeoutError(f"{host} did not resolve within {timeout:g} s") from exc
    pinned, pin_headers, extensions = pin(url, addresses[0])
    return await _post(
        pinned, content, {**headers, **pin_headers}, extensions, max(deadline - loop.time(), 0.0)
    )


async def _post(
    url: httpx.URL,
    content: bytes,
    headers: dict[str, str],
    extensions: dict[str, Any],
    timeout: float,
) -> tuple[int, str]:
    """POST one attempt; its status and the start of its body. Raises TimeoutError when the
    answer's head is not in within `timeout` all told, and httpx.HTTPError.

    The deadline covers the whole head: httpx's own timeouts are per read, so a receiver
    dribbling a byte at a time would hold the worker (shared with every tenant's scoring) for
    as long as it liked, past the event's lease. The body is read only as far as it is kept,
    and only until the same deadline: a 2xx head already says the event arrived.
    """
    deadline = asyncio.get_running_loop().time() + timeout
    # No redirects (3xx counts as failure) and no proxy variables rerouting the request.
    async with httpx.AsyncClient(
        timeout=timeout, follow_redirects=False, trust_env=False
    ) as client:
        request = client.build_request(
            "POST", url, content=content, headers=headers, extensions=extensions
        )
        async with asyncio.timeout_at(deadline):
            response = await client.send(request, stream=True)
        kept = bytearray()
        try:
            with contextlib.suppress(TimeoutError, httpx.HTTPError):
                async with asyncio.timeout_at(deadline):
                    async for chunk in response.aiter_raw():
                        kept += chunk
                        if len(kept) >= RESPONSE_BODY_LIMIT:
                            break
        finally:
            # Closing a body not read to its end drops the connection: the rest is never read.
            await response.aclose()
    text = kept[:RESPONSE_BODY_LIMIT].decode("utf-8", errors="replace")
    return response.status_code, text.replace("\x00", "")
