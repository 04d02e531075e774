"""SSRF end to end: an app with LOUPE_ALLOW_PRIVATE_URLS off refuses loopback image URLs and
webhook receivers with problem+json naming the field.

Only loopback servers are involved. `127.0.0.1` is on this app's LOUPE_FETCH_ALLOWLIST, so a
URL naming it exactly is fetched, which lets redirects to other loopback names be tested; every
other spelling of loopback, and `localhost`, must be refused.
"""

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app import migrate
from app import runtime as runtime_module
from app.webhooks import service as webhook_service
from app.webhooks.schemas import WebhookEndpointCreate
from tests.evaluations.test_endpoints import problem
from tests.fixtures.api import Api, ServedApp, sqlite_settings
from tests.media.loopback import LoopbackServer, Route, data_url, noise_png, png

IMAGE = png((30, 20))
BIG = noise_png((150, 150))  # about 67 kB, over this app's 60 kB cap


@pytest.fixture(scope="module")
def strict(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    settings = sqlite_settings(
        tmp_path_factory.mktemp("ssrf"),
        allow_private_urls=False,
        fetch_allowlist=["127.0.0.1"],
        max_image_bytes=60_000,
        max_request_image_bytes=150_000,
        fetch_timeout_seconds=1.0,
    )
    migrate.upgrade(settings)
    # Serving makes this app's runtime the process's current one; the session's `api` app
    # runs jobs through it, so put it back afterwards.
    previous = runtime_module._current
    try:
        with ServedApp(settings) as served:
            yield Api(mode="embedded", served=served)
    finally:
        runtime_module._current = previous


@pytest.fixture(scope="module")
def server() -> Iterator[LoopbackServer]:
    with LoopbackServer() as running:
        running.routes = {
            "/image.png": Route(body=IMAGE),
            "/to-localhost": Route(status=302, headers={}, body=b""),
            "/big.png": Route(body=BIG),
            "/slow.png": Route(body=IMAGE, chunks=30, chunk_delay=0.1),
            "/page.html": Route(body=b"<html></html>", content_type="text/html"),
            "/hook": Route(status=200, body=b"ok", content_type="text/plain"),
        }
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


class TestImageUrls:
    @pytest.mark.parametrize(
        "host",
        ["localhost", "127.1", "2130706433", "0x7f000001", "0x7f.1", "[::1]", "[::ffff:127.0.0.1]"],
    )
    def test_loopback_is_refused(self, strict: Api, server: LoopbackServer, host: str) -> None:
        server.hits.clear()
        error = refused(submit(strict, server.url("/image.png", host)), "url_blocked")
        assert "loopback" in error["msg"] and "LOUPE_ALLOW_PRIVATE_URLS" in error["msg"]
        assert server.hits == []

    def test_a_redirect_to_loopback_is_refused(self, strict: Api, server: LoopbackServer) -> None:
        server.hits.clear()
        error = refused(submit(strict, server.url("/to-localhost")), "url_blocked")
        assert error["msg"].startswith("localhost resolves to a loopback address")
        assert [path for path, _ in server.hits] == ["/to-localhost"]

    def test_oversized(self, strict: Api, server: LoopbackServer) -> None:
        error = refused(submit(strict, server.url("/big.png")), "image_too_large")
        assert "60000 bytes" in error["msg"]

    def test_slow(self, strict: Api, server: LoopbackServer) -> None:
        refused(submit(strict, server.url("/slow.png")), "image_fetch_timeout")

    def test_wrong_content_type(self, strict: Api, server: LoopbackServer) -> None:
        error = refused(submit(strict, server.url("/page.html")), "image_content_type")
        assert "text/html" in error["msg"]

    def test_an_allowlisted_host_is_fetched(self, strict: Api, server: LoopbackServer) -> None:
        response = submit(strict, server.url("/image.png"))
        assert response.status_code == 202, response.text


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
    def test_registration_refuses_loopback(self, strict: Api, server: LoopbackServer) -> None:
        client = strict.tenant_client()
        for host in ("localhost", "127.1", "[::1]"):
            found = problem(
                client.post("/v1/webhook_endpoints", json={"url": server.url("/hook", host)}), 422
            )
            assert [(e["loc"], e["type"]) for e in found["errors"]] == [("url", "url_blocked")]
        created = client.post("/v1/webhook_endpoints", json={"url": server.url("/hook")})
        assert created.status_code == 201, created.text

    def test_delivery_checks_again(self, strict: Api, server: LoopbackServer) -> None:
        # Registered while the name still resolved elsewhere (stored directly here).
        settings = strict.settings
        with strict.served.runtime.session() as session:
            from app.tenants.service import create_key

            tenant, _ = create_key(session, "ssrf-delivery")
            endpoint = webhook_service.create_endpoint(
                session, tenant.id, WebhookEndpointCreate(url=server.url("/hook", "localhost"))
            )
            event = webhook_service.emit(
                session, tenant.id, endpoint.id, "evaluation.completed", {}
            )
            session.commit()
            server.hits.clear()
            delivery = webhook_service.deliver(session, event.id, settings)
            session.commit()
        assert delivery is not None and not delivery.succeeded
        assert delivery.error is not None and delivery.error.startswith("refused: localhost")
        assert server.hits == []
