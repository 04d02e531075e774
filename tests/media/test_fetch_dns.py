"""Name resolution in the fetcher: one lookup per hop, the connection goes to the address that
was checked, and a lookup that hangs is a timeout.

Names under `.test` exist only in the patched resolver below: `socket.getaddrinfo` is replaced
before anything resolves, and refuses every other `.test` name, so no DNS query leaves this
machine (tests/conftest.py's guard would stop it anyway).
"""

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from app.media.fetch import FetchError, FetchPolicy, fetch_image, new_client
from app.media.netguard import AddressPolicy
from tests.fixtures.dns import Resolver
from tests.media.loopback import LoopbackServer, Route, png
from tests.media.test_fetch import fetch, refused

IMAGE = png((20, 12))


@pytest.fixture
def servers() -> Iterator[LoopbackServer]:
    # One port on two loopback addresses: which one a request reached is in `served_on`.
    with LoopbackServer(hosts=("127.0.0.1", "127.0.0.2")) as running:
        running.routes["/image.png"] = Route(body=IMAGE)
        yield running


def policy(**addresses: Any) -> FetchPolicy:
    return FetchPolicy(AddressPolicy(**addresses), max_bytes=100_000, timeout=5.0)


class TestOneLookupPerHop:
    def test_connects_to_the_checked_address(
        self, resolver: Resolver, servers: LoopbackServer
    ) -> None:
        # A rebinding name: checked as 127.0.0.1, a second lookup would say 127.0.0.2.
        resolver.answers["rebind.test"] = ["127.0.0.1", "127.0.0.2"]
        trusted = policy(allowlist=frozenset({"rebind.test"}))
        fetched = fetch(servers.url("/image.png", "rebind.test"), trusted)
        assert fetched.data == IMAGE
        assert resolver.lookups == ["rebind.test"]
        assert servers.served_on == ["127.0.0.1"]
        assert servers.hits == [("/image.png", f"rebind.test:{servers.port}")]

    def test_each_redirect_is_resolved_and_checked_once(
        self, resolver: Resolver, servers: LoopbackServer
    ) -> None:
        resolver.answers["rebind.test"] = ["127.0.0.1", "127.0.0.2"]
        servers.routes["/hop"] = Route(status=302, headers={"Location": "/image.png"}, body=b"")
        trusted = policy(allowlist=frozenset({"rebind.test"}))
        assert fetch(servers.url("/hop", "rebind.test"), trusted).data == IMAGE
        assert resolver.lookups == ["rebind.test", "rebind.test"]
        assert servers.served_on == ["127.0.0.1", "127.0.0.2"]
        assert [path for path, _ in servers.hits] == ["/hop", "/image.png"]

    def test_refused_on_the_one_answer_without_connecting(
        self, resolver: Resolver, servers: LoopbackServer
    ) -> None:
        resolver.answers["rebind.test"] = ["127.0.0.1", "127.0.0.2"]
        message = refused(servers.url("/image.png", "rebind.test"), policy(), "url_blocked")
        assert message.startswith("rebind.test resolves to a loopback address")
        assert resolver.lookups == ["rebind.test"]
        assert servers.hits == []

    def test_a_name_that_does_not_resolve(self, resolver: Resolver) -> None:
        message = refused("http://nowhere.test/x.png", policy(allow_private=True), "url_blocked")
        assert message == "nowhere.test does not resolve"
        assert resolver.lookups == ["nowhere.test"]


class TestResolveTimeout:
    def test_a_lookup_that_hangs(self, resolver: Resolver, servers: LoopbackServer) -> None:
        resolver.answers["slow-dns.test"] = ["127.0.0.1"]
        resolver.held.add("slow-dns.test")
        # The total is far away: only the lookup's own limit (the connect timeout) can fire.
        slow = FetchPolicy(
            AddressPolicy(allow_private=True), max_bytes=100_000, connect_timeout=0.3, timeout=60
        )

        async def go() -> FetchError:
            try:
                async with new_client(slow) as client:
                    with pytest.raises(FetchError) as caught:
                        await fetch_image(client, servers.url("/image.png", "slow-dns.test"), slow)
                return caught.value
            finally:
                resolver.hold.set()  # let the resolver thread finish before the loop closes

        error = asyncio.run(go())
        assert (error.type, error.message) == (
            "image_fetch_timeout",
            "slow-dns.test did not resolve within 0.3 s",
        )
        assert servers.hits == []
