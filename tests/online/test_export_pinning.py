"""A rule's own export endpoint is a tenant's URL: the export connects to exactly the address the
webhook policy checked (no second lookup the name could answer differently: DNS rebinding),
keeps the host name for the Host header, TLS SNI and the certificate check, and follows no
redirect. Names are resolved by the real resolver (`localhost`, from /etc/hosts); servers
listen on loopback only; refused addresses are shown on the check itself, which connects to
nothing."""

import ipaddress
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from app.config import Settings
from app.media.netguard import BlockedAddress, IPAddress
from app.online.emitter import Evaluated, NotSent, pinned_session, send
from app.online.export import checked_address
from tests.fixtures.api import fast_settings
from tests.media.certs import Authority
from tests.media.loopback import LoopbackServer, Route
from tests.media.test_fetch_tls import HttpsServer

ACCEPTED = Route(status=200, body=b"", content_type="application/x-protobuf")
# Loopback, but not an address `localhost` resolves to: only a pinned connection reaches it.
ELSEWHERE = ipaddress.IPv4Address("127.0.0.2")
EVENT = Evaluated(
    result_id="res_0000000000010000000000000000",
    rule_id="orl_1",
    metric="describes",
    score=0.5,
    passed=True,
    reason="fine",
    error_type=None,
    error_message=None,
    trace_id=None,
    span_id=None,
    time_unix_nano=None,
)


def loopback_allowed() -> Settings:
    """The webhook policy as an operator who allows loopback sets it (no blanket opt-out)."""
    return fast_settings(allow_private_urls=False, webhook_allow=["127.0.0.0/8", "::1"])


def collector(host: str = "127.0.0.1") -> LoopbackServer:
    server = LoopbackServer(hosts=(host,))
    server.routes["/v1/logs"] = ACCEPTED
    return server


@pytest.fixture
def localhost_address() -> IPAddress:
    """What the real resolver and the policy make of `localhost` (the port does not matter)."""
    return checked_address("http://localhost:4318", loopback_allowed())


class TestPinnedToTheCheckedAddress:
    def test_an_export_reaches_the_checked_address_under_the_hosts_name(
        self, localhost_address: IPAddress
    ) -> None:
        assert localhost_address.is_loopback
        with collector(str(localhost_address)) as server:
            assert send(
                f"http://localhost:{server.port}/", [EVENT], {}, 5.0, pinned_to=localhost_address
            )
            assert server.hits == [("/v1/logs", f"localhost:{server.port}")]
            assert server.served_on == [str(localhost_address)]

    def test_the_name_is_not_looked_up_again(self) -> None:
        """Pinned to an address the name does not resolve to (as after a rebinding), the
        request still goes to the pinned address, named as the URL names it."""
        assert str(ELSEWHERE) not in {
            info[4][0] for info in socket.getaddrinfo("localhost", 80, type=socket.SOCK_STREAM)
        }
        with collector(str(ELSEWHERE)) as server:
            url = f"http://localhost:{server.port}/v1/logs"
            with pinned_session(url, ELSEWHERE) as session:
                response = session.post(url, data=b"x", timeout=5)
            assert response.status_code == 200
            assert server.hits == [("/v1/logs", f"localhost:{server.port}")]
            assert server.served_on == [str(ELSEWHERE)]
            # Looked up afresh, the name leads somewhere else, where nothing listens.
            with pytest.raises(requests.ConnectionError):
                requests.post(url, data=b"x", timeout=5)
            assert len(server.hits) == 1
            # The exporter itself goes the same way.
            assert send(f"http://localhost:{server.port}", [EVENT], {}, 5.0, pinned_to=ELSEWHERE)
            assert server.served_on == [str(ELSEWHERE)] * 2

    def test_an_ipv6_address_is_pinned_too(self) -> None:
        loopback6 = ipaddress.IPv6Address("::1")
        with collector(str(loopback6)) as server:
            for host in ("localhost", "[::1]"):
                url = f"http://{host}:{server.port}/v1/logs"
                with pinned_session(url, loopback6) as session:
                    assert session.post(url, data=b"x", timeout=5).status_code == 200
            assert server.hits == [
                ("/v1/logs", f"localhost:{server.port}"),
                ("/v1/logs", f"[::1]:{server.port}"),
            ]
            assert server.served_on == ["::1", "::1"]

    def test_https_keeps_the_name_for_sni_and_the_certificate(self, tmp_path: Path) -> None:
        authority = Authority()
        bundle = tmp_path / "ca.pem"
        bundle.write_bytes(authority.cert_pem)
        with HttpsServer(authority.issue(dns_names=("localhost",))) as server:
            server.routes["/v1/logs"] = ACCEPTED
            url = server.url("/v1/logs", "localhost")
            with pinned_session(url, ipaddress.IPv4Address("127.0.0.1")) as session:
                response = session.post(url, data=b"x", timeout=5, verify=str(bundle))
            assert response.status_code == 200
            assert server.server_names == ["localhost"]
            assert server.hits == [("/v1/logs", f"localhost:{server.port}")]

    def test_https_refuses_a_certificate_for_the_address_only(self, tmp_path: Path) -> None:
        # Valid for the pinned address, not for the name: verifying the address would pass.
        authority = Authority()
        bundle = tmp_path / "ca.pem"
        bundle.write_bytes(authority.cert_pem)
        with HttpsServer(authority.issue(ips=("127.0.0.1",))) as server:
            url = server.url("/v1/logs", "localhost")
            with (
                pinned_session(url, ipaddress.IPv4Address("127.0.0.1")) as session,
                pytest.raises(requests.exceptions.SSLError, match="localhost"),
            ):
                session.post(url, data=b"x", timeout=5, verify=str(bundle))
            assert server.server_names == ["localhost"]
            assert server.hits == []

    def test_no_other_origin_is_sent_to(self) -> None:
        with collector() as checked, collector() as other:
            url = f"http://localhost:{checked.port}/v1/logs"
            with pinned_session(url, ipaddress.IPv4Address("127.0.0.1")) as session:
                for elsewhere in (
                    f"http://localhost:{other.port}/v1/logs",
                    f"http://127.0.0.1:{checked.port}/v1/logs",
                    f"https://localhost:{checked.port}/v1/logs",
                ):
                    with pytest.raises(NotSent, match="only the checked origin"):
                        session.post(elsewhere, data=b"x", timeout=5)
            assert checked.hits == [] and other.hits == []


