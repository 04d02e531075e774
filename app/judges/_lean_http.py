"""HTTP/1.1 for the judge's own requests: asyncio connections and httptools' parser.

Every judge call is one shape of request: a POST of a body already in memory to a fixed URL,
answered by one body that is read whole, up to a cap. aiohttp's client, made for every shape
(redirects, cookies, proxies, streamed bodies, middlewares, traces), cost ~250 µs of CPU per
request on the machine Loupe is measured on, against ~100 µs for asyncio's own socket work:
the largest single part of the service's CPU per judge call (docs/benchmarks.md, issue 31).
This pool sends that one shape and nothing else; any other request (a proxy, a streamed body,
a server name of its own) still goes through aiohttp (`_transport.py`).

What it keeps of a client's duties: connections kept alive per origin and reused last-in first
out, dropped once idle past the keep-alive expiry; a cap on open connections (waiting for one
is the pool timeout); the connect and read timeouts; TLS with the endpoint's trust and the URL's
host for SNI and the certificate; with an address policy, every connection made to an address
`PolicyResolver` has just checked. The response is parsed by httptools (llhttp, the parser
uvicorn serves with), its head capped at MAX_HEAD_BYTES and its body at the caller's cap, and
a connection whose exchange did not end cleanly is never reused. Errors are httpx's, caused by
the underlying one, as the SDK and `_errors.connection_kind` read them.
"""

import asyncio
import collections
import socket
import ssl
from typing import Any

import httpx

from app.judges._http1 import Answer, Connection, request_bytes
from app.judges._resolver import AddressRefused, PolicyResolver

HAPPY_EYEBALLS_DELAY = 0.25


