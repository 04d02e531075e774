"""An endpoint's connections: the TLS trust they check servers against, and their close once
the client holding them is dropped."""

import asyncio
import contextlib
import ssl
from collections.abc import Callable
from functools import lru_cache

import certifi
import httpx
import openai

from app.judges._pacing import Pacer
from app.telemetry import logs

# Closes of dropped clients in progress: the loop keeps only weak references to its tasks.
_closing: set["asyncio.Task[None]"] = set()


def close_later(
    loop: asyncio.AbstractEventLoop | None,
    http: openai.AsyncOpenAI,
    pacer: Pacer,
    key: str,
    forget: Callable[[], None] = lambda: None,
) -> None:
    """Close a client nothing refers to any more; runs in whichever thread dropped it.
    `forget` takes its in-flight limit off /metrics."""
    logs.release_secret(key)
    forget()
    if loop is None or loop.is_closed():
        return

    async def close() -> None:
        await http.close()
        await pacer.close()

    def start() -> None:
        task = loop.create_task(close())
        _closing.add(task)
        task.add_done_callback(_closing.discard)

    # RuntimeError: the loop closed meanwhile, its process is exiting.
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(start)


@lru_cache(maxsize=8)
def trust(ca_bundle: str | None) -> ssl.SSLContext:
    """The TLS trust for an endpoint: the public CAs, plus a private bundle when given.

    One context per bundle, shared by every client: loading the CA store takes about 30 ms,
    which a client per tenant endpoint would otherwise pay each.
    """
    if ca_bundle is None:
        # What httpx would build for verify=True (SSL_CERT_FILE / SSL_CERT_DIR honoured).
        return httpx.create_ssl_context(verify=True, trust_env=True)
    context = ssl.create_default_context(cafile=certifi.where())
    context.load_verify_locations(cafile=ca_bundle)
    return context