class TestPolicy:
    @pytest.mark.parametrize(
        "url",
        [
            "http://localhost:4318",
            "http://127.0.0.1:4318",
            "http://2130706433:4318",
            "http://[::1]:4318",
            "https://[::ffff:127.0.0.1]",
        ],
    )
    def test_an_address_the_policy_refuses_is_no_address_to_send_to(self, url: str) -> None:
        """The export checks before it sends: a refused host yields no address at all, so
        there is nothing to connect to (the job counts a failed export and backs off)."""
        with pytest.raises(BlockedAddress, match="LOUPE_WEBHOOK_ALLOW"):
            checked_address(url, fast_settings(allow_private_urls=False))

    def test_the_address_checked_is_the_one_the_name_resolves_to(self) -> None:
        resolved = {
            ipaddress.ip_address(info[4][0])
            for info in socket.getaddrinfo("localhost", 4318, type=socket.SOCK_STREAM)
        }
        settings = loopback_allowed()
        assert checked_address("http://localhost:4318", settings) in resolved
        # An address literal, in any spelling, is the address it spells.
        assert checked_address("http://2130706433:4318", settings) == ipaddress.IPv4Address(
            "127.0.0.1"
        )
        # Allowing the name itself (LOUPE_WEBHOOK_ALLOW=localhost) still pins its address.
        by_name = fast_settings(allow_private_urls=False, webhook_allow=["localhost"])
        assert checked_address("http://localhost:4318", by_name) in resolved


class TestRedirects:
    @pytest.fixture
    def redirecting(self) -> Iterator[LoopbackServer]:
        with collector() as server:
            server.routes["/v1/logs"] = Route(
                status=307,
                content_type=None,
                headers={"Location": f"http://localhost:{server.port}/moved/v1/logs"},
            )
            server.routes["/moved/v1/logs"] = ACCEPTED
            yield server

    def test_a_redirect_is_a_failed_export_and_is_not_followed(
        self, redirecting: LoopbackServer
    ) -> None:
        # The exporter would count any answer under 400 as accepted: the cursor would move.
        base = f"http://localhost:{redirecting.port}"
        assert not send(base, [EVENT], {}, 5.0, pinned_to=ipaddress.IPv4Address("127.0.0.1"))
        assert [path for path, _ in redirecting.hits] == ["/v1/logs"]

    @pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
    def test_the_session_follows_no_redirect_even_when_asked(
        self, redirecting: LoopbackServer, status: int
    ) -> None:
        redirecting.routes["/v1/logs"].status = status
        url = f"http://localhost:{redirecting.port}/v1/logs"
        with (
            pinned_session(url, ipaddress.IPv4Address("127.0.0.1")) as session,
            pytest.raises(NotSent, match=f"answered {status}: redirects are not followed"),
        ):
            session.post(url, data=b"x", timeout=5, allow_redirects=True)
        assert [path for path, _ in redirecting.hits] == ["/v1/logs"]


class TestOverHttps:
    def test_the_exporter_sends_to_the_checked_address_without_loupes_client_certificate(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Through the SDK's exporter over https: the name is the TLS server name, and the
        process's own client certificate (OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE, for its own
        collector) is not presented to a tenant's endpoint: here it names no file, so
        presenting it would fail the export."""
        authority = Authority()
        bundle = tmp_path / "ca.pem"
        bundle.write_bytes(authority.cert_pem)
        monkeypatch.setenv("OTEL_EXPORTER_OTLP_CERTIFICATE", str(bundle))
        monkeypatch.setenv("OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE", str(tmp_path / "absent.pem"))
        with HttpsServer(authority.issue(dns_names=("localhost",))) as server:
            server.routes["/v1/logs"] = ACCEPTED
            base = f"https://localhost:{server.port}"
            assert send(base, [EVENT], {}, 5.0, pinned_to=ipaddress.IPv4Address("127.0.0.1"))
            assert server.server_names == ["localhost"]
            assert server.hits == [("/v1/logs", f"localhost:{server.port}")]