class LeanPool:
    """Connections to the judge's origins; one per request in flight, kept alive between."""

    def __init__(
        self,
        ssl_context: ssl.SSLContext,
        limits: httpx.Limits,
        resolver: PolicyResolver | None = None,
    ) -> None:
        self.ssl_context = ssl_context
        self.resolver = resolver
        # Idle connections are not capped below this (as aiohttp's connector did not): with
        # more requests in flight than the SDK's keep-alive cap, the rest would be opened anew
        # for every request.
        self.max_connections = limits.max_connections
        self.keepalive_expiry = limits.keepalive_expiry
        self._idle: dict[tuple[str, str, int], collections.deque[Connection]] = {}
        self._idle_count = 0
        self._open = 0
        self._waiters: collections.deque[asyncio.Future[None]] = collections.deque()
        self._closed = False
        self._url: httpx.URL | None = None
        self._origin = ("", "", 0)

    async def send(self, request: httpx.Request, limit: int) -> Answer:
        """`request` sent (its body already read) and its answer read up to `limit` bytes."""
        url = request.url
        timeouts = request.extensions.get("timeout", {})
        message = request_bytes(request)
        if url is self._url:
            # Judge requests share one URL object (`LeanOpenAI._build_request`): its parts
            # are worked out by properties, each time.
            origin = self._origin
        else:
            port = url.port or (443 if url.scheme == "https" else 80)
            # The host as it goes on the wire (IDNA 2008, as httpx writes the Host header and
            # netguard checks it): Python's own IDNA would look up another name for some.
            origin = self._origin = (url.scheme, url.raw_host.decode("ascii"), port)
            self._url = url
        connection = await self._checkout(origin, timeouts)
        try:
            answer = await connection.exchange(message, limit, timeouts.get("read"))
        except BaseException:
            self._drop(connection)
            raise
        if connection.reusable(answer) and not self._closed:
            self._keep(origin, connection)
        else:
            self._drop(connection)
        return answer

    async def aclose(self) -> None:
        """Closes the kept connections; those in use close when their request ends, and
        requests waiting for one fail."""
        self._closed = True
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_exception(httpx.PoolTimeout("the client was closed"))
        for connections in self._idle.values():
            for connection in connections:
                connection.close()
        self._idle.clear()
        self._open -= self._idle_count
        self._idle_count = 0

    async def _checkout(self, origin: tuple[str, str, int], timeouts: dict[str, Any]) -> Connection:
        """A kept connection to `origin`, or a new one once there is room for it: at the cap,
        another origin's idle connection is closed, or the next one freed is waited for (up
        to the pool timeout)."""
        loop = asyncio.get_running_loop()
        pool_timeout = timeouts.get("pool")
        deadline = None if pool_timeout is None else loop.time() + pool_timeout
        while True:
            if self._closed:
                raise RuntimeError("Cannot send a request, as the client has been closed.")
            connection = self._idle_one(origin)
            if connection is not None:
                return connection
            if self.max_connections is None or self._open < self.max_connections:
                self._open += 1
                try:
                    return await self._connect(origin, timeouts)
                except BaseException:
                    self._open -= 1
                    self._wake()
                    raise
            if self._idle_count:
                self._close_oldest_idle()
                continue
            waiter = loop.create_future()
            self._waiters.append(waiter)
            try:
                async with asyncio.timeout_at(deadline):
                    await waiter
            except BaseException as exc:
                if waiter.done() and not waiter.cancelled() and waiter.exception() is None:
                    self._wake()  # woken, then cancelled or timed out: the turn goes on
                elif waiter in self._waiters:
                    self._waiters.remove(waiter)
                if isinstance(exc, TimeoutError):
                    raise httpx.PoolTimeout("no connection came free in time") from exc
                raise

    def _idle_one(self, origin: tuple[str, str, int]) -> Connection | None:
        connections = self._idle.get(origin)
        if not connections:
            return None
        now = asyncio.get_running_loop().time()
        while connections:
            connection = connections.pop()
            self._idle_count -= 1
            expired = (
                self.keepalive_expiry is not None
                and now - connection.idle_since > self.keepalive_expiry
            )
            if not connection.closed and not expired:
                return connection
            self._drop(connection)
        return None

    def _keep(self, origin: tuple[str, str, int], connection: Connection) -> None:
        connection.idle_since = asyncio.get_running_loop().time()
        self._idle.setdefault(origin, collections.deque()).append(connection)
        self._idle_count += 1
        self._wake()

    def _drop(self, connection: Connection) -> None:
        connection.close()
        self._open -= 1
        self._wake()

    def _wake(self) -> None:
        """The first request waiting for a connection looks again (one was kept or freed)."""
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)
                return

    def _close_oldest_idle(self) -> None:
        oldest = min(
            (c for connections in self._idle.values() for c in connections),
            key=lambda c: c.idle_since,
        )
        for connections in self._idle.values():
            if oldest in connections:
                connections.remove(oldest)
        self._idle_count -= 1
        self._drop(oldest)

    async def _connect(self, origin: tuple[str, str, int], timeouts: dict[str, Any]) -> Connection:
        scheme, host, port = origin
        loop = asyncio.get_running_loop()
        tls = self.ssl_context if scheme == "https" else None
        try:
            async with asyncio.timeout(timeouts.get("connect")):
                if self.resolver is None:
                    _, connection = await loop.create_connection(
                        lambda: Connection(loop),
                        host,
                        port,
                        ssl=tls,
                        server_hostname=host if tls else None,
                        # A name with IPv6 and IPv4 addresses: the next is tried after 250 ms,
                        # not after the first has used the whole connect timeout (as aiohttp).
                        happy_eyeballs_delay=HAPPY_EYEBALLS_DELAY,
                    )
                    return connection
                return await self._connect_checked(loop, host, port, tls)
        except TimeoutError as exc:
            raise httpx.ConnectTimeout(f"no connection to {host} within the timeout") from exc
        except OSError as exc:  # refused, reset, DNS (gaierror), TLS (SSLError)
            raise httpx.ConnectError(str(exc) or type(exc).__name__) from exc

    async def _connect_checked(
        self, loop: asyncio.AbstractEventLoop, host: str, port: int, tls: ssl.SSLContext | None
    ) -> Connection:
        """A connection to one of the addresses the policy just checked for `host`."""
        assert self.resolver is not None
        try:
            addresses = await self.resolver.resolve(host, port, socket.AF_UNSPEC)
        except AddressRefused as exc:  # named in the chain, where refusal_in finds it
            raise httpx.ConnectError(str(exc)) from exc
        last: OSError | None = None
        for address in addresses:
            try:
                _, connection = await loop.create_connection(
                    lambda: Connection(loop),
                    address["host"],
                    address["port"],
                    family=address["family"],
                    ssl=tls,
                    server_hostname=host if tls else None,
                )
                return connection
            except OSError as exc:
                last = exc
        raise last or OSError(f"{host} has no address to connect to")
