"""The address classifier and host parser, table-driven. Nothing here opens a socket."""

import ipaddress

import pytest

from app.media.netguard import (
    AddressPolicy,
    BlockedAddress,
    InvalidHost,
    blocked_reason,
    parse_ip_host,
    resolve_sync,
)

# (address, what the reason must mention); every one must be refused.
BLOCKED = [
    ("127.0.0.1", "loopback"),
    ("127.255.255.254", "loopback"),
    ("0.0.0.0", "unspecified"),
    ("10.0.0.1", "private"),
    ("172.16.0.1", "private"),
    ("172.31.255.255", "private"),
    ("192.168.1.1", "private"),
    ("100.64.0.1", "CGNAT"),
    ("100.100.100.200", "CGNAT"),  # Alibaba Cloud metadata
    ("169.254.0.1", "link-local"),
    ("169.254.169.254", "metadata"),
    ("169.254.170.2", "link-local"),  # ECS task metadata
    ("168.63.129.16", "WireServer"),
    ("192.0.0.192", "IETF"),  # Oracle Cloud metadata
    ("192.0.2.1", "documentation"),
    ("198.51.100.7", "documentation"),
    ("203.0.113.9", "documentation"),
    ("198.18.0.1", "benchmarking"),
    ("192.88.99.1", "6to4 relay"),
    ("224.0.0.1", "multicast"),
    ("239.255.255.250", "multicast"),
    ("240.0.0.1", "reserved"),
    ("255.255.255.255", "reserved"),
    ("::", "unspecified"),
    ("::1", "loopback"),
    ("::7f00:1", "IPv4-compatible"),
    ("fc00::1", "unique-local"),
    ("fd12:3456::1", "unique-local"),
    ("fd00:ec2::254", "metadata"),
    ("fe80::1", "link-local"),
    ("fe80::1%eth0", "link-local"),
    ("fec0::1", "site-local"),
    ("ff02::1", "multicast"),
    ("2001:db8::1", "documentation"),
    ("3fff::1", "documentation"),
    ("100::1", "discard"),
    ("64:ff9b:1::a00:1", "NAT64"),
    ("2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo"),
    ("2001:0:4136:e378:8000:63bf:80ff:fffe", "Teredo"),  # client 127.0.0.1, obfuscated
    ("5f00::1", "segment-routing"),
    # Embedded IPv4: the inner address decides.
    ("::ffff:127.0.0.1", "loopback address (in IPv4-mapped form)"),
    ("::ffff:7f00:1", "loopback address (in IPv4-mapped form)"),
    ("::ffff:169.254.169.254", "metadata address (in IPv4-mapped form)"),
    ("::ffff:10.1.2.3", "private address (in IPv4-mapped form)"),
    ("::ffff:0:7f00:1", "IPv4-translated"),
    ("64:ff9b::7f00:1", "loopback address (in NAT64 form)"),
    ("64:ff9b::169.254.169.254", "metadata address (in NAT64 form)"),
    ("64:ff9b::c0a8:101", "private address (in NAT64 form)"),
    ("2002:7f00:1::", "loopback address (in 6to4 form)"),
    ("2002:a9fe:a9fe::1", "metadata address (in 6to4 form)"),
    ("2002:c0a8:0101::1", "private address (in 6to4 form)"),
]

ALLOWED = [
    "8.8.8.8",
    "1.1.1.1",
    "93.184.215.14",
    "172.32.0.1",  # just outside 172.16/12
    "100.128.0.1",  # just outside 100.64/10
    "2606:4700:4700::1111",
    "2a00:1450:4001:81c::200e",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
]


class TestBlockedReason:
    @pytest.mark.parametrize(("address", "reason"), BLOCKED)
    def test_refuses(self, address: str, reason: str) -> None:
        found = blocked_reason(ipaddress.ip_address(address))
        assert found is not None and reason in found, found

    @pytest.mark.parametrize("address", ALLOWED)
    def test_allows_global_addresses(self, address: str) -> None:
        assert blocked_reason(ipaddress.ip_address(address)) is None


