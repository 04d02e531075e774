"""Signed webhook delivery end to end: a loopback receiver, retries, cancel events and 410 Gone.

In distributed mode the test plays the worker: it runs the ticker (`workers.jobs.tick`, which
enqueues due retries) and drains the queue. In embedded mode the API's own ticker and worker
threads do both.
"""

import base64
import json
import logging
import secrets
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select, text
from standardwebhooks import Webhook
from standardwebhooks.webhooks import WebhookVerificationError

from app import crypto, migrate
from app import runtime as runtime_module
from app.config import Settings
from app.db import utcnow
from app.models import WebhookEvent
from app.webhooks import service
from tests.fixtures.api import Api, ServedApp, sqlite_settings
from tests.fixtures.receiver import ReceivedRequest, WebhookReceiver
from workers import jobs


@pytest.fixture
def receiver() -> Iterator[WebhookReceiver]:
    with WebhookReceiver() as server:
        yield server


def evaluation_body(webhook_url: str, cases: int = 3, metrics: int = 1) -> dict[str, Any]:
    return {
        "name": "webhooks",
        "webhook_url": webhook_url,
        "metrics": [{"type": "exact_match", "name": f"exact_{m}"} for m in range(metrics)],
        "test_cases": [
            {
                "id": f"tc-{i}",
                "input": f"question {i}",
                "actual_output": f"answer {i}",
                # Every third case fails, so the counts in the event are not all one kind.
                "expected_output": f"answer {i}" if i % 3 else f"other {i}",
            }
            for i in range(cases)
        ],
    }


def pump(api: Api) -> Callable[[], None]:
    """One round of the work that moves deliveries along in this mode."""

    def step() -> None:
        if api.mode != "distributed":
            return
        # jobs.tick() acts through the process's runtime: it must be this API's.
        assert runtime_module.current() is api.served.runtime
        jobs.tick()
        api.run_queue()

    return step


def wait_deliveries(
    api: Api,
    client: httpx.Client,
    endpoint_id: str,
    done: Callable[[list[dict[str, Any]]], bool],
    timeout: float = 30,
) -> list[dict[str, Any]]:
    """Pump and poll the endpoint's delivery history until `done(history)`; newest first."""
    deadline = time.monotonic() + timeout
    step = pump(api)
    while True:
        response = client.get(f"/v1/webhook_endpoints/{endpoint_id}/deliveries")
        assert response.status_code == 200, response.text
        history = response.json()["data"]
        if done(history):
            return history
        if time.monotonic() > deadline:
            raise AssertionError(f"deliveries to {endpoint_id} never settled: {history}")
        step()
        time.sleep(0.05)


def verified(secret: str, request: ReceivedRequest) -> dict[str, Any]:
    """The request's payload, after checking its Standard Webhooks signature."""
    return Webhook(secret).verify(request.body, request.headers)


def event_status(api: Api, event_id: str) -> str:
    with api.served.runtime.session() as session:
        return session.scalars(select(WebhookEvent.status).where(WebhookEvent.id == event_id)).one()


def assert_finished_first(response: httpx.Response) -> None:
    """A cancel refused because the evaluation had already completed."""
    assert response.status_code == 409, response.text
    assert response.json()["type"].endswith("/evaluation-terminal")


