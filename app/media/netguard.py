"""Which addresses Loupe may connect to for a user (image URLs, webhook receivers, models).

The rule: connect only to globally routable addresses, judged after unwrapping IPv4 addresses
embedded in IPv6 forms (mapped, NAT64, 6to4), and always on the *resolved* addresses, so odd
spellings of a host (`2130706433`, `0177.0.0.1`, `127.1`) cannot slip past.
"""

import asyncio
import ipaddress
import socket
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

import httpx

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
# What a user's URL is for; each has its own operator policy (LOUPE_<PURPOSE>_ALLOW).
Purpose = Literal["model", "image", "webhook"]

# Most specific first: the first match names the reason.
_V4_BLOCKS = [
    (ipaddress.IPv4Network(net), reason)
    for net, reason in (
        ("169.254.169.254/32", "the cloud metadata address"),
        ("168.63.129.16/32", "the Azure WireServer (metadata) address"),
        ("0.0.0.0/8", "an unspecified ('this network') address"),
        ("10.0.0.0/8", "a private address"),
        ("100.64.0.0/10", "a shared (CGNAT) address"),
        ("127.0.0.0/8", "a loopback address"),
        ("169.254.0.0/16", "a link-local address"),
        ("172.16.0.0/12", "a private address"),
        ("192.0.0.0/24", "an IETF protocol address"),
        ("192.0.2.0/24", "a documentation address"),
        ("192.88.99.0/24", "a 6to4 relay address"),
        ("192.168.0.0/16", "a private address"),
        ("198.18.0.0/15", "a benchmarking address"),
        ("198.51.100.0/24", "a documentation address"),
        ("203.0.113.0/24", "a documentation address"),
        ("224.0.0.0/4", "a multicast address"),
        ("240.0.0.0/4", "a reserved address"),
    )
]
_V6_BLOCKS = [
    (ipaddress.IPv6Network(net), reason)
    for net, reason in (
        ("::/128", "an unspecified address"),
        ("::1/128", "a loopback address"),
        ("::/96", "an IPv4-compatible address"),
        ("::ffff:0:0:0/96", "an IPv4-translated address"),
        ("64:ff9b:1::/48", "a local-use NAT64 address"),
        ("100::/64", "a discard-only address"),
        ("2001::/32", "a Teredo tunnel address"),
        ("2001:db8::/32", "a documentation address"),
        ("3fff::/20", "a documentation address"),
        ("5f00::/16", "a segment-routing address"),
        ("fd00:ec2::254/128", "the cloud metadata address"),
        ("fc00::/7", "a unique-local address"),
        ("fe80::/10", "a link-local address"),
        ("fec0::/10", "a site-local address"),
        ("ff00::/8", "a multicast address"),
    )
]
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")


def _embedded_ipv4(address: ipaddress.IPv6Address) -> tuple[ipaddress.IPv4Address, str] | None:
    # Checked by hand, not via version-dependent `ipaddress` properties of the v6 address.
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped, "IPv4-mapped"
    if address in _NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF), "NAT64"
    if address.sixtofour is not None:
        return address.sixtofour, "6to4"
    return None


