"""One HTTP/1.1 connection of the judge's pool (`_lean_http.py`): a request written whole,
its answer parsed by httptools (llhttp, the parser uvicorn serves with), with the head and the
body capped as they arrive."""

import asyncio
import re
from typing import Any, NamedTuple

import httptools
import httpx

# A response's head (status line and headers, as bytes received) and its count of headers:
# past either, the answer is refused.
MAX_HEAD_BYTES = 64 * 1024
MAX_HEADERS = 256
# A compressed body may run this far past the cap before it is decoded, where the cap holds on
# what it decodes to (gzip adds a few bytes to a body it cannot shrink).
ENCODED_SLACK = 64 * 1024
_FORBIDDEN = re.compile(rb"[\r\n\x00]")


class BodyTooLarge(Exception):
    """A body ran past the cap it was read with; the rest was left unread."""


class _HeadTooLarge(Exception):
    pass


class Answer(NamedTuple):
    """One response, read: status, raw header pairs and body (None: past the cap, unread)."""

    status: int
    headers: list[tuple[bytes, bytes]]
    body: bytes | None
    http_version: str


class Connection(asyncio.Protocol):
    """One connection: a request written, its answer parsed, then the next."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self.transport: asyncio.Transport | None = None
        self.closed = False
        self.idle_since = 0.0
        self._waiter: asyncio.Future[Answer] | None = None
        # One parser for the connection's answers: llhttp starts over after each.
        self._parser: Any = httptools.HttpResponseParser(self)
        self._keep_alive = False
        self._limit = 0
        self._read_timeout: float | None = None
        self._last_read = 0.0
        self._timer: asyncio.TimerHandle | None = None
        self._reset()

    def _reset(self) -> None:
        self._headers: list[tuple[bytes, bytes]] = []
        self._head_size = 0  # bytes received before the head ended
        self._header_bytes = 0  # the headers' own (and trailers')
        # The body: its one part as it came, or every part gathered in one buffer (a body of
        # many small chunks as a list of bytes objects would take many times its size).
        self._body: bytes | bytearray | None = None
        self._size = 0
        # After a chunk's size line, until its data: past the last chunk, the trailers.
        self._trailing = False
        self._trailer_bytes = 0
        self._cap = self._limit
        self._until_eof = False
        self._headers_done = False

    # asyncio's side
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self._stop_timer()
        if self._waiter is None or self._waiter.done():
            return
        if exc is None and self._until_eof and self._headers_done:
            self._answer()  # a body that ends with the connection (no length, not chunked)
            return
        error = httpx.RemoteProtocolError("the server closed the connection before answering")
        error.__cause__ = exc
        self._waiter.set_exception(error)

    def data_received(self, data: bytes) -> None:
        if self._waiter is None or self._waiter.done():
            # Bytes nobody asked for: the connection's state is unknown, it is not reused.
            self.close()
            return
        self._last_read = self._loop.time()
        self._head_size += len(data)
        trailing = self._trailing
        try:
            self._parser.feed_data(data)
            # Checked on what came, not on the headers: httptools holds a header's value until
            # it ends, however long it runs (the trailers' after the last chunk too).
            if not self._headers_done and self._head_size > MAX_HEAD_BYTES:
                raise _HeadTooLarge
            if trailing and self._trailing:  # nothing of this read was a chunk's data
                self._trailer_bytes += len(data)
                if self._trailer_bytes > MAX_HEAD_BYTES:
                    raise _HeadTooLarge
        except _HeadTooLarge:
            self._fail(httpx.RemoteProtocolError("the server's response head is too large"))
        except httptools.HttpParserCallbackError as exc:
            cause = exc.__context__
            if isinstance(cause, BodyTooLarge):
                self._answer(too_large=True)
            elif isinstance(cause, _HeadTooLarge):
                self._fail(httpx.RemoteProtocolError("the server's response head is too large"))
            else:
                self._fail(httpx.RemoteProtocolError(f"malformed HTTP response: {cause}"))
        except (httptools.HttpParserError, httptools.HttpParserUpgrade) as exc:
            self._fail(httpx.RemoteProtocolError(f"malformed HTTP response: {exc}"))

    # httptools' side
    def on_message_begin(self) -> None:
        if self._waiter is None or self._waiter.done():
            # A second answer in the same read as the first: nobody asked for it, and reading
            # it as the next request's would hand that request this one's bytes.
            raise ValueError("an answer began after the one asked for")

    def on_header(self, name: bytes, value: bytes) -> None:
        self._header_bytes += len(name) + len(value) + 4
        if self._header_bytes > MAX_HEAD_BYTES or len(self._headers) >= MAX_HEADERS:
            raise _HeadTooLarge
        if not self._headers_done:  # trailers are counted, not kept
            self._headers.append((name, value))

    def on_chunk_header(self) -> None:
        self._trailing = True

    def on_chunk_complete(self) -> None:
        self._trailing = False

    def on_headers_complete(self) -> None:
        self._headers_done = True
        declared, chunked, encoded = None, False, False
        for name, value in self._headers:
            lowered = name.lower()
            if lowered == b"content-length":
                declared = value.strip()
            elif lowered == b"transfer-encoding":
                chunked = b"chunked" in value.lower()
            elif lowered == b"content-encoding":
                encoded = value.strip().lower() not in (b"", b"identity")
        if encoded:
            self._cap = self._limit + ENCODED_SLACK
        status = self._parser.get_status_code()
        self._until_eof = declared is None and not chunked and status not in (204, 304)
        if declared is not None and declared.isdigit() and int(declared) > self._cap:
            raise BodyTooLarge

    def on_body(self, body: bytes) -> None:
        self._trailing = False
        self._size += len(body)
        if self._size > self._cap:
            raise BodyTooLarge
        if self._body is None:
            self._body = body
        elif isinstance(self._body, bytearray):
            self._body += body
        else:
            self._body = bytearray(self._body) + body

    def on_message_complete(self) -> None:
        status = self._parser.get_status_code()
        if 100 <= status < 200 and status != 101:
            self._reset()  # an interim answer (100 Continue): the real one follows
            return
        self._answer()

    # the caller's side
    async def exchange(self, message: bytes, limit: int, read_timeout: float | None) -> Answer:
        """Write `message` (a request, whole) and wait for its answer, read up to `limit`."""
        assert self.transport is not None
        if self.closed:
            raise httpx.RemoteProtocolError("the server closed the connection before the request")
        self._limit = limit
        self._reset()
        waiter = self._waiter = self._loop.create_future()
        self._read_timeout = read_timeout
        self._last_read = self._loop.time()
        if read_timeout is not None:
            # One timer per connection, not per request: one still set from an earlier
            # exchange finds this one waiting when it fires, and is set again for it; one set
            # for later than this exchange's timeout is set again now.
            due = self._last_read + read_timeout
            if self._timer is not None and self._timer.when() > due:
                self._stop_timer()
            if self._timer is None:
                self._timer = self._loop.call_at(due, self._check_timeout)
        self.transport.write(message)
        try:
            return await waiter
        finally:
            self._waiter = None

    def reusable(self, answer: Answer) -> bool:
        return not self.closed and answer.body is not None and self._keep_alive

    def close(self) -> None:
        self.closed = True
        if self.transport is not None:
            self.transport.close()

    def _answer(self, too_large: bool = False) -> None:
        waiter = self._waiter
        if waiter is None or waiter.done():
            if too_large:
                self.close()
            return
        version = self._parser.get_http_version()
        # Asked now: once the message is complete the parser answers False.
        self._keep_alive = self._parser.should_keep_alive()
        body = None if too_large else bytes(self._body or b"")
        waiter.set_result(Answer(self._parser.get_status_code(), self._headers, body, version))
        if too_large:
            self.close()  # the rest is left unread

    def _fail(self, error: Exception) -> None:
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_exception(error)
        self.close()

    def _check_timeout(self) -> None:
        self._timer = None
        if self._waiter is None or self._waiter.done() or self._read_timeout is None:
            return
        due = self._last_read + self._read_timeout
        if self._loop.time() < due:
            # Something arrived meanwhile: the wait starts again from then.
            self._timer = self._loop.call_at(due, self._check_timeout)
            return
        error = httpx.ReadTimeout(f"no answer within {self._read_timeout:g} s")
        error.__cause__ = TimeoutError()
        self._fail(error)

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


def request_bytes(request: httpx.Request) -> bytes:
    """The request as it goes on the wire (its headers as httpx holds them). A header whose
    name or value holds a line break or NUL (a key pasted with one) would end the head early
    and start one the server reads as the sender's: refused, nothing is sent."""
    fields = [part for pair in request.headers.raw for part in pair]
    target = request.url.raw_path
    if _FORBIDDEN.search(b" ".join([target, *fields])):
        raise httpx.LocalProtocolError("a header or the path holds a line break or NUL")
    lines = [request.method.encode(), b" ", target, b" HTTP/1.1"]
    for index in range(0, len(fields), 2):
        lines += (b"\r\n", fields[index], b": ", fields[index + 1])
    lines += (b"\r\n\r\n", request.content)
    return b"".join(lines)
