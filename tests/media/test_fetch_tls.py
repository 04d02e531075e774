"""HTTPS image URLs: the fetcher connects to the checked address but verifies the certificate
against the URL's host name, which it also sends as SNI. Servers listen on 127.0.0.1 only."""

import pytest

from app.media.fetch import FetchPolicy
from app.media.netguard import AddressPolicy
from tests.media.certs import Authority, Issued, server_context
from tests.media.loopback import LoopbackServer, Route, png
from tests.media.test_fetch import fetch, refused

IMAGE = png((36, 28))
# `localhost` is a private name: trusted here so only TLS decides.
OPEN = FetchPolicy(AddressPolicy(allow_private=True), max_bytes=100_000, timeout=5.0)


@pytest.fixture(scope="module")
def authority() -> Authority:
    return Authority()


class HttpsServer(LoopbackServer):
    """A loopback HTTPS server presenting `issued`; records the SNI name of each handshake."""

    def __init__(self, issued: Issued) -> None:
        self.server_names: list[str | None] = []
        super().__init__(tls=server_context(issued, self.server_names))
        self.routes["/image.png"] = Route(body=IMAGE)


class TestCertificates:
    def test_fetched_when_the_certificate_names_the_host(self, authority: Authority) -> None:
        with HttpsServer(authority.issue(dns_names=("localhost",))) as server:
            fetched = fetch(server.url("/image.png", "localhost"), OPEN, authority.client_context())
            assert fetched.data == IMAGE
            assert fetched.url == server.url("/image.png", "localhost")
            assert server.server_names == ["localhost"]
            assert server.hits == [("/image.png", f"localhost:{server.port}")]
            # The connection went to the address `localhost` was checked as.
            assert server.served_on == ["127.0.0.1"]

    @pytest.mark.parametrize(
        ("names", "ips"),
        [(("other.invalid",), ()), ((), ("127.0.0.1",))],
        ids=["another-name", "only-the-address"],
    )
    def test_refused_when_the_certificate_names_something_else(
        self, authority: Authority, names: tuple[str, ...], ips: tuple[str, ...]
    ) -> None:
        # A certificate for 127.0.0.1 would pass if the pinned address were checked instead.
        with HttpsServer(authority.issue(dns_names=names, ips=ips)) as server:
            message = refused(
                server.url("/image.png", "localhost"),
                OPEN,
                "image_fetch_failed",
                authority.client_context(),
            )
            assert message == (
                "the TLS certificate of localhost was not accepted: "
                "Hostname mismatch, certificate is not valid for 'localhost'."
            )
            assert server.server_names == ["localhost"]
            assert server.hits == []

    def test_refused_when_the_authority_is_not_trusted(self, authority: Authority) -> None:
        with HttpsServer(authority.issue(dns_names=("localhost",))) as server:
            url = server.url("/image.png", "localhost")
            message = refused(url, OPEN, "image_fetch_failed", Authority().client_context())
            assert message.endswith("not accepted: unable to get local issuer certificate")
            # The default trust (a public CA bundle) does not know a private CA either.
            refused(url, OPEN, "image_fetch_failed")
            assert server.server_names == ["localhost", "localhost"]
            assert server.hits == []