class TestDelivery:
    def test_failed_attempt_is_retried_with_the_same_signed_event(
        self, api: Api, receiver: WebhookReceiver
    ) -> None:
        client = api.tenant_client()
        endpoint = client.post("/v1/webhook_endpoints", json={"url": receiver.url}).json()
        receiver.answer(500, 200)
        created = client.post("/v1/evaluations", json=evaluation_body(receiver.url))
        assert created.status_code == 202, created.text
        assert created.json()["webhook_url"] == receiver.url
        evaluation_id = created.json()["id"]

        final = api.wait(client, evaluation_id)
        assert final["status"] == "completed"
        history = wait_deliveries(
            api, client, endpoint["id"], lambda h: any(d["succeeded"] for d in h)
        )

        requests = receiver.received
        assert len(requests) == 2
        first, second = requests
        assert first.headers["webhook-id"] == second.headers["webhook-id"]
        assert first.headers["webhook-id"].startswith("msg_")
        # The same bytes on every attempt: receivers may de-duplicate on webhook-id alone.
        assert first.body == second.body
        for request in requests:
            assert request.path == receiver.path
            assert request.headers["content-type"] == "application/json"
            assert request.headers["webhook-signature"].startswith("v1,")
            payload = verified(endpoint["secret"], request)
            assert payload == json.loads(request.body)
            assert payload["type"] == "evaluation.completed"
            assert payload["timestamp"]
            assert payload["data"]["id"] == evaluation_id
            assert payload["data"]["status"] == "completed"
            assert payload["data"]["result_counts"] == final["result_counts"]
            assert payload["data"]["result_counts"]["failed"] == 1
            assert payload["data"]["completed_with_errors"] is False
        with pytest.raises(WebhookVerificationError):
            verified("whsec_" + base64.b64encode(secrets.token_bytes(32)).decode(), first)

        assert [(d["attempt"], d["status_code"], d["succeeded"]) for d in history] == [
            (2, 200, True),
            (1, 500, False),
        ]
        assert {d["event_id"] for d in history} == {first.headers["webhook-id"]}
        assert {d["event_type"] for d in history} == {"evaluation.completed"}
        assert history[1]["response_body"] == "scripted 500"
        assert history[1]["error"] is None
        assert event_status(api, first.headers["webhook-id"]) == "delivered"

        # A delivered event is never sent again, however often the ticker runs.
        for _ in range(3):
            pump(api)()
        assert len(receiver.received) == 2

    def test_the_secret_is_stored_encrypted_and_still_signs(
        self, api: Api, receiver: WebhookReceiver
    ) -> None:
        client = api.tenant_client()
        endpoint = client.post("/v1/webhook_endpoints", json={"url": receiver.url}).json()
        secret = endpoint["secret"]
        with api.served.runtime.session() as session:
            row = (
                session.execute(
                    text("SELECT * FROM webhook_endpoint WHERE id = :id"), {"id": endpoint["id"]}
                )
                .mappings()
                .one()
            )
        stored = b"".join(
            value if isinstance(value, bytes) else str(value).encode() for value in row.values()
        )
        # Neither the secret nor its key bytes are in the row: only a Fernet token of them.
        assert b"whsec_" not in stored
        assert secret.removeprefix("whsec_").encode() not in stored
        assert base64.b64decode(secret.removeprefix("whsec_")) not in stored
        assert (
            "secret" not in row and crypto.decrypt(api.settings, row["secret_encrypted"]) == secret
        )

        created = client.post("/v1/evaluations", json=evaluation_body(receiver.url))
        assert created.status_code == 202, created.text
        api.wait(client, created.json()["id"])
        wait_deliveries(api, client, endpoint["id"], lambda h: any(d["succeeded"] for d in h))
        payload = verified(secret, receiver.received[0])
        assert payload["data"]["id"] == created.json()["id"]

    def test_canceled_evaluation_delivers_a_canceled_event(
        self, api: Api, receiver: WebhookReceiver
    ) -> None:
        client = api.tenant_client()
        endpoint = client.post("/v1/webhook_endpoints", json={"url": receiver.url}).json()
        # The embedded worker starts at once: a big evaluation gives the cancel time to land.
        # Should it still finish first, try again with a bigger one.
        canceled = None
        for cases in (2000, 5000, 10_000):
            created = client.post(
                "/v1/evaluations", json=evaluation_body(receiver.url, cases=cases, metrics=5)
            )
            assert created.status_code == 202, created.text
            response = client.post(f"/v1/evaluations/{created.json()['id']}/cancel")
            if response.status_code == 200:
                canceled = response.json()
                break
            assert_finished_first(response)
        assert canceled is not None, "every evaluation completed before its cancel landed"
        assert canceled["status"] == "canceled"
        assert api.wait(client, canceled["id"])["status"] == "canceled"

        def canceled_event_delivered(history: list[dict[str, Any]]) -> bool:
            return any(d["event_type"] == "evaluation.canceled" and d["succeeded"] for d in history)

        history = wait_deliveries(api, client, endpoint["id"], canceled_event_delivered)
        events = [(request, verified(endpoint["secret"], request)) for request in receiver.received]
        mine = [(r, p) for r, p in events if p["data"]["id"] == canceled["id"]]
        assert len(mine) == 1
        request, payload = mine[0]
        assert payload["type"] == "evaluation.canceled"
        assert payload["data"]["status"] == "canceled"
        assert payload["data"]["result_counts"]["total"] == canceled["result_counts"]["total"]
        # Moments as the API writes them (`Z`), the evaluation's own among them.
        assert (
            payload["data"]["completed_at"]
            == client.get(f"/v1/evaluations/{canceled['id']}").json()["completed_at"]
        )
        assert payload["timestamp"].endswith("Z") and payload["data"]["completed_at"].endswith("Z")
        canceled_attempts = [d for d in history if d["event_type"] == "evaluation.canceled"]
        assert len(canceled_attempts) == 1
        assert canceled_attempts[0]["event_id"] == request.headers["webhook-id"]
        # Evaluations that finished before their cancel sent their own (completed) event.
        for _, other in events:
            if other["data"]["id"] != canceled["id"]:
                assert other["type"] == "evaluation.completed"

    def test_gone_disables_the_endpoint(self, api: Api, receiver: WebhookReceiver) -> None:
        client = api.tenant_client()
        endpoint = client.post("/v1/webhook_endpoints", json={"url": receiver.url}).json()
        receiver.answer(410)
        created = client.post("/v1/evaluations", json=evaluation_body(receiver.url))
        assert created.status_code == 202, created.text
        assert api.wait(client, created.json()["id"])["status"] == "completed"

        history = wait_deliveries(api, client, endpoint["id"], lambda h: len(h) >= 1)
        assert [(d["attempt"], d["status_code"], d["succeeded"]) for d in history] == [
            (1, 410, False)
        ]
        (request,) = receiver.received
        assert verified(endpoint["secret"], request)["type"] == "evaluation.completed"
        assert event_status(api, history[0]["event_id"]) == "failed"
        listed = client.get("/v1/webhook_endpoints").json()["data"]
        assert [(e["id"], e["enabled"]) for e in listed] == [(endpoint["id"], False)]
        # The read says why it is off, and since when it failed (its one attempt).
        assert listed[0]["disabled_reason"] == "the receiver answered 410 Gone"
        assert listed[0]["failing_since"] == history[0]["attempted_at"]
        # Turned off by the system, on the record: the team's admins can see why events stopped.
        trail = client.get("/v1/audit_events", params={"object_id": endpoint["id"]}).json()
        assert [e["action"] for e in trail["data"]] == [
            "webhook_endpoint.disable",
            "webhook_endpoint.create",
        ]
        assert trail["data"][0]["actor"] == "system"
        assert trail["data"][0]["details"] == {
            "url": receiver.url,
            "reason": "the receiver answered 410 Gone",
            "status_code": 410,
        }

        # No retry follows a 410, and a disabled endpoint takes no new evaluations.
        for _ in range(3):
            pump(api)()
        assert len(receiver.received) == 1
        refused = client.post("/v1/evaluations", json=evaluation_body(receiver.url))
        assert refused.status_code == 422, refused.text
        assert [e["loc"] for e in refused.json()["errors"]] == ["webhook_url"]

    @pytest.mark.parametrize("api", ["embedded"], indirect=True)
    def test_an_endpoint_deleted_during_an_attempt_ends_it_quietly(
        self, api: Api, receiver: WebhookReceiver, log_records: list[logging.LogRecord]
    ) -> None:
        """The attempt's event went with its endpoint while the receiver answered: the job
        says so, without a traceback (it failed writing the attempt to a deleted event)."""
        client = api.tenant_client()
        endpoint = client.post("/v1/webhook_endpoints", json={"url": receiver.url}).json()
        receiver.hold()
        created = client.post("/v1/evaluations", json=evaluation_body(receiver.url))
        assert api.wait(client, created.json()["id"])["status"] == "completed"
        receiver.wait_for(1)
        deleted = client.delete(f"/v1/webhook_endpoints/{endpoint['id']}")
        assert deleted.status_code == 204, deleted.text
        receiver.release()
        deadline = time.monotonic() + 30
        while not [r for r in log_records if "went with its endpoint" in r.getMessage()]:
            assert time.monotonic() < deadline, [r.getMessage() for r in log_records]
            time.sleep(0.05)
        assert not [r.getMessage() for r in log_records if r.levelno >= logging.WARNING]
        assert client.get("/v1/webhook_endpoints").json()["data"] == []

    def test_registering_a_disabled_url_again_turns_it_back_on(
        self, api: Api, receiver: WebhookReceiver
    ) -> None:
        client = api.tenant_client()
        endpoint = client.post("/v1/webhook_endpoints", json={"url": receiver.url}).json()
        receiver.answer(410, 200)
        first = client.post("/v1/evaluations", json=evaluation_body(receiver.url)).json()
        api.wait(client, first["id"])
        wait_deliveries(api, client, endpoint["id"], lambda h: len(h) >= 1)
        disabled = client.get("/v1/webhook_endpoints").json()["data"][0]
        assert (disabled["enabled"], disabled["disabled_reason"]) == (
            False,
            "the receiver answered 410 Gone",
        )
        assert disabled["failing_since"] is not None

        response = client.post("/v1/webhook_endpoints", json={"url": receiver.url})
        assert response.status_code == 201, response.text
        again = response.json()
        # The same endpoint (its history stays), on again, with a new secret and a clean slate.
        assert again["id"] == endpoint["id"]
        assert again["enabled"] is True
        assert (again["failing_since"], again["disabled_reason"]) == (None, None)
        assert again["secret"] != endpoint["secret"]
        listed = client.get("/v1/webhook_endpoints").json()["data"]
        assert [(e["id"], e["enabled"]) for e in listed] == [(endpoint["id"], True)]

        second = client.post("/v1/evaluations", json=evaluation_body(receiver.url))
        assert second.status_code == 202, second.text
        api.wait(client, second.json()["id"])
        history = wait_deliveries(api, client, endpoint["id"], lambda h: len(h) >= 2)
        assert [(d["status_code"], d["succeeded"]) for d in history] == [(200, True), (410, False)]
        latest = receiver.received[-1]
        payload = verified(again["secret"], latest)
        assert payload["data"]["id"] == second.json()["id"]
        with pytest.raises(WebhookVerificationError):
            verified(endpoint["secret"], latest)


