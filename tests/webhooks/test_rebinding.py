"""A receiver's name is looked up once per attempt, checked against LOUPE_WEBHOOK_ALLOW, and the
checked address is the one connected to: a name that answers differently on a second lookup
(DNS rebinding) never reaches that second address, and one that answers a refused address at
delivery time is refused then, whatever it answered at registration.

The app allows 127.0.0.1 alone; a second receiver on 127.0.0.2, same port, stands for the
private address a rebinding name would steer Loupe to. Names are made-up `.test` ones answered
by tests/fixtures/dns.py; every address is loopback.
"""

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fixtures.api import Api, side_app
from tests.fixtures.dns import Resolver
from tests.fixtures.receiver import WebhookReceiver
from tests.webhooks.test_delivery import evaluation_body, verified, wait_deliveries

NAME = "hooks.rebinding.test"


@pytest.fixture
def allowed() -> Iterator[WebhookReceiver]:
    with WebhookReceiver("127.0.0.1") as server:
        yield server


@pytest.fixture
def elsewhere(allowed: WebhookReceiver) -> Iterator[WebhookReceiver]:
    with WebhookReceiver("127.0.0.2", allowed.port) as server:
        yield server


@pytest.fixture
def strict(tmp_path: Path) -> Iterator[Api]:
    with side_app(tmp_path, allow_private_urls=False, webhook_allow=["127.0.0.1/32"]) as app:
        yield app


def named_url(receiver: WebhookReceiver) -> str:
    return f"http://{NAME}:{receiver.port}{receiver.path}"


class TestRebinding:
    def test_the_checked_address_is_the_one_connected_to(
        self,
        strict: Api,
        resolver: Resolver,
        allowed: WebhookReceiver,
        elsewhere: WebhookReceiver,
    ) -> None:
        # Registration's lookup, then the attempt's; a third lookup would answer 127.0.0.2.
        resolver.answers[NAME] = ["127.0.0.1", "127.0.0.1", "127.0.0.2"]
        url = named_url(allowed)
        client = strict.tenant_client()
        endpoint = client.post("/v1/webhook_endpoints", json={"url": url})
        assert endpoint.status_code == 201, endpoint.text
        created = client.post("/v1/evaluations", json=evaluation_body(url))
        assert created.status_code == 202, created.text
        strict.wait(client, created.json()["id"])
        (delivery,) = wait_deliveries(strict, client, endpoint.json()["id"], lambda h: len(h) >= 1)
        assert (delivery["succeeded"], delivery["status_code"]) == (True, 200)
        (request,) = allowed.received
        assert request.headers["host"] == f"{NAME}:{allowed.port}"
        assert verified(endpoint.json()["secret"], request)["type"] == "evaluation.completed"
        assert elsewhere.received == []
        assert resolver.lookups.count(NAME) == 2

    def test_a_name_rebound_after_registration_is_refused_at_delivery(
        self,
        strict: Api,
        resolver: Resolver,
        allowed: WebhookReceiver,
        elsewhere: WebhookReceiver,
    ) -> None:
        resolver.answers[NAME] = ["127.0.0.1", "127.0.0.2"]
        url = named_url(allowed)
        client = strict.tenant_client()
        endpoint = client.post("/v1/webhook_endpoints", json={"url": url})
        assert endpoint.status_code == 201, endpoint.text
        created = client.post("/v1/evaluations", json=evaluation_body(url))
        assert created.status_code == 202, created.text
        strict.wait(client, created.json()["id"])
        history = wait_deliveries(strict, client, endpoint.json()["id"], lambda h: len(h) >= 1)
        first = history[-1]
        assert (first["succeeded"], first["status_code"]) == (False, None)
        assert first["error"].startswith(f"refused: {NAME} resolves to a loopback address")
        assert "LOUPE_WEBHOOK_ALLOW" in first["error"]
        assert allowed.received == [] and elsewhere.received == []


class TestHangingResolver:
    def test_a_lookup_that_hangs_is_a_timeout_within_the_attempts_deadline(
        self, tmp_path: Path, resolver: Resolver, allowed: WebhookReceiver
    ) -> None:
        # The lookup ran before the attempt's deadline began: a resolver that did not answer
        # held the worker (shared with every tenant's scoring) for as long as it hung.
        resolver.answers[NAME] = ["127.0.0.1"]
        url = named_url(allowed)
        with side_app(
            tmp_path,
            allow_private_urls=False,
            webhook_allow=["127.0.0.1/32"],
            webhook_timeout_seconds=1,
        ) as app:
            client = app.tenant_client()
            endpoint = client.post("/v1/webhook_endpoints", json={"url": url})
            assert endpoint.status_code == 201, endpoint.text
            # Registered; from now on the name's lookups hang until released.
            resolver.held.add(NAME)
            try:
                created = client.post("/v1/evaluations", json=evaluation_body(url))
                assert created.status_code == 202, created.text
                app.wait(client, created.json()["id"])
                history = wait_deliveries(app, client, endpoint.json()["id"], lambda h: len(h) >= 1)
                # Nothing reached the receiver while its name did not resolve.
                assert allowed.received == []
            finally:
                resolver.hold.set()
        first = history[-1]
        assert (first["succeeded"], first["status_code"]) == (False, None)
        assert first["error"] == (
            f"TimeoutError: {NAME} did not resolve within 1 s (LOUPE_WEBHOOK_TIMEOUT_SECONDS)"
        )
