"""The judge's own HTTP/1.1 connections (`app/judges/_lean_http.py`) against a loopback server
that answers with exactly the bytes each test scripts: kept alive and reused, closed when the
server says so, bodies ended by the connection, interim answers, heads too large, header values
that would split the request, the pool's cap on connections and its timeouts."""

import asyncio
import contextlib
import gzip
import json
import socket
import ssl
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import httpx
import pytest
from pydantic import BaseModel

from app.judges import JudgeClient, JudgeEndpoint, JudgeError
from app.judges._lean_http import LeanPool
from app.judges._transport import LeanAiohttpTransport

ENDPOINT: dict[str, Any] = {
    "api_key": "sk-test-secret",
    "default_model": "judge-model",
    "timeout_seconds": 5,
    "backoff_base_seconds": 0.01,
    "backoff_cap_seconds": 0.05,
}

BODY = json.dumps(
    {
        "object": "chat.completion",
        "model": "judge-model",
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": '{"verdict": "yes"}'}}
        ],
        "usage": {"prompt_tokens": 3, "completion_tokens": 2},
    }
).encode()


def ok(body: bytes = BODY, extra: bytes = b"") -> bytes:
    return (
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
        + extra
        + b"Content-Length: %d\r\n\r\n" % len(body)
        + body
    )


# What the server sends for one request: the bytes, and whether it then closes.
Script = Callable[[bytes], tuple[bytes, bool]]


class RawServer:
    """A loopback HTTP/1.1 server answering every request with what `script` returns, counting
    the connections it accepted and the requests it read (each request's bytes kept)."""

    def __init__(self, script: Script, delay: float = 0.0, trickle: float = 0.0) -> None:
        self.script = script
        self.delay = delay
        # Seconds between 64-byte pieces of each answer (0: all at once).
        self.trickle = trickle
        self.connections = 0
        self.requests: list[bytes] = []
        self.open_now = 0
        self.most_open = 0
        self._lock = threading.Lock()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(0.1)
        self.port = self.listener.getsockname()[1]
        self.base_url = f"http://127.0.0.1:{self.port}/v1"
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.listener.accept()
            except OSError:
                continue
            with self._lock:
                self.connections += 1
                self.open_now += 1
                self.most_open = max(self.most_open, self.open_now)
            thread = threading.Thread(target=self._serve, args=(conn,), daemon=True)
            self._threads.append(thread)
            thread.start()

    def _serve(self, conn: socket.socket) -> None:
        buffered = b""
        try:
            with conn:
                conn.settimeout(5)
                while not self._stop.is_set():
                    while b"\r\n\r\n" not in buffered:
                        data = conn.recv(65536)
                        if not data:
                            return
                        buffered += data
                    head, _, rest = buffered.partition(b"\r\n\r\n")
                    length = next(
                        (
                            int(line.split(b":", 1)[1])
                            for line in head.split(b"\r\n")
                            if line.lower().startswith(b"content-length:")
                        ),
                        0,
                    )
                    while len(rest) < length:
                        rest += conn.recv(65536)
                    request, buffered = head + b"\r\n\r\n" + rest[:length], rest[length:]
                    with self._lock:
                        self.requests.append(request)
                    if self.delay:
                        time.sleep(self.delay)
                    answer, close = self.script(request)
                    if self.trickle:
                        for start in range(0, len(answer), 64):
                            conn.sendall(answer[start : start + 64])
                            time.sleep(self.trickle)
                    else:
                        conn.sendall(answer)
                    if close:
                        return
        except OSError:
            return
        finally:
            with self._lock:
                self.open_now -= 1

    def __enter__(self) -> "RawServer":
        thread = threading.Thread(target=self._accept, daemon=True)
        thread.start()
        self._threads.append(thread)
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self.listener.close()
        for thread in self._threads:
            thread.join(timeout=5)


class Answer(BaseModel):
    verdict: str


def calls(server: RawServer, count: int, *, together: bool = False, **overrides: Any) -> list:
    """`count` judge calls through one client (one after another, or all at once); each one's
    data, or the JudgeError it raised."""

    async def go() -> list:
        client = JudgeClient(JudgeEndpoint(**{**ENDPOINT, **overrides}))
        try:

            async def one(i: int) -> Any:
                try:
                    reply = await client.call([{"role": "user", "content": f"q{i}"}], Answer)
                    return reply.data
                except JudgeError as error:
                    return error

            if together:
                return list(await asyncio.gather(*(one(i) for i in range(count))))
            return [await one(i) for i in range(count)]
        finally:
            await client.close()

    overrides = {"base_url": server.base_url, "max_attempts": 1, **overrides}
    return asyncio.run(go())


