"""`Loupe` and `AsyncLoupe`: one authenticated connection and the resources built on it."""

import os
from typing import Any

import httpx

from . import _async_resources, _resources
from ._generated.client import AuthenticatedClient
from ._shared import DEFAULT_MAX_RETRIES


class Connection(AuthenticatedClient):
    """The generated authenticated connection, whose repr names no API key: the generated one
    prints its token and Authorization header, and tracebacks, debuggers and logs print reprs."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(base_url={self._base_url!r}, token='[secure]')"


def _connection(
    base_url: str | None, api_key: str | None, timeout: float, httpx_args: dict[str, Any] | None
) -> Connection:
    base_url = base_url or os.environ.get("LOUPE_URL")
    api_key = api_key or os.environ.get("LOUPE_API_KEY")
    if not base_url or not api_key:
        raise ValueError("give base_url and api_key, or set LOUPE_URL and LOUPE_API_KEY")
    return Connection(
        base_url=base_url.rstrip("/"),
        token=api_key,
        timeout=httpx.Timeout(timeout),
        httpx_args=httpx_args or {},
    )


class Loupe:
    """A Loupe API client; `base_url` and `api_key` default to $LOUPE_URL and $LOUPE_API_KEY.

    Args:
        timeout: seconds each request may take (httpx's connect, read, write and pool
            timeouts).
        max_retries: how many times a request is sent again on no answer, or on a 429 or 503
            whose Retry-After is at most 60 s (after that wait), when it is a read or a POST
            under an `idempotency_key`; a POST without one is sent once. 0: never.
        httpx_args: passed to `httpx.Client` (e.g. `{"trust_env": False}` or a transport).
    """

    def __init__(
        self,
        base_url: str | None = None,
        api_key: str | None = None,
        *,
        timeout: float = 60,
        max_retries: int = DEFAULT_MAX_RETRIES,
        httpx_args: dict[str, Any] | None = None,
    ) -> None:
        self.api = _connection(base_url, api_key, timeout, httpx_args)
        self.evaluations = _resources.Evaluations(self.api, max_retries)
        self.runs = _resources.Runs(self.api, max_retries)
        self.evals = _resources.Evals(self.api, max_retries)
        self.datasets = _resources.Datasets(self.api, max_retries)
        self.comparisons = _resources.Comparisons(self.api, max_retries)
        self.models = _resources.Models(self.api, max_retries)
        self.webhook_endpoints = _resources.WebhookEndpoints(self.api, max_retries)
        self.usage = _resources.UsageReports(self.api, max_retries)
        self.media = _resources.Media(self.api, max_retries)

    def close(self) -> None:
        self.api.get_httpx_client().close()

    def __enter__(self) -> "Loupe":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class AsyncLoupe:
    """The asyncio twin of `Loupe`: the same resources, each method awaited."""

    def __init__(
        self,
        base_url: str | None = None,
        api_key: str | None = None,
        *,
        timeout: float = 60,
        max_retries: int = DEFAULT_MAX_RETRIES,
        httpx_args: dict[str, Any] | None = None,
    ) -> None:
        self.api = _connection(base_url, api_key, timeout, httpx_args)
        self.evaluations = _async_resources.Evaluations(self.api, max_retries)
        self.runs = _async_resources.Runs(self.api, max_retries)
        self.evals = _async_resources.Evals(self.api, max_retries)
        self.datasets = _async_resources.Datasets(self.api, max_retries)
        self.comparisons = _async_resources.Comparisons(self.api, max_retries)
        self.models = _async_resources.Models(self.api, max_retries)
        self.webhook_endpoints = _async_resources.WebhookEndpoints(self.api, max_retries)
        self.usage = _async_resources.UsageReports(self.api, max_retries)
        self.media = _async_resources.Media(self.api, max_retries)

    async def close(self) -> None:
        await self.api.get_async_httpx_client().aclose()

    async def __aenter__(self) -> "AsyncLoupe":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
