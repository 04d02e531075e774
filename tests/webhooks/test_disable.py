"""An endpoint whose attempts all fail for LOUPE_WEBHOOK_DISABLE_AFTER_HOURS is disabled as a
410 Gone disables one: through the real API, against a loopback receiver answering 500 or an
address refusing connections, with the window set to seconds (a fraction of an hour)."""

import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any

import httpx
import pytest
from redis import Redis

from app.db import utcnow
from tests.audit.helpers import events
from tests.console.helpers import signed_in
from tests.fixtures.api import Api, postgres_settings, served_api, side_app
from tests.fixtures.receiver import WebhookReceiver
from tests.webhooks.test_delivery import evaluation_body, event_status, pump

# 1.8 s: long enough for a failed attempt and its successful retry (0.2 s apart) to fall
# within it, short enough for a test.
WINDOW_HOURS = 0.0005
WINDOW = timedelta(hours=WINDOW_HOURS)
# A retry every 0.2 s for about 20 s: an event outlives the window many times over.
SCHEDULE = [0.2] * 100
DISABLED = "endpoint is disabled"


@pytest.fixture(params=["embedded", "distributed"])
def mode(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@contextmanager
def app_with(request: pytest.FixtureRequest, mode: str, **overrides: Any) -> Iterator[Api]:
    """An app of its own in `mode`, retrying on SCHEDULE, with `overrides` on the settings."""
    values = {"webhook_retry_schedule": SCHEDULE, **overrides}
    if mode == "embedded":
        with side_app(request.getfixturevalue("tmp_path"), **values) as app:
            yield app
        return
    redis_server = request.getfixturevalue("redis_server")
    settings = postgres_settings(request.getfixturevalue("postgres_server"), redis_server, **values)
    redis = Redis.from_url(redis_server.url)
    try:
        with served_api(settings, redis) as app:
            yield app
    finally:
        redis.close()


@contextmanager
def refusing() -> Iterator[str]:
    """A loopback URL whose port is bound and not listening: every connection is refused."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/hooks/gone-for-good"


def moment(text: str) -> datetime:
    return datetime.fromisoformat(text)


def register(client: httpx.Client, url: str) -> dict[str, Any]:
    response = client.post("/v1/webhook_endpoints", json={"url": url})
    assert response.status_code == 201, response.text
    return response.json()


def completed(api: Api, client: httpx.Client, body: dict[str, Any]) -> dict[str, Any]:
    created = client.post("/v1/evaluations", json=body)
    assert created.status_code == 202, created.text
    final = api.wait(client, created.json()["id"])
    assert final["status"] == "completed", final
    return final


def deliveries(client: httpx.Client, endpoint_id: str) -> list[dict[str, Any]]:
    """Every attempt recorded for the endpoint, oldest first."""
    found: list[dict[str, Any]] = []
    params: dict[str, Any] = {"limit": 100}
    while True:
        response = client.get(f"/v1/webhook_endpoints/{endpoint_id}/deliveries", params=params)
        assert response.status_code == 200, response.text
        page = response.json()
        found.extend(page["data"])
        if not page["has_more"]:
            return list(reversed(found))
        params["after"] = page["last_id"]


def wait_until(api: Api, look: Any, timeout: float = 60) -> Any:
    """Pump deliveries along until `look()` answers something true; returns it."""
    deadline = time.monotonic() + timeout
    step = pump(api)
    while not (found := look()):
        assert time.monotonic() < deadline, "never happened"
        step()
        time.sleep(0.05)
    return found


def read(client: httpx.Client, endpoint_id: str) -> dict[str, Any]:
    response = client.get(f"/v1/webhook_endpoints/{endpoint_id}")
    assert response.status_code == 200, response.text
    return response.json()


def once_disabled(client: httpx.Client, endpoint_id: str) -> dict[str, Any] | None:
    """The endpoint's read once it is disabled, else None."""
    shown = read(client, endpoint_id)
    return None if shown["enabled"] else shown


def made(history: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The attempts that went out (not those refused for the endpoint being disabled)."""
    return [d for d in history if d["error"] != DISABLED]


class TestDisabledAfterFailingContinuously:
    @pytest.mark.parametrize("failure", ["answers 500", "refuses connections"])
    def test_failing_past_the_window_disables_it_as_a_410_does(
        self, request: pytest.FixtureRequest, mode: str, failure: str
    ) -> None:
        receiver = WebhookReceiver().start() if failure == "answers 500" else None
        try:
            with (
                app_with(request, mode, webhook_disable_after_hours=WINDOW_HOURS) as api,
                refusing() as refused_url,
            ):
                url = receiver.url if receiver is not None else refused_url
                if receiver is not None:
                    receiver.answer(500)
                self.check_disabled(api, url, receiver, failure)
        finally:
            if receiver is not None:
                receiver.stop()

    def check_disabled(
        self, api: Api, url: str, receiver: WebhookReceiver | None, failure: str
    ) -> None:
        key = api.new_key()
        client = api.client(key)
        endpoint = register(client, url)
        assert (endpoint["failing_since"], endpoint["disabled_reason"]) == (None, None)
        # Submitted while the endpoint is on, completed once it is off: its event comes later.
        later = client.post("/v1/evaluations", json={**evaluation_body(url, cases=1), "open": True})
        assert later.status_code == 202, later.text
        completed(api, client, evaluation_body(url))

        shown = wait_until(api, lambda: once_disabled(client, endpoint["id"]))
        history = deliveries(client, endpoint["id"])
        attempts = made(history)
        assert attempts and not any(d["succeeded"] for d in history)
        since = shown["failing_since"]
        # Failing since the first failed attempt; disabled by the first past the window.
        assert since == attempts[0]["attempted_at"]
        assert moment(attempts[-1]["attempted_at"]) - moment(since) >= WINDOW
        reason = (
            f"failed continuously since {since}, longer than LOUPE_WEBHOOK_DISABLE_AFTER_HOURS "
            f"({WINDOW_HOURS:g} h)"
        )
        assert shown["disabled_reason"] == reason
        if receiver is not None:
            assert {d["status_code"] for d in attempts} == {500}
        else:
            assert {d["status_code"] for d in attempts} == {None}
            assert all(d["error"].startswith("ConnectError") for d in attempts), attempts

        # On the record as a 410's disable is: the system's, naming the URL, with the reason.
        trail = events(client, object_id=endpoint["id"])
        assert [e["action"] for e in trail] == [
            "webhook_endpoint.disable",
            "webhook_endpoint.create",
        ]
        disable = trail[0]
        assert disable["actor"] == "system"
        last = disable["details"]["last_attempt"]
        assert last == "HTTP 500" if receiver is not None else last.startswith("ConnectError")
        assert disable["details"] == {
            "url": url,
            "reason": reason,
            "failing_since": since,
            "last_attempt": last,
        }
        assert moment(disable["at"]) - moment(since) >= WINDOW

        # Events pending for it, and those that come later, are not attempted again.
        first_events = {d["event_id"] for d in history}
        for event_id in first_events:
            wait_until(api, lambda event_id=event_id: event_status(api, event_id) == "failed")
        closed = client.post(f"/v1/evaluations/{later.json()['id']}/close")
        assert closed.status_code == 200, closed.text
        assert api.wait(client, later.json()["id"])["status"] == "completed"

        def later_events() -> list[dict[str, Any]]:
            found = deliveries(client, endpoint["id"])
            return [d for d in found if d["event_id"] not in first_events]

        new = wait_until(api, later_events)
        assert [(d["attempt"], d["status_code"], d["succeeded"], d["error"]) for d in new] == [
            (1, None, False, DISABLED)
        ]
        wait_until(api, lambda: event_status(api, new[0]["event_id"]) == "failed")
        for _ in range(5):
            pump(api)()
        settled = deliveries(client, endpoint["id"])
        assert made(settled) == attempts
        if receiver is not None:
            assert len(receiver.received) == len(attempts)
        refused = client.post("/v1/evaluations", json=evaluation_body(url))
        assert refused.status_code == 422, refused.text
        assert [e["loc"] for e in refused.json()["errors"]] == ["webhook_url"]

        # The console's Webhooks page says since when it failed and why it is off.
        page = signed_in(api, key).get("/console/webhooks")
        assert page.status_code == 200, page.text
        assert url in page.text and f"disabled: {reason}" in page.text
        assert f'datetime="{moment(since).isoformat()}"' in page.text

        # Registering its URL again turns it back on with a clean slate.
        again = register(client, url)
        assert again["id"] == endpoint["id"]
        assert (again["enabled"], again["failing_since"], again["disabled_reason"]) == (
            True,
            None,
            None,
        )
        assert read(client, endpoint["id"]) == {
            name: value for name, value in again.items() if name != "secret"
        }

    def test_a_success_starts_the_clock_again(
        self, request: pytest.FixtureRequest, mode: str
    ) -> None:
        with (
            app_with(request, mode, webhook_disable_after_hours=WINDOW_HOURS) as api,
            WebhookReceiver() as receiver,
        ):
            client = api.tenant_client()
            endpoint = register(client, receiver.url)
            receiver.answer(500, 200, 500)
            completed(api, client, evaluation_body(receiver.url))
            first = wait_until(
                api,
                lambda: (h := deliveries(client, endpoint["id"])) and h[-1]["succeeded"] and h,
            )
            assert [(d["attempt"], d["status_code"]) for d in first] == [(1, 500), (2, 200)]
            assert read(client, endpoint["id"])["failing_since"] is None

            # Wait past the window from the first failure: counted from it, the next failure
            # would disable the endpoint at once.
            while utcnow() - moment(first[0]["attempted_at"]) <= WINDOW:
                time.sleep(0.05)
            completed(api, client, evaluation_body(receiver.url))

            def later_attempts() -> list[dict[str, Any]]:
                found = deliveries(client, endpoint["id"])[2:]
                return found if len(found) >= 2 else []

            # The first failure after the success is not the last: it is retried.
            later = wait_until(api, later_attempts)
            assert [(d["attempt"], d["status_code"]) for d in later[:2]] == [(1, 500), (2, 500)]
            shown = read(client, endpoint["id"])
            assert shown["failing_since"] == later[0]["attempted_at"]

            # Disabled in the end, counting from that failure.
            shown = wait_until(api, lambda: once_disabled(client, endpoint["id"]))
            assert shown["failing_since"] == later[0]["attempted_at"]
            assert shown["disabled_reason"].startswith(
                f"failed continuously since {later[0]['attempted_at']}, "
            )

    def test_zero_never_disables(self, request: pytest.FixtureRequest, mode: str) -> None:
        with (
            app_with(
                request,
                mode,
                webhook_disable_after_hours=0,
                webhook_retry_schedule=[0.2] * 5,
            ) as api,
            WebhookReceiver() as receiver,
        ):
            receiver.answer(500)
            client = api.tenant_client()
            endpoint = register(client, receiver.url)
            completed(api, client, evaluation_body(receiver.url))
            # Every attempt fails until the event is given up, after its last scheduled retry.
            event_id = wait_until(api, lambda: deliveries(client, endpoint["id"]))[0]["event_id"]
            wait_until(api, lambda: event_status(api, event_id) == "failed")
            history = deliveries(client, endpoint["id"])
            assert [(d["attempt"], d["status_code"]) for d in history] == [
                (n, 500) for n in range(1, 7)
            ]
            shown = read(client, endpoint["id"])
            assert (shown["enabled"], shown["disabled_reason"]) == (True, None)
            assert shown["failing_since"] == history[0]["attempted_at"]
            assert [e["action"] for e in events(client, object_id=endpoint["id"])] == [
                "webhook_endpoint.create"
            ]
            # Still on: it takes new evaluations, and their events are attempted.
            completed(api, client, evaluation_body(receiver.url))
            wait_until(api, lambda: len(receiver.received) > 6)