# (host as written in a URL, the address it means)
SPELLINGS = [
    ("127.0.0.1", "127.0.0.1"),
    ("2130706433", "127.0.0.1"),
    ("0x7f000001", "127.0.0.1"),
    ("0X7F000001", "127.0.0.1"),
    ("017700000001", "127.0.0.1"),
    ("0177.0.0.1", "127.0.0.1"),
    ("0x7f.0.0.1", "127.0.0.1"),
    ("0x7f.1", "127.0.0.1"),
    ("127.1", "127.0.0.1"),
    ("127.0.1", "127.0.0.1"),
    ("127.0.0.1.", "127.0.0.1"),
    ("0", "0.0.0.0"),
    ("0x0", "0.0.0.0"),
    ("2852039166", "169.254.169.254"),
    ("0xa9fea9fe", "169.254.169.254"),
    ("0251.0376.0251.0376", "169.254.169.254"),
    ("169.254.43518", "169.254.169.254"),
    ("0xa9.0xfe.0xa9.0xfe", "169.254.169.254"),
    ("10.1", "10.0.0.1"),
    ("012.1", "10.0.0.1"),
    ("3232235777", "192.168.1.1"),
    ("[::1]", "::1"),
    ("[0:0:0:0:0:0:0:1]", "::1"),
    ("[::ffff:127.0.0.1]", "::ffff:127.0.0.1"),
    ("[::ffff:7f00:1]", "::ffff:127.0.0.1"),
    ("[fd00:ec2::254]", "fd00:ec2::254"),
    ("[64:ff9b::a9fe:a9fe]", "64:ff9b::169.254.169.254"),
    ("[2002:7f00:1::]", "2002:7f00:1::"),
]


class TestParseIpHost:
    @pytest.mark.parametrize(("host", "address"), SPELLINGS)
    def test_every_spelling_means_its_address(self, host: str, address: str) -> None:
        assert parse_ip_host(host) == ipaddress.ip_address(address)

    @pytest.mark.parametrize(("host", "address"), SPELLINGS)
    def test_every_spelling_of_a_blocked_address_is_refused(self, host: str, address: str) -> None:
        with pytest.raises(BlockedAddress):
            resolve_sync(host, 80, AddressPolicy())

    @pytest.mark.parametrize("host", ["localhost", "example.com", "img.cdn.example", "a1.b2"])
    def test_names_are_not_addresses(self, host: str) -> None:
        assert parse_ip_host(host) is None

    @pytest.mark.parametrize(
        "host", ["1.2.3.4.5", "256.0.0.1", "1.2.3.256.", "08.0.0.1", "0x1g.1", "example.123", "::g"]
    )
    def test_broken_numbers_are_invalid(self, host: str) -> None:
        with pytest.raises(InvalidHost):
            parse_ip_host(host)


class TestAddressPolicy:
    def test_any_blocked_address_refuses_the_host(self) -> None:
        addresses = [ipaddress.ip_address("8.8.8.8"), ipaddress.ip_address("10.0.0.1")]
        with pytest.raises(BlockedAddress, match="resolves to a private address"):
            AddressPolicy().check("images.example", addresses)

    def test_the_message_does_not_reveal_resolved_addresses(self) -> None:
        with pytest.raises(BlockedAddress) as caught:
            AddressPolicy().check("intranet.example", [ipaddress.ip_address("10.9.8.7")])
        assert "10.9.8.7" not in str(caught.value)

    def test_public_addresses_pass(self) -> None:
        AddressPolicy().check("images.example", [ipaddress.ip_address("8.8.8.8")])

    def test_allow_private_trusts_everything(self) -> None:
        AddressPolicy(allow_private=True).check("x", [ipaddress.ip_address("127.0.0.1")])

    def test_allowlisted_hosts_may_be_private(self) -> None:
        policy = AddressPolicy(allowlist=frozenset({"images.corp"}))
        policy.check("Images.Corp.", [ipaddress.ip_address("10.0.0.5")])
        with pytest.raises(BlockedAddress):
            policy.check("other.corp", [ipaddress.ip_address("10.0.0.5")])
