"""The SSRF-safe fetcher against loopback servers: what it refuses, and what it fetches.

Every URL here names 127.0.0.1, ::1-free loopback spellings, or `localhost` (/etc/hosts).
"""

import asyncio
import ipaddress
import select
import socket
import ssl
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

import httpx
import pytest

from app.media.fetch import FetchedImage, FetchError, FetchPolicy, fetch_image, new_client
from app.media.netguard import AddressPolicy, pin
from tests.media.loopback import LoopbackServer, Route, png

IMAGE = png((40, 30))
OPEN = FetchPolicy(AddressPolicy(allow_private=True), max_bytes=100_000, timeout=2.0)
STRICT = FetchPolicy(AddressPolicy(), max_bytes=100_000, timeout=2.0)
# 127.0.0.1 is trusted as written; any other name for it is not.
ALLOWLISTED = FetchPolicy(
    AddressPolicy(allowlist=frozenset({"127.0.0.1"})), max_bytes=100_000, timeout=2.0
)


@pytest.fixture
def server() -> Iterator[LoopbackServer]:
    with LoopbackServer() as running:
        running.routes["/image.png"] = Route(body=IMAGE)
        yield running


@contextmanager
def unanswered_port() -> Iterator[int]:
    """A loopback port whose connects hang: its listener never accepts and its accept queue
    is full, so the kernel drops further SYNs (Linux does not refuse them)."""
    with ExitStack() as stack:
        listener = stack.enter_context(socket.socket())
        listener.bind(("127.0.0.1", 0))
        listener.listen(0)
        port = listener.getsockname()[1]
        for _ in range(16):
            filler = stack.enter_context(socket.socket())
            filler.setblocking(False)
            filler.connect_ex(("127.0.0.1", port))
            # A loopback handshake completes in the kernel at once; one that does not is
            # a SYN dropped because the queue is full.
            if not select.select([], [filler], [], 0.5)[1]:
                yield port
                return
        raise RuntimeError("could not fill the accept queue")


def fetch(url: str, policy: FetchPolicy, verify: ssl.SSLContext | None = None) -> FetchedImage:
    async def go() -> FetchedImage:
        async with new_client(policy, verify) as client:
            return await fetch_image(client, url, policy)

    return asyncio.run(go())


def refused(url: str, policy: FetchPolicy, type_: str, verify: ssl.SSLContext | None = None) -> str:
    with pytest.raises(FetchError) as caught:
        fetch(url, policy, verify)
    assert caught.value.type == type_, caught.value.message
    return caught.value.message


