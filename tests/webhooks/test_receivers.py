"""Receivers that answer slowly or at length: an attempt lasts at most
LOUPE_WEBHOOK_TIMEOUT_SECONDS however the receiver dribbles its answer, and Loupe reads no more
of a receiver's body than it keeps (2,048 characters), so no tenant's receiver can hold a
worker (every tenant's scoring shares them) or fill its memory."""

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fixtures.api import Api, served_api, sqlite_settings
from tests.fixtures.receiver import WebhookReceiver
from tests.webhooks.test_delivery import evaluation_body, verified, wait_deliveries


@pytest.fixture
def receiver() -> Iterator[WebhookReceiver]:
    with WebhookReceiver() as server:
        yield server


def wait_hang_ups(receiver: WebhookReceiver, count: int, timeout: float = 30) -> None:
    """Wait until the receiver saw `count` answers cut short by Loupe hanging up."""
    deadline = time.monotonic() + timeout
    while receiver.hang_ups < count:
        if time.monotonic() > deadline:
            raise AssertionError(f"Loupe hung up on {receiver.hang_ups} answers, not {count}")
        time.sleep(0.05)


class TestSlowReceivers:
    def test_a_head_dribbled_past_the_timeout_is_a_failed_attempt(
        self, tmp_path: Path, receiver: WebhookReceiver
    ) -> None:
        # Every byte comes well within the timeout of the one before, so only a deadline on
        # the whole attempt stops it: without one the 10 s dribble was taken as a delivery.
        receiver.misbehave("dribble", "answer")
        settings = sqlite_settings(tmp_path, webhook_timeout_seconds=0.5)
        with served_api(settings) as api:
            client = api.tenant_client()
            endpoint = client.post("/v1/webhook_endpoints", json={"url": receiver.url}).json()
            created = client.post("/v1/evaluations", json=evaluation_body(receiver.url))
            assert created.status_code == 202, created.text
            assert api.wait(client, created.json()["id"])["status"] == "completed"
            history = wait_deliveries(
                api, client, endpoint["id"], lambda h: any(d["succeeded"] for d in h)
            )
        first, last = history[-1], history[0]
        assert (first["attempt"], first["succeeded"], first["status_code"]) == (1, False, None)
        assert "no complete answer within 0.5 s" in first["error"], first["error"]
        assert "LOUPE_WEBHOOK_TIMEOUT_SECONDS" in first["error"]
        assert (last["succeeded"], last["status_code"]) == (True, 200)
        # Loupe hung up on the dribble rather than waiting it out.
        wait_hang_ups(receiver, 1)
        assert verified(endpoint["secret"], receiver.received[-1])["type"] == (
            "evaluation.completed"
        )


class TestLongAnswers:
    def test_only_the_kept_start_of_a_long_body_is_read(
        self, api: Api, receiver: WebhookReceiver
    ) -> None:
        # A 64 MiB answer: Loupe keeps 2,048 characters and used to read all of it first.
        receiver.misbehave("flood")
        client = api.tenant_client()
        endpoint = client.post("/v1/webhook_endpoints", json={"url": receiver.url}).json()
        created = client.post("/v1/evaluations", json=evaluation_body(receiver.url))
        assert created.status_code == 202, created.text
        api.wait(client, created.json()["id"])
        (delivery,) = wait_deliveries(api, client, endpoint["id"], lambda h: len(h) >= 1)
        assert (delivery["succeeded"], delivery["status_code"]) == (True, 200)
        assert delivery["response_body"] == "x" * 2048
        # It hung up once it had those: the receiver could not send the rest.
        wait_hang_ups(receiver, 1)
