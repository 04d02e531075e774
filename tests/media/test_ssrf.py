"""SSRF end to end: an app with LOUPE_ALLOW_PRIVATE_URLS off refuses loopback image URLs and
webhook receivers with problem+json naming the field; the same URLs work with it on.

Only loopback servers are involved. `127.0.0.1` is on the strict app's LOUPE_FETCH_ALLOWLIST, so
a URL naming it exactly is fetched, which lets redirects to other loopback names be tested; every
other spelling of loopback, and `localhost`, must be refused.
"""

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app.config import Settings
from app.media.netguard import AddressPolicy
from app.webhooks import service as webhook_service
from app.webhooks.schemas import WebhookEndpointCreate
from tests.evaluations.test_endpoints import problem
from tests.fixtures.api import Api
from tests.fixtures.api import side_app as served_app
from tests.media.loopback import LoopbackServer, Route, data_url, noise_png, png

IMAGE = png((30, 20))
BIG = noise_png((150, 150))  # about 67 kB, over these apps' 60 kB cap
LIMITS = {"max_image_bytes": 60_000, "max_request_image_bytes": 150_000}
LOOPBACK_HOSTS = [
    "localhost",
    "127.1",
    "2130706433",
    "0x7f000001",
    "0x7f.1",
    "[::1]",
    "[::ffff:127.0.0.1]",
]