@pytest.fixture
def serve() -> Iterator[Callable[..., RawServer]]:
    servers: list[RawServer] = []

    def start(script: Script, delay: float = 0.0, trickle: float = 0.0) -> RawServer:
        server = RawServer(script, delay, trickle).__enter__()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.__exit__()


class TestConnections:
    def test_one_connection_serves_call_after_call(self, serve: Callable[..., RawServer]) -> None:
        server = serve(lambda request: (ok(), False))
        assert calls(server, 5) == [{"verdict": "yes"}] * 5
        assert server.connections == 1 and len(server.requests) == 5

    def test_a_server_that_closes_after_answering_gets_a_new_connection_each_time(
        self, serve: Callable[..., RawServer]
    ) -> None:
        server = serve(lambda request: (ok(extra=b"Connection: close\r\n"), True))
        assert calls(server, 3) == [{"verdict": "yes"}] * 3
        assert server.connections == 3

    def test_an_http_1_0_answer_is_not_kept_alive(self, serve: Callable[..., RawServer]) -> None:
        server = serve(lambda request: (ok().replace(b"HTTP/1.1", b"HTTP/1.0", 1), True))
        assert calls(server, 2) == [{"verdict": "yes"}] * 2
        assert server.connections == 2

    def test_a_body_ended_by_closing_the_connection_is_read_whole(
        self, serve: Callable[..., RawServer]
    ) -> None:
        server = serve(lambda request: (b"HTTP/1.1 200 OK\r\n\r\n" + BODY, True))
        assert calls(server, 2) == [{"verdict": "yes"}] * 2

    def test_an_interim_answer_is_passed_over(self, serve: Callable[..., RawServer]) -> None:
        server = serve(lambda request: (b"HTTP/1.1 100 Continue\r\n\r\n" + ok(), False))
        assert calls(server, 2) == [{"verdict": "yes"}] * 2
        assert server.connections == 1

    def test_calls_at_once_open_no_more_connections_than_the_cap(
        self, serve: Callable[..., RawServer]
    ) -> None:
        server = serve(lambda request: (ok(), False), delay=0.05)

        async def go() -> list[Any]:
            async with open_pool(max_connections=2) as pool:
                return list(await asyncio.gather(*(post(pool, server) for _ in range(6))))

        answers = asyncio.run(go())
        assert [answer.status for answer in answers] == [200] * 6
        assert server.most_open <= 2 and server.connections == 2

    def test_waiting_for_a_connection_past_the_pool_timeout_fails(
        self, serve: Callable[..., RawServer]
    ) -> None:
        server = serve(lambda request: (ok(), False), delay=1.0)

        async def go() -> list[Any]:
            async with open_pool(max_connections=1) as pool:
                return list(
                    await asyncio.gather(
                        post(pool, server), post(pool, server), return_exceptions=True
                    )
                )

        first, second = asyncio.run(go())
        assert first.status == 200
        assert isinstance(second, httpx.PoolTimeout)

    def test_an_idle_connection_past_its_expiry_is_not_reused(
        self, serve: Callable[..., RawServer]
    ) -> None:
        server = serve(lambda request: (ok(), False))

        async def go() -> None:
            async with open_pool(keepalive_expiry=0.05) as pool:
                await post(pool, server)
                await asyncio.sleep(0.2)
                await post(pool, server)

        asyncio.run(go())
        assert server.connections == 2


