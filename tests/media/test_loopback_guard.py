"""The suite's loopback guard (tests/conftest.py): socket calls that could leave the machine
raise and are recorded. Events are raised with `sys.audit` directly, so nothing is sent even
if the guard were missing."""

import socket
import sys
from typing import Any

import pytest


@pytest.fixture
def unix_socket() -> Any:
    with socket.socket(socket.AF_UNIX) as sock:
        yield sock


@pytest.fixture
def tcp_socket() -> Any:
    with socket.socket(socket.AF_INET6) as sock:
        yield sock


class TestLoopbackGuard:
    @pytest.mark.parametrize(
        ("event", "args", "host"),
        [
            ("socket.getaddrinfo", ("example.com", 80, 0, 0, 0), "example.com"),
            # A made-up name reaching the real resolver: its patch was missing.
            ("socket.getaddrinfo", ("rebind.test", 80, 0, 0, 0), "rebind.test"),
            ("socket.getaddrinfo", ("localhost.", 80, 0, 0, 0), "localhost."),
            ("socket.getaddrinfo", ("2130706433", 80, 0, 0, 0), "2130706433"),
            ("socket.getaddrinfo", ("8.8.8.8", 53, 0, 0, 0), "8.8.8.8"),
            ("socket.gethostbyname", ("example.com",), "example.com"),
            ("socket.gethostbyaddr", ("192.0.2.1",), "192.0.2.1"),
            ("socket.getnameinfo", (("10.0.0.1", 80), 0), "10.0.0.1"),
        ],
    )
    def test_refuses_lookups_beyond_loopback(
        self, event: str, args: tuple[Any, ...], host: str, loopback_refusals: list[str]
    ) -> None:
        with pytest.raises(RuntimeError, match="tests stay on loopback"):
            sys.audit(event, *args)
        # Recorded too, so a refusal the code under test swallows still fails its test.
        assert loopback_refusals.pop() == f"{event} {host!r}"

    @pytest.mark.parametrize(
        "address",
        [("192.0.2.1", 80, 0, 0), ("::ffff:10.0.0.1", 80, 0, 0), ("2001:db8::1", 443, 0, 0)],
    )
    @pytest.mark.parametrize("event", ["socket.connect", "socket.sendto", "socket.sendmsg"])
    def test_refuses_sending_beyond_loopback(
        self,
        event: str,
        address: tuple[Any, ...],
        tcp_socket: socket.socket,
        loopback_refusals: list[str],
    ) -> None:
        with pytest.raises(RuntimeError, match="tests stay on loopback"):
            sys.audit(event, tcp_socket, address)
        assert loopback_refusals.pop() == f"{event} {address[0]!r}"

    @pytest.mark.parametrize(
        ("event", "args"),
        [
            ("socket.getaddrinfo", ("localhost", 80, 0, 0, 0)),
            ("socket.getaddrinfo", ("127.0.0.2", 80, 0, 0, 0)),
            ("socket.getaddrinfo", (b"::1", 80, 0, 0, 0)),
            ("socket.getaddrinfo", (None, 80, 0, 0, 0)),
            ("socket.getnameinfo", (("127.0.0.1", 80), 0)),
        ],
    )
    def test_lets_loopback_lookups_through(
        self, event: str, args: tuple[Any, ...], loopback_refusals: list[str]
    ) -> None:
        before = list(loopback_refusals)
        sys.audit(event, *args)
        assert loopback_refusals == before

    @pytest.mark.parametrize(
        "address", [("127.0.0.1", 80, 0, 0), ("::1", 80, 0, 0), ("::ffff:127.0.0.1", 80, 0, 0)]
    )
    def test_lets_loopback_connects_through(
        self, address: tuple[Any, ...], tcp_socket: socket.socket, loopback_refusals: list[str]
    ) -> None:
        before = list(loopback_refusals)
        sys.audit("socket.connect", tcp_socket, address)
        assert loopback_refusals == before

    def test_lets_unix_sockets_through(
        self, unix_socket: socket.socket, loopback_refusals: list[str]
    ) -> None:
        before = list(loopback_refusals)
        sys.audit("socket.connect", unix_socket, "/tmp/.s.PGSQL.5432")
        assert loopback_refusals == before


class TestRealCalls:
    """The hook sees the real socket functions. Each call here could send nothing even without
    the guard: a numeric-only lookup, or a closed socket (its address is checked before the
    audit event, the send after it fails on the closed descriptor)."""

    def test_a_numeric_lookup(self, loopback_refusals: list[str]) -> None:
        with pytest.raises(RuntimeError, match="tests stay on loopback"):
            socket.getaddrinfo("192.0.2.1", 80, flags=socket.AI_NUMERICHOST)
        assert loopback_refusals.pop() == "socket.getaddrinfo '192.0.2.1'"
        assert socket.getaddrinfo("127.0.0.1", 80, flags=socket.AI_NUMERICHOST)

    @pytest.mark.parametrize("kind", [socket.SOCK_STREAM, socket.SOCK_DGRAM])
    def test_a_closed_socket(self, kind: int, loopback_refusals: list[str]) -> None:
        sock = socket.socket(socket.AF_INET, kind)
        sock.close()
        with pytest.raises(RuntimeError, match="tests stay on loopback"):
            if kind == socket.SOCK_STREAM:
                sock.connect(("192.0.2.1", 9))
            else:
                sock.sendto(b"x", ("192.0.2.1", 9))
        event = "socket.connect" if kind == socket.SOCK_STREAM else "socket.sendto"
        assert loopback_refusals.pop() == f"{event} '192.0.2.1'"
        with pytest.raises(OSError):  # allowed through, then the closed socket fails
            sock.connect(("127.0.0.1", 9))