def blocked_reason(address: IPAddress) -> str | None:
    """Why Loupe must not connect to `address`, or None when it is globally routable."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.scope_id is not None:
            address = ipaddress.IPv6Address(str(address).split("%", 1)[0])
        embedded = _embedded_ipv4(address)
        if embedded is not None:
            inner, form = embedded
            reason = blocked_reason(inner)
            return f"{reason} (in {form} form)" if reason else None
        blocks: Iterable[tuple[Any, str]] = _V6_BLOCKS
    else:
        blocks = _V4_BLOCKS
    for network, reason in blocks:
        if address in network:
            return reason
    if not address.is_global or address.is_multicast or address.is_reserved:
        return "not a globally routable address"
    return None


class InvalidHost(ValueError):
    """A host that looks like an IP address but is not a valid one (e.g. `1.2.3.4.5`)."""


def _ipv4_number(part: str) -> int | None:
    # The WHATWG URL standard's IPv4 number parser: 0x hex, leading-zero octal, else decimal.
    if part[:2].lower() == "0x":
        digits, base = part[2:], 16
    elif len(part) > 1 and part[0] == "0":
        digits, base = part[1:], 8
    else:
        digits, base = part, 10
    if digits == "":
        return 0
    try:
        return int(digits, base) if digits.isalnum() and digits.isascii() else None
    except ValueError:
        return None


def parse_ip_host(host: str) -> IPAddress | None:
    """The address a URL host spells, in any IPv4 spelling browsers and libc accept, or None
    when the host is a name.

    Raises InvalidHost for hosts that end in a number but are no valid IPv4 address.
    """
    host = host.strip().lower()
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if ":" in host:
        try:
            return ipaddress.IPv6Address(host)
        except ValueError as exc:
            raise InvalidHost(f"{host!r} is not a valid IPv6 address") from exc
    parts = host.split(".")
    if len(parts) > 1 and parts[-1] == "":
        parts.pop()
    if not parts or _ipv4_number(parts[-1]) is None:
        return None  # a name: its last label is not a number
    numbers = [_ipv4_number(part) if part else None for part in parts]
    if len(parts) > 4 or any(n is None for n in numbers):
        raise InvalidHost(f"{host!r} is neither a host name nor a valid IPv4 address")
    *leading, last = [n for n in numbers if n is not None]
    if any(n > 255 for n in leading) or last >= 256 ** (5 - len(parts)):
        raise InvalidHost(f"{host!r} is not a valid IPv4 address")
    value = last
    for index, number in enumerate(leading):
        value += number << (8 * (3 - index))
    return ipaddress.IPv4Address(value)


class BlockedAddress(Exception):
    """The host is, or resolves to, an address Loupe does not connect to."""


class ResolveTimeout(BlockedAddress):
    """The host's DNS lookup did not finish in time (so nothing about it was checked)."""


def parse_allow(entries: Iterable[str]) -> tuple[frozenset[str], tuple[IPNetwork, ...]]:
    """An allow setting's entries as host names and CIDR ranges (a bare address is a /32 or
    /128). Raises ValueError for an entry that is neither."""
    names: set[str] = set()
    networks: list[IPNetwork] = []
    for raw in entries:
        entry = raw.strip().lower().rstrip(".")
        if not entry:
            continue
        if "/" in entry or parse_ip_host(entry.strip("[]")) is not None:
            try:
                networks.append(ipaddress.ip_network(entry.strip("[]"), strict=False))
            except ValueError as exc:
                raise ValueError(f"{raw!r} is not a CIDR range or address") from exc
            continue
        if not all(label and len(label) <= 63 for label in entry.split(".")) or " " in entry:
            raise ValueError(f"{raw!r} is not a host name, address or CIDR range")
        names.add(entry)
    return frozenset(names), tuple(networks)