class TestAnswersRefused:
    def test_a_head_past_its_cap_fails_the_call(self, serve: Callable[..., RawServer]) -> None:
        padding = b"".join(b"X-Pad-%d: %s\r\n" % (i, b"p" * 1000) for i in range(80))
        server = serve(lambda request: (ok(extra=padding), False))
        [error] = calls(server, 1)
        assert isinstance(error, JudgeError) and error.type == "judge_unreachable"

    def test_a_header_that_never_ends_fails_the_call(self, serve: Callable[..., RawServer]) -> None:
        # httptools holds a header's value until it ends: the cap counts the bytes received.
        endless = b"HTTP/1.1 200 OK\r\nX-Long: " + b"v" * (256 * 1024)
        server = serve(lambda request: (endless, False))
        [error] = calls(server, 1)
        assert isinstance(error, JudgeError) and error.type == "judge_unreachable"

    def test_too_many_headers_fail_the_call(self, serve: Callable[..., RawServer]) -> None:
        many = b"".join(b"X-%d: 1\r\n" % i for i in range(300))
        server = serve(lambda request: (ok(extra=many), False))
        [error] = calls(server, 1)
        assert isinstance(error, JudgeError) and error.type == "judge_unreachable"

    def test_a_malformed_status_line_fails_the_call(self, serve: Callable[..., RawServer]) -> None:
        server = serve(lambda request: (b"NOT HTTP AT ALL\r\n\r\n", True))
        [error] = calls(server, 1)
        assert isinstance(error, JudgeError) and error.type == "judge_unreachable"

    def test_a_trickling_answer_is_read_while_bytes_keep_coming(
        self, serve: Callable[..., RawServer]
    ) -> None:
        # The read timeout counts from the last bytes read, not from the request.
        answer = ok(BODY + b" " * 3000)
        server = serve(lambda request: (answer, False), trickle=0.03)
        assert len(answer) // 64 * 0.03 > 1.0  # longer in all than the timeout below
        assert calls(server, 1, timeout_seconds=0.5) == [{"verdict": "yes"}]

    def test_an_answer_that_stops_coming_times_out(self, serve: Callable[..., RawServer]) -> None:
        server = serve(lambda request: (ok()[:40], False), delay=0.0)
        [error] = calls(server, 1, timeout_seconds=0.3)
        assert isinstance(error, JudgeError) and error.type == "judge_timeout"


class TestRequestsRefused:
    def test_a_key_with_a_line_break_never_reaches_the_server_as_a_header(
        self, serve: Callable[..., RawServer]
    ) -> None:
        server = serve(lambda request: (ok(), False))
        [error] = calls(server, 1, api_key="sk-a\r\nX-Injected: 1")
        assert isinstance(error, JudgeError)
        assert not any(b"X-Injected" in request for request in server.requests)


def _trust() -> ssl.SSLContext:
    return ssl.create_default_context()


@contextlib.asynccontextmanager
async def open_pool(**limits: Any) -> AsyncIterator[LeanPool]:
    pool = LeanPool(_trust(), httpx.Limits(**limits))
    try:
        yield pool
    finally:
        await pool.aclose()


async def post(
    pool: LeanPool, server: RawServer, pool_timeout: float | None = 0.3, read: float = 5.0
) -> Any:
    request = httpx.Request(
        "POST",
        f"{server.base_url}/chat/completions",
        content=b"{}",
        extensions={"timeout": {"connect": 5.0, "read": read, "pool": pool_timeout}},
    )
    return await pool.send(request, 1 << 20)


