"""LOUPE_RETENTION_DAYS reaches webhook events too: an event's body is a copy of its
evaluation's name, metadata and counts, so a finished event (delivered or given up) older than
the setting goes with its delivery attempts, as its evaluation does. An event still owed to
its receiver stays, and so does every endpoint."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import func, select

from app.models import WebhookDelivery, WebhookEvent
from tests.fixtures.api import Api, side_app
from tests.fixtures.receiver import WebhookReceiver
from tests.webhooks.test_delivery import evaluation_body, wait_deliveries
from workers.jobs import tick


@pytest.fixture
def receivers() -> Iterator[tuple[WebhookReceiver, WebhookReceiver]]:
    with WebhookReceiver() as answering, WebhookReceiver() as failing:
        yield answering, failing


def rows_naming(app: Api, text: str) -> dict[str, int]:
    """Webhook events whose body holds `text`, and their delivery attempts."""
    with app.served.runtime.session() as session:
        events = select(WebhookEvent.id).where(WebhookEvent.payload.contains(text))
        return {
            "webhook_event": session.scalar(select(func.count()).select_from(events.subquery())),
            "webhook_delivery": session.scalar(
                select(func.count()).where(WebhookDelivery.event_id.in_(events))
            ),
        }


class TestRetention:
    def test_finished_events_go_with_their_attempts_owed_ones_stay(
        self, tmp_path: Path, receivers: tuple[WebhookReceiver, WebhookReceiver]
    ) -> None:
        answering, failing = receivers
        failing.answer(500)
        # A millisecond: everything finished before the tick is past it. The app's own ticker
        # waits an hour (so does the failing receiver's retry): the explicit tick is the one.
        with (
            side_app(
                tmp_path,
                retention_days=0.001 / 86400,
                tick_seconds=3600,
                webhook_retry_schedule=[3600],
            ) as app,
            app.tenant_client() as client,
        ):
            endpoints = {
                receiver.url: client.post(
                    "/v1/webhook_endpoints", json={"url": receiver.url}
                ).json()["id"]
                for receiver in (answering, failing)
            }
            names = {}
            for receiver in (answering, failing):
                body = {**evaluation_body(receiver.url), "name": f"secret-project-{receiver.path}"}
                created = client.post("/v1/evaluations", json=body)
                assert created.status_code == 202, created.text
                app.wait(client, created.json()["id"])
                wait_deliveries(app, client, endpoints[receiver.url], lambda h: len(h) == 1)
                names[receiver.url] = body["name"]
            assert rows_naming(app, names[answering.url]) == {
                "webhook_event": 1,
                "webhook_delivery": 1,
            }

            tick(app.served.runtime)

            # The delivered event named an evaluation retention deleted: it is gone too.
            assert rows_naming(app, names[answering.url]) == {
                "webhook_event": 0,
                "webhook_delivery": 0,
            }
            history = client.get(f"/v1/webhook_endpoints/{endpoints[answering.url]}/deliveries")
            assert history.json()["data"] == []
            # One still owed to its receiver stays with its attempt, for its next retry.
            assert rows_naming(app, names[failing.url]) == {
                "webhook_event": 1,
                "webhook_delivery": 1,
            }
            history = client.get(f"/v1/webhook_endpoints/{endpoints[failing.url]}/deliveries")
            assert [d["status_code"] for d in history.json()["data"]] == [500]
            listed = client.get("/v1/webhook_endpoints").json()["data"]
            assert {e["id"] for e in listed} == set(endpoints.values())

    def test_kept_while_retention_is_unset(self, api: Api) -> None:
        assert api.settings.retention_days is None
        with WebhookReceiver() as receiver, api.tenant_client() as client:
            endpoint = client.post("/v1/webhook_endpoints", json={"url": receiver.url}).json()
            created = client.post("/v1/evaluations", json=evaluation_body(receiver.url))
            assert created.status_code == 202, created.text
            api.wait(client, created.json()["id"])
            wait_deliveries(api, client, endpoint["id"], lambda h: len(h) == 1)
            tick(api.served.runtime)
            history = client.get(f"/v1/webhook_endpoints/{endpoint['id']}/deliveries")
            assert [d["succeeded"] for d in history.json()["data"]] == [True]