@dataclass(frozen=True)
class AddressPolicy:
    """Where connections may go: global addresses only, plus what the operator allowed for
    this purpose (host names, CIDR ranges), or everything with `allow_private`."""

    allow_private: bool = False
    allowlist: frozenset[str] = field(default_factory=frozenset)
    networks: tuple[IPNetwork, ...] = ()
    # The setting a refusal names, so the operator knows what to change.
    setting: str = "LOUPE_ALLOW_PRIVATE_URLS"

    @classmethod
    def from_settings(cls, settings: Any) -> "AddressPolicy":
        """The image-URL policy (kept for callers from before per-purpose policies)."""
        return cls.for_purpose(settings, "image")

    @classmethod
    def for_purpose(cls, settings: Any, purpose: Purpose) -> "AddressPolicy":
        """The operator's policy for one purpose: its LOUPE_<PURPOSE>_ALLOW entries, plus the
        deprecated LOUPE_FETCH_ALLOWLIST / LOUPE_ALLOW_PRIVATE_URLS, which open all three."""
        names, networks = parse_allow(getattr(settings, f"{purpose}_allow", []) or [])
        legacy = frozenset(getattr(settings, "fetch_allowlist", []) or [])
        return cls(
            allow_private=bool(getattr(settings, "allow_private_urls", False)),
            allowlist=names | legacy,
            networks=networks,
            setting=f"LOUPE_{purpose.upper()}_ALLOW",
        )

    def trusts(self, host: str) -> bool:
        return self.allow_private or host.lower().rstrip(".") in self.allowlist

    def allows_address(self, address: IPAddress) -> bool:
        """True when the operator allowed a range holding `address` (or its embedded IPv4)."""
        candidates: list[IPAddress] = [address]
        if isinstance(address, ipaddress.IPv6Address):
            plain = ipaddress.IPv6Address(str(address).split("%", 1)[0])
            candidates = [plain]
            embedded = _embedded_ipv4(plain)
            if embedded is not None:
                candidates.append(embedded[0])
        return any(
            candidate.version == network.version and candidate in network
            for candidate in candidates
            for network in self.networks
        )

    def check(self, host: str, addresses: list[IPAddress]) -> None:
        """Raise BlockedAddress unless every address `host` resolved to may be connected to."""
        if self.trusts(host):
            return
        literal = parse_ip_host(host) is not None
        for address in addresses:
            reason = blocked_reason(address)
            if reason and not self.allows_address(address):
                # Name the kind of address, not the address a name resolved to: no DNS oracle.
                what = f"{address} is {reason}" if literal else f"{host} resolves to {reason}"
                raise BlockedAddress(
                    f"{what}; Loupe only connects to public addresses unless the operator "
                    f"allows the host or its range ({self.setting})"
                )


def _addresses(infos: list[Any]) -> list[IPAddress]:
    found: list[IPAddress] = []
    for family, _, _, _, sockaddr in infos:
        if family in (socket.AF_INET, socket.AF_INET6):
            address = ipaddress.ip_address(str(sockaddr[0]).split("%", 1)[0])
            if address not in found:
                found.append(address)
    return found


def resolve_sync(host: str, port: int, policy: AddressPolicy) -> list[IPAddress]:
    """Every address `host` resolves to, checked against `policy` (blocking DNS lookup)."""
    literal = parse_ip_host(host)
    if literal is not None:
        addresses = [literal]
    else:
        try:
            infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except (socket.gaierror, UnicodeError) as exc:
            raise BlockedAddress(f"{host} does not resolve") from exc
        addresses = _addresses(infos)
    if not addresses:
        raise BlockedAddress(f"{host} does not resolve")
    policy.check(host, addresses)
    return addresses


async def resolve(host: str, port: int, policy: AddressPolicy, timeout: float) -> list[IPAddress]:
    """Every address `host` resolves to, checked against `policy`."""
    literal = parse_ip_host(host)
    if literal is not None:
        addresses = [literal]
    else:
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout(timeout):
                infos = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except TimeoutError as exc:
            raise ResolveTimeout(f"{host} did not resolve within {timeout:g} s") from exc
        except (socket.gaierror, UnicodeError) as exc:
            raise BlockedAddress(f"{host} does not resolve") from exc
        addresses = _addresses(infos)
    if not addresses:
        raise BlockedAddress(f"{host} does not resolve")
    policy.check(host, addresses)
    return addresses


def url_host(url: httpx.URL) -> str:
    """The host as sent to DNS and TLS (IDNA-encoded, no brackets)."""
    return url.raw_host.decode("ascii").lower()


def pin(url: httpx.URL, address: IPAddress) -> tuple[httpx.URL, dict[str, str], dict[str, Any]]:
    """The request target, headers and httpx extensions that reach `address` while keeping
    the original host for the Host header, TLS SNI and certificate checks.

    Connecting to the checked address (no second lookup) closes the DNS-rebinding gap.
    """
    pinned = url.copy_with(host=str(address))
    headers = {"Host": url.netloc.decode("ascii")}
    extensions = {"sni_hostname": url_host(url)} if url.scheme == "https" else {}
    return pinned, headers, extensions