class TestReviewedEdges:
    """What an outside review of the pool found, each driven against the loopback server."""

    def test_a_second_answer_in_the_same_read_is_not_handed_to_the_next_request(
        self, serve: Callable[..., RawServer]
    ) -> None:
        stray = b"HTTP/1.1 200 OK\r\nX-Injected: yes\r\nContent-Length: 20\r\n\r\n"
        server = serve(lambda request: (ok() + stray, False))
        assert calls(server, 2) == [{"verdict": "yes"}] * 2
        # The connection with bytes nobody asked for was not used again.
        assert server.connections == 2

    def test_trailers_are_not_taken_for_headers(self, serve: Callable[..., RawServer]) -> None:
        body = b"%x\r\n%s\r\n0\r\nContent-Encoding: gzip\r\nRetry-After: 999\r\n\r\n" % (
            len(BODY),
            BODY,
        )
        head = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTrailer: Retry-After\r\n\r\n"
        server = serve(lambda request: (head + body, False))
        assert calls(server, 2) == [{"verdict": "yes"}] * 2

    def test_a_trailer_that_never_ends_fails_the_call(
        self, serve: Callable[..., RawServer]
    ) -> None:
        endless = (
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
            + b"%x\r\n%s\r\n0\r\nX-T: " % (len(BODY), BODY)
            + b"v" * (512 * 1024)
        )
        server = serve(lambda request: (endless, False))
        [error] = calls(server, 1)
        assert isinstance(error, JudgeError) and error.type == "judge_unreachable"

    def test_a_body_in_tiny_chunks_is_read_whole(self, serve: Callable[..., RawServer]) -> None:
        chunks = b"".join(b"1\r\n%c\r\n" % byte for byte in BODY) + b"0\r\n\r\n"
        head = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
        server = serve(lambda request: (head + chunks, False))
        assert calls(server, 2) == [{"verdict": "yes"}] * 2

    def test_a_body_encoded_twice_is_refused(self, serve: Callable[..., RawServer]) -> None:
        packed = gzip.compress(gzip.compress(BODY))
        server = serve(
            lambda request: (ok(packed, extra=b"Content-Encoding: gzip, gzip\r\n"), False)
        )
        [error] = calls(server, 1)
        assert isinstance(error, JudgeError) and error.type == "judge_malformed"
        assert "encoded more than once (gzip, gzip)" in error.message

    def test_a_waiter_cancelled_as_it_is_woken_passes_its_turn_on(
        self, serve: Callable[..., RawServer]
    ) -> None:
        server = serve(lambda request: (ok(), False), delay=0.2)

        async def go() -> Any:
            async with open_pool(max_connections=1) as pool:
                first = asyncio.create_task(post(pool, server, pool_timeout=None))
                await asyncio.sleep(0.05)
                second = asyncio.create_task(post(pool, server, pool_timeout=None))
                third = asyncio.create_task(post(pool, server, pool_timeout=None))
                await asyncio.sleep(0.05)
                wake = pool._wake

                def wake_then_cancel() -> None:
                    # The window: the second is woken, then cancelled before it runs.
                    wake()
                    if not second.done():
                        second.cancel()

                pool._wake = wake_then_cancel  # type: ignore[method-assign]
                await first
                pool._wake = wake  # type: ignore[method-assign]
                return await asyncio.wait_for(third, 10)

        assert asyncio.run(go()).status == 200

    def test_a_request_ending_after_the_pool_closed_leaves_no_connection_open(
        self, serve: Callable[..., RawServer]
    ) -> None:
        server = serve(lambda request: (ok(), False), delay=0.2)

        async def go() -> tuple[int, int]:
            pool = LeanPool(_trust(), httpx.Limits())
            sent = asyncio.create_task(post(pool, server))
            await asyncio.sleep(0.05)
            await pool.aclose()
            answer = await sent
            await asyncio.sleep(0.1)
            return answer.status, pool._open

        assert asyncio.run(go()) == (200, 0)
        deadline = time.monotonic() + 5
        while server.open_now and time.monotonic() < deadline:
            time.sleep(0.02)
        assert server.open_now == 0

    def test_a_shorter_read_timeout_holds_on_a_connection_kept_from_a_longer_one(
        self, serve: Callable[..., RawServer]
    ) -> None:
        answers = iter([(ok(), False), (ok()[:30], False)])
        server = serve(lambda request: next(answers))

        async def go() -> Any:
            async with open_pool() as pool:
                await post(pool, server, read=60.0)
                # Were the first request's 60 s timer left to decide, this would wait 60 s.
                return await asyncio.wait_for(
                    asyncio.gather(post(pool, server, read=0.3), return_exceptions=True), 10
                )

        [outcome] = asyncio.run(go())
        assert isinstance(outcome, httpx.ReadTimeout)
        assert server.connections == 1

    def test_a_head_request_is_not_left_waiting_for_a_body(
        self, serve: Callable[..., RawServer]
    ) -> None:
        server = serve(lambda request: (b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n", False))

        async def go() -> int:
            async with httpx.AsyncClient(transport=LeanAiohttpTransport(), timeout=10) as client:
                response = await client.head(server.base_url)
                return response.status_code

        assert asyncio.run(go()) == 200

    def test_a_unicode_host_is_looked_up_as_httpx_spells_it(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        looked_up: list[str] = []

        def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
            looked_up.append(host.decode() if isinstance(host, bytes) else str(host))
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

        monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)

        async def go() -> None:
            pool = LeanPool(_trust(), httpx.Limits())
            request = httpx.Request("POST", "http://faß.test/v1", content=b"{}")
            with pytest.raises(httpx.ConnectError):
                await pool.send(request, 1 << 20)

        asyncio.run(go())
        # IDNA 2008, as the Host header says: Python's own codec would look up "fass.test".
        assert looked_up == ["xn--fa-hia.test"]