@pytest.fixture(scope="module")
def strict(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    with served_app(
        tmp_path_factory.mktemp("ssrf"),
        allow_private_urls=False,
        fetch_allowlist=["127.0.0.1"],
        **LIMITS,
    ) as app:
        yield app


@pytest.fixture(scope="module")
def hasty(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    """The strict app with a 1 s budget per fetch, for a server that trickles 3 s. The other
    tests keep the default budget: a loaded machine can take over 1 s to fetch a fast page."""
    with served_app(
        tmp_path_factory.mktemp("ssrf-hasty"),
        allow_private_urls=False,
        fetch_allowlist=["127.0.0.1"],
        fetch_timeout_seconds=1.0,
        **LIMITS,
    ) as app:
        yield app


@pytest.fixture(scope="module")
def permissive(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    with served_app(tmp_path_factory.mktemp("ssrf-open"), allow_private_urls=True, **LIMITS) as app:
        yield app


@pytest.fixture(params=[False, True], ids=["private-off", "private-on"])
def allow_private(request: pytest.FixtureRequest) -> bool:
    return request.param


@pytest.fixture
def app(allow_private: bool, request: pytest.FixtureRequest) -> Api:
    """The strict app, or one with LOUPE_ALLOW_PRIVATE_URLS=true."""
    return request.getfixturevalue("permissive" if allow_private else "strict")


@pytest.fixture(scope="module")
def server() -> Iterator[LoopbackServer]:
    # On ::1 too, so that `[::1]` URLs have something to reach when they are allowed.
    with LoopbackServer(hosts=("127.0.0.1", "::1")) as running:
        running.routes = {
            "/image.png": Route(body=IMAGE),
            "/to-localhost": Route(status=302, headers={}, body=b""),
            "/big.png": Route(body=BIG),
            "/slow.png": Route(body=IMAGE, chunks=30, chunk_delay=0.1),
            "/page.html": Route(body=b"<html></html>", content_type="text/html"),
            "/hook": Route(status=200, body=b"ok", content_type="text/plain"),
        }
        for seed in range(4):
            running.routes[f"/noise-{seed}.png"] = Route(body=noise_png((120, 120), seed))
        running.routes["/to-localhost"].headers["Location"] = running.url("/image.png", "localhost")
        yield running


def submit(api: Api, url: str) -> httpx.Response:
    body = {
        "test_cases": [
            {
                "input": "q",
                "expected_output": "x",
                "actual_output": ["see", {"type": "image_url", "image_url": {"url": url}}],
            }
        ],
        "metrics": [{"type": "exact_match"}],
    }
    return api.tenant_client().post("/v1/evaluations", json=body)


def refused(response: httpx.Response, type_: str) -> dict[str, Any]:
    found = problem(response, 422)
    assert [(e["loc"], e["type"]) for e in found["errors"]] == [
        ("test_cases[0].actual_output[1].image_url.url", type_)
    ], found
    return found["errors"][0]


def accepted(response: httpx.Response) -> None:
    assert response.status_code == 202, response.text


class TestImageUrls:
    @pytest.mark.parametrize("host", LOOPBACK_HOSTS)
    def test_loopback(
        self, app: Api, allow_private: bool, server: LoopbackServer, host: str
    ) -> None:
        server.hits.clear()
        response = submit(app, server.url("/image.png", host))
        if allow_private:
            accepted(response)
            assert server.hits == [("/image.png", f"{host}:{server.port}")]
        else:
            error = refused(response, "url_blocked")
            assert "loopback" in error["msg"] and "LOUPE_IMAGE_ALLOW" in error["msg"]
            assert server.hits == []

    def test_a_redirect_to_loopback(
        self, app: Api, allow_private: bool, server: LoopbackServer
    ) -> None:
        server.hits.clear()
        response = submit(app, server.url("/to-localhost"))
        if allow_private:
            accepted(response)
            assert [path for path, _ in server.hits] == ["/to-localhost", "/image.png"]
        else:
            error = refused(response, "url_blocked")
            assert error["msg"].startswith("localhost resolves to a loopback address")
            assert [path for path, _ in server.hits] == ["/to-localhost"]

    def test_oversized(self, strict: Api, server: LoopbackServer) -> None:
        error = refused(submit(strict, server.url("/big.png")), "image_too_large")
        assert "60000 bytes" in error["msg"]

    def test_slow(self, hasty: Api, server: LoopbackServer) -> None:
        refused(submit(hasty, server.url("/slow.png")), "image_fetch_timeout")

    def test_wrong_content_type(self, strict: Api, server: LoopbackServer) -> None:
        error = refused(submit(strict, server.url("/page.html")), "image_content_type")
        assert "text/html" in error["msg"]

    def test_an_allowlisted_host_is_fetched(self, strict: Api, server: LoopbackServer) -> None:
        accepted(submit(strict, server.url("/image.png")))


def submit_images(api: Api, urls: list[str]) -> httpx.Response:
    body = {
        "test_cases": [
            {
                "input": "q",
                "expected_output": "x",
                "actual_output": [{"type": "image_url", "image_url": {"url": url}}],
            }
            for url in urls
        ],
        "metrics": [{"type": "exact_match"}],
    }
    return api.tenant_client().post("/v1/evaluations", json=body)


def error_types(response: httpx.Response) -> list[tuple[str, str]]:
    return [(e["loc"], e["type"]) for e in problem(response, 422)["errors"]]


class TestRequestTotalWithFetchedImages:
    """LOUPE_MAX_REQUEST_IMAGE_BYTES (150 kB here) counts fetched images with data URLs."""

    def test_a_fetched_image_over_what_data_urls_left(
        self, strict: Api, server: LoopbackServer
    ) -> None:
        # Data URLs are counted first: 3 x ~43 kB leave less than the fetched image's ~43 kB.
        urls = [data_url(noise_png((120, 120), seed)) for seed in range(3)]
        server.hits.clear()
        response = submit_images(strict, [*urls, server.url("/noise-3.png")])
        assert error_types(response) == [
            ("test_cases[3].actual_output[0].image_url.url", "image_request_total")
        ]
        assert "LOUPE_MAX_REQUEST_IMAGE_BYTES" in problem(response, 422)["errors"][0]["msg"]
        assert [path for path, _ in server.hits] == ["/noise-3.png"]

    def test_fetched_images_only(self, strict: Api, server: LoopbackServer) -> None:
        urls = [server.url(f"/noise-{seed}.png") for seed in range(4)]
        accepted(submit_images(strict, urls[:3]))
        # Fetched concurrently: whichever arrives last goes over; only that one is refused.
        found = error_types(submit_images(strict, urls))
        assert [type_ for _, type_ in found] == ["image_request_total"]
        assert found[0][0] in {f"test_cases[{i}].actual_output[0].image_url.url" for i in range(4)}

    def test_a_url_counts_once_however_often_it_is_used(
        self, strict: Api, server: LoopbackServer
    ) -> None:
        server.hits.clear()
        accepted(submit_images(strict, [server.url("/noise-0.png")] * 5))
        assert [path for path, _ in server.hits] == ["/noise-0.png"]


class TestDataUrlLimits:
    def test_an_image_over_the_byte_cap(self, strict: Api) -> None:
        error = refused(submit(strict, data_url(BIG)), "image_too_large")
        assert "LOUPE_MAX_IMAGE_BYTES" in error["msg"]

    def test_the_per_request_total(self, strict: Api) -> None:
        images = [noise_png((120, 120), seed) for seed in range(4)]  # ~43 kB each
        body = {
            "test_cases": [
                {
                    "input": "q",
                    "expected_output": "x",
                    "actual_output": [{"type": "image_url", "image_url": {"url": data_url(i)}}],
                }
                for i in images
            ],
            "metrics": [{"type": "exact_match"}],
        }
        found = problem(strict.tenant_client().post("/v1/evaluations", json=body), 422)
        assert [(e["loc"], e["type"]) for e in found["errors"]] == [
            ("test_cases[3].actual_output[0].image_url.url", "image_request_total")
        ]


class TestWebhookUrls:
    def test_registration(self, app: Api, allow_private: bool, server: LoopbackServer) -> None:
        client = app.tenant_client()
        for host in ("localhost", "127.1", "[::1]"):
            response = client.post("/v1/webhook_endpoints", json={"url": server.url("/hook", host)})
            if allow_private:
                assert response.status_code == 201, response.text
            else:
                found = problem(response, 422)
                assert [(e["loc"], e["type"]) for e in found["errors"]] == [("url", "url_blocked")]
        created = client.post("/v1/webhook_endpoints", json={"url": server.url("/hook")})
        assert created.status_code == 201, created.text

    def test_delivery_checks_again(
        self, app: Api, allow_private: bool, server: LoopbackServer
    ) -> None:
        # Registered while the name still resolved elsewhere (stored directly here).
        from app.tenants.service import create_key

        with app.served.runtime.session() as session:
            tenant, _ = create_key(session, "ssrf-delivery")
            endpoint, _ = webhook_service.create_endpoint(
                session,
                tenant.id,
                WebhookEndpointCreate(url=server.url("/hook", "localhost")),
                app.settings,
            )
            event = webhook_service.emit(
                session, tenant.id, endpoint.id, "evaluation.completed", {}
            )
            session.commit()
            server.hits.clear()
            delivery = webhook_service.deliver(session, event.id, app.settings)
            session.commit()
        assert delivery is not None
        if allow_private:
            assert delivery.succeeded, delivery.error
            # The app's ticker may deliver the due event too: one or two identical POSTs.
            assert set(server.hits) == {("/hook", f"localhost:{server.port}")}
        else:
            assert not delivery.succeeded
            assert delivery.error is not None and delivery.error.startswith("refused: localhost")
            assert server.hits == []


class TestSettings:
    def test_the_allowlist_from_a_comma_separated_variable(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setenv("LOUPE_FETCH_ALLOWLIST", " images.internal, Cache.Example.,10.1.2.3,,")
        monkeypatch.setenv("LOUPE_ALLOW_PRIVATE_URLS", "true")
        settings = Settings(_env_file=None)  # type: ignore[call-arg]
        assert settings.fetch_allowlist == ["images.internal", "cache.example", "10.1.2.3"]
        assert settings.allow_private_urls is True
        policy = AddressPolicy.from_settings(settings)
        assert policy.allowlist == frozenset({"images.internal", "cache.example", "10.1.2.3"})
        assert policy.trusts("CACHE.example.")

    def test_the_allowlist_is_empty_by_default(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.delenv("LOUPE_FETCH_ALLOWLIST", raising=False)
        monkeypatch.delenv("LOUPE_ALLOW_PRIVATE_URLS", raising=False)
        settings = Settings(_env_file=None)  # type: ignore[call-arg]
        assert (settings.fetch_allowlist, settings.allow_private_urls) == ([], False)