class TestAllowed:
    def test_fetches_an_image(self, server: LoopbackServer) -> None:
        fetched = fetch(server.url("/image.png"), OPEN)
        assert (fetched.data, fetched.format) == (IMAGE, "png")

    def test_keeps_the_host_name_while_connecting_to_the_checked_address(
        self, server: LoopbackServer
    ) -> None:
        fetch(server.url("/image.png", host="localhost"), OPEN)
        assert server.hits == [("/image.png", f"localhost:{server.port}")]

    def test_follows_up_to_three_redirects_rechecking_each(self, server: LoopbackServer) -> None:
        server.routes["/a"] = Route(status=302, headers={"Location": "/b"}, body=b"")
        server.routes["/b"] = Route(
            status=301, headers={"Location": server.url("/c", "localhost")}, body=b""
        )
        server.routes["/c"] = Route(status=307, headers={"Location": "/image.png"}, body=b"")
        fetched = fetch(server.url("/a"), OPEN)
        assert fetched.data == IMAGE
        assert fetched.url == server.url("/image.png", "localhost")
        assert [path for path, _ in server.hits] == ["/a", "/b", "/c", "/image.png"]

    def test_proxy_variables_are_ignored(
        self, server: LoopbackServer, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:9")
        monkeypatch.setenv("ALL_PROXY", "http://127.0.0.1:9")
        assert fetch(server.url("/image.png"), OPEN).data == IMAGE

    def test_pin_keeps_host_and_tls_server_name(self) -> None:
        url = httpx.URL("https://images.example:8443/a.png?x=1")
        pinned, headers, extensions = pin(url, ipaddress.ip_address("2606:4700::1"))
        assert str(pinned) == "https://[2606:4700::1]:8443/a.png?x=1"
        assert headers == {"Host": "images.example:8443"}
        assert extensions == {"sni_hostname": "images.example"}
        assert pin(httpx.URL("http://a.example/"), ipaddress.ip_address("8.8.8.8"))[2] == {}


class TestRefused:
    @pytest.mark.parametrize(
        "host",
        [
            "localhost",
            "127.0.0.1",
            "127.1",
            "2130706433",
            "0x7f000001",
            "0177.0.0.1",
            "0x7f.1",
            "[::ffff:127.0.0.1]",
            "[::ffff:7f00:1]",
            "[::1]",
        ],
    )
    def test_loopback_in_any_spelling(self, server: LoopbackServer, host: str) -> None:
        with pytest.raises(FetchError) as caught:
            fetch(server.url("/image.png", host), STRICT)
        if caught.value.type == "url_invalid":
            # httpx's own parser refuses dotted quads with leading zeros.
            assert host == "0177.0.0.1"
        else:
            assert caught.value.type == "url_blocked"
            assert "loopback" in caught.value.message
            assert "LOUPE_ALLOW_PRIVATE_URLS" in caught.value.message
        assert server.hits == []  # refused before connecting

    def test_a_redirect_to_loopback(self, server: LoopbackServer) -> None:
        server.routes["/hop"] = Route(
            status=302, headers={"Location": server.url("/image.png", "localhost")}, body=b""
        )
        assert fetch(server.url("/image.png"), ALLOWLISTED).data == IMAGE
        server.hits.clear()
        message = refused(server.url("/hop"), ALLOWLISTED, "url_blocked")
        assert message.startswith("localhost resolves to a loopback address")
        assert [path for path, _ in server.hits] == ["/hop"]

    def test_a_redirect_to_another_scheme(self, server: LoopbackServer) -> None:
        server.routes["/file"] = Route(
            status=302, headers={"Location": "file:///etc/passwd"}, body=b""
        )
        refused(server.url("/file"), OPEN, "url_scheme")

    def test_more_than_three_redirects(self, server: LoopbackServer) -> None:
        for hop in range(4):
            server.routes[f"/r{hop}"] = Route(
                status=302, headers={"Location": f"/r{hop + 1}"}, body=b""
            )
        server.routes["/r4"] = Route(body=IMAGE)
        assert "more than 3 redirects" in refused(server.url("/r0"), OPEN, "image_fetch_failed")

    def test_oversized_by_content_length(self, server: LoopbackServer) -> None:
        server.routes["/big"] = Route(body=b"\x89PNG\r\n\x1a\n" + b"\x00" * 200_000)
        refused(server.url("/big"), OPEN, "image_too_large")

    def test_oversized_while_streaming(self, server: LoopbackServer) -> None:
        # No Content-Length: the cap is counted on the bytes as they arrive.
        server.routes["/stream"] = Route(
            body=b"\x89PNG\r\n\x1a\n" + b"\x00" * 300_000, content_length=False, chunks=30
        )
        refused(server.url("/stream"), OPEN, "image_too_large")

    def test_a_slow_body(self, server: LoopbackServer) -> None:
        # Each chunk arrives well within any read timeout; the whole never arrives in time.
        server.routes["/slow"] = Route(body=IMAGE, chunks=40, chunk_delay=0.1)
        policy = FetchPolicy(AddressPolicy(allow_private=True), max_bytes=100_000, timeout=0.8)
        assert "within 0.8 s" in refused(server.url("/slow"), policy, "image_fetch_timeout")

    def test_no_answer(self, server: LoopbackServer) -> None:
        server.routes["/silent"] = Route(body=IMAGE, delay_before=3)
        policy = FetchPolicy(AddressPolicy(allow_private=True), max_bytes=100_000, timeout=0.5)
        refused(server.url("/silent"), policy, "image_fetch_timeout")

    def test_a_connect_that_never_completes(self) -> None:
        with unanswered_port() as port:
            # Read and total limits far away: only the connect timeout can fire.
            policy = FetchPolicy(
                AddressPolicy(allow_private=True),
                max_bytes=100_000,
                connect_timeout=0.3,
                read_timeout=60,
                timeout=60,
            )
            message = refused(f"http://127.0.0.1:{port}/x.png", policy, "image_fetch_timeout")
        assert message == "could not connect to 127.0.0.1 within 0.3 s"

    @pytest.mark.parametrize(
        "route",
        [
            Route(body=IMAGE, delay_before=5),  # no headers
            Route(body=IMAGE, chunks=2, chunk_delay=5),  # half the body, then nothing
        ],
        ids=["headers", "body"],
    )
    def test_silence_longer_than_the_read_timeout(
        self, server: LoopbackServer, route: Route
    ) -> None:
        server.routes["/quiet"] = route
        policy = FetchPolicy(
            AddressPolicy(allow_private=True), max_bytes=100_000, read_timeout=0.3, timeout=60
        )
        message = refused(server.url("/quiet"), policy, "image_fetch_timeout")
        assert message == "127.0.0.1 sent nothing for 0.3 s"

    def test_a_body_cut_short(self, server: LoopbackServer) -> None:
        server.routes["/cut"] = Route(
            body=IMAGE[:50], content_length=False, headers={"Content-Length": str(len(IMAGE))}
        )
        message = refused(server.url("/cut"), OPEN, "image_fetch_failed")
        assert message == "could not fetch from 127.0.0.1: RemoteProtocolError"

    @pytest.mark.parametrize("content_type", ["text/html", "image/svg+xml", "image/bmp", None])
    def test_wrong_content_type(self, server: LoopbackServer, content_type: str | None) -> None:
        server.routes["/typed"] = Route(body=IMAGE, content_type=content_type)
        refused(server.url("/typed"), OPEN, "image_content_type")

    def test_an_error_status(self, server: LoopbackServer) -> None:
        assert "HTTP 404" in refused(server.url("/missing"), OPEN, "image_fetch_failed")

    @pytest.mark.parametrize(
        ("url", "type_"),
        [
            ("ftp://127.0.0.1/x.png", "url_scheme"),
            ("file:///etc/passwd", "url_scheme"),
            ("/etc/passwd", "url_scheme"),
            ("http://user:pw@127.0.0.1/x.png", "url_invalid"),
            ("http:///x.png", "url_invalid"),
            ("http://1.2.3.4.5/x.png", "url_blocked"),
        ],
    )
    def test_urls_that_are_never_fetched(self, url: str, type_: str) -> None:
        refused(url, OPEN, type_)