class TestCompletedWithErrors:
    def test_the_completed_event_says_results_errored(
        self, api: Api, receiver: WebhookReceiver
    ) -> None:
        # An evaluation whose results errored was announced as plainly `completed`.
        client = api.tenant_client()
        endpoint = client.post("/v1/webhook_endpoints", json={"url": receiver.url}).json()
        body = evaluation_body(receiver.url)
        body["metrics"] = [{"type": "bleu"}]
        # Past BLEU's 4,096 tokens a side: an errored result (input_too_long), no judge needed.
        body["test_cases"][0]["actual_output"] = "word " * 5000
        created = client.post("/v1/evaluations", json=body)
        assert created.status_code == 202, created.text
        final = api.wait(client, created.json()["id"])
        assert final["status"] == "completed" and final["completed_with_errors"] is True
        wait_deliveries(api, client, endpoint["id"], lambda h: any(d["succeeded"] for d in h))
        (request,) = receiver.received
        payload = verified(endpoint["secret"], request)
        assert payload["type"] == "evaluation.completed"
        assert payload["data"]["status"] == "completed"
        assert payload["data"]["completed_with_errors"] is True
        assert payload["data"]["result_counts"]["errored"] == 1


class TestRetries:
    def test_default_schedule_spans_a_day_with_the_least_jitter(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        settings = Settings(_env_file=None)  # type: ignore[call-arg]
        # Every wait drawn at the low end of its jitter.
        monkeypatch.setattr(service.random, "uniform", lambda low, high: min(low, high))
        attempts = len(settings.webhook_retry_schedule) + 1
        waited = timedelta()
        for attempt in range(1, attempts):
            before = utcnow()
            next_attempt = service._next_attempt(settings, attempt)
            assert next_attempt is not None
            waited += next_attempt - before
        assert waited >= timedelta(days=1)
        # After the last scheduled wait the event is given up.
        assert service._next_attempt(settings, attempts) is None

    def test_receiver_timing_out_is_a_failed_attempt_then_retried(
        self, tmp_path: Path, receiver: WebhookReceiver
    ) -> None:
        settings = sqlite_settings(tmp_path, webhook_timeout_seconds=0.5)
        migrate.upgrade(settings)
        # The first answer comes long after Loupe stopped waiting; the retry's comes at once.
        receiver.delay(10, 0)
        # Serving makes this app's runtime the process's current one; the session's `api` app
        # runs jobs through it, so put it back afterwards.
        previous = runtime_module._current
        try:
            with ServedApp(settings) as served:
                api = Api(mode="embedded", served=served)
                client = api.tenant_client()
                endpoint = client.post("/v1/webhook_endpoints", json={"url": receiver.url}).json()
                created = client.post("/v1/evaluations", json=evaluation_body(receiver.url))
                assert created.status_code == 202, created.text
                assert api.wait(client, created.json()["id"])["status"] == "completed"
                history = wait_deliveries(
                    api, client, endpoint["id"], lambda h: any(d["succeeded"] for d in h)
                )
                event_id = history[0]["event_id"]
                assert event_status(api, event_id) == "delivered"
        finally:
            runtime_module._current = previous

        first, *_, last = reversed(history)
        assert (first["attempt"], first["succeeded"], first["status_code"]) == (1, False, None)
        assert "Timeout" in first["error"]
        assert (last["succeeded"], last["status_code"]) == (True, 200)
        requests = receiver.received
        assert len(requests) == len(history) >= 2
        assert {r.headers["webhook-id"] for r in requests} == {event_id}
        assert verified(endpoint["secret"], requests[-1])["type"] == "evaluation.completed"
