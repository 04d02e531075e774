import ipaddress
import socket
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from tests.fixtures.api import api  # noqa: F401
from tests.fixtures.dns import resolver  # noqa: F401
from tests.fixtures.judge import judge, judge_server  # noqa: F401
from tests.fixtures.logs import log_records  # noqa: F401
from tests.fixtures.services import postgres_server, redis_server  # noqa: F401
from tests.fixtures.strays import _judge_quiet_after_each_test  # noqa: F401


class OffLoopback(RuntimeError):
    """A test reached for an address outside 127.0.0.0/8 and ::1, or for a name to resolve."""


# Every refusal, kept even when the code under test swallows the exception.
_refused: list[str] = []
# Resolving these reads /etc/hosts, never DNS.
_LOCAL_NAMES = frozenset({"localhost"})
_CHECKED = {
    "socket.getaddrinfo": lambda args: [args[0]],
    "socket.gethostbyname": lambda args: [args[0]],
    "socket.gethostbyname_ex": lambda args: [args[0]],
    "socket.gethostbyaddr": lambda args: [args[0]],
    "socket.getnameinfo": lambda args: [args[0][0]],
    "socket.connect": lambda args: _socket_hosts(*args),
    "socket.sendto": lambda args: _socket_hosts(*args),
    "socket.sendmsg": lambda args: _socket_hosts(*args),
}


def _socket_hosts(sock: socket.socket, address: Any) -> list[Any]:
    if address is None or sock.family == getattr(socket, "AF_UNIX", None):
        return []
    if sock.family in (socket.AF_INET, socket.AF_INET6):
        return [address[0]]
    return [address]  # any other family is refused


def _is_loopback(host: Any) -> bool:
    if host is None:
        return True  # getaddrinfo(None, port): the local wildcard, no lookup
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    if not isinstance(host, str):
        return False
    if host in _LOCAL_NAMES:
        return True
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return False  # a name: resolving it could send a DNS query
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback


def _loopback_only(event: str, args: tuple[Any, ...]) -> None:
    hosts = _CHECKED.get(event)
    if hosts is None:
        return
    for host in hosts(args):
        if not _is_loopback(host):
            _refused.append(f"{event} {host!r}")
            raise OffLoopback(f"{event} to {host!r}: tests stay on loopback")


# Installed on import, before any test or fixture can open a socket. Audit events come from
# the real socket functions only, so a test that replaces socket.getaddrinfo to answer a
# made-up name is not seen, while any call that reaches the real resolver is.
sys.addaudithook(_loopback_only)


@pytest.fixture(autouse=True)
def _no_network_beyond_loopback() -> Iterator[None]:
    before = len(_refused)
    yield
    if len(_refused) > before:
        pytest.fail("reached beyond loopback: " + "; ".join(_refused[before:]))


@pytest.fixture
def loopback_refusals() -> list[str]:
    """What the loopback guard refused so far; a test that provokes it removes its entries."""
    return _refused
