"""A rule's alert (issue 26 item 6): a Standard Webhooks `online_rule.alert` when a metric's
pass rate over a window is below the rule's threshold with confidence (the upper bound of its
Wilson interval), once per episode, and `online_rule.alert_resolved` once it is not. Spans go in
through POST /v1/traces, the scripted judge fails or passes them, the ticker checks the rollups
and a loopback receiver gets the signed events."""

import itertools
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from standardwebhooks import Webhook

from app.online import alerts
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.fixtures.receiver import ReceivedRequest, WebhookReceiver
from tests.online.test_receiver import judged_results, make_rule, semconv_span
from tests.online.test_trend import CORRECT, score_by_question
from tests.test_problems import locs, problem
from workers import jobs

# `question N` is scored N out of 10 (tests/online/test_trend.py): 1 fails, 9 passes.
FAIL, PASS = 1, 9
_spans = itertools.count(1)


@pytest.fixture
def receiver() -> Iterator[WebhookReceiver]:
    with WebhookReceiver() as server:
        yield server


def register(client: httpx.Client, receiver: WebhookReceiver) -> str:
    """Register the receiver as a webhook endpoint; its signing secret."""
    response = client.post("/v1/webhook_endpoints", json={"url": receiver.url})
    assert response.status_code == 201, response.text
    return response.json()["secret"]


def alert_of(receiver: WebhookReceiver, **changes: Any) -> dict[str, Any]:
    return {
        "metric": "correct",
        "threshold": 0.5,
        "window_hours": 24,
        "webhook_url": receiver.url,
        **changes,
    }


def send(client: httpx.Client, *numbers: int) -> None:
    """One traced call per number, each in a trace of its own, scored that number out of 10."""
    spans = []
    for number in numbers:
        n = next(_spans)
        spans.append(semconv_span(f"{n:016x}", "shop", f"question {number}", trace_id=f"{n:032x}"))
    response = client.post("/v1/traces", json={"resourceSpans": spans})
    assert response.status_code == 200, response.text


def tick(api: Api) -> None:
    """What the ticker does: distributed, the worker's ticker (run here) and the queue; the
    embedded app ticks by itself, and one more check does no harm."""
    if api.redis is not None:
        jobs.tick()
        api.run_queue()
    else:
        alerts.check_all(api.served.runtime)


def events(requests: list[ReceivedRequest], secret: str) -> list[dict[str, Any]]:
    """The received bodies, each checked against its Standard Webhooks signature."""
    verifier = Webhook(secret)
    return [verifier.verify(request.body, request.headers) for request in requests]


class TestAlerts:
    def test_a_confident_drop_alerts_once_and_its_recovery_resolves_once(
        self, api: Api, judge: ScriptedJudge, receiver: WebhookReceiver
    ) -> None:
        judge.script(score_by_question)
        client = api.tenant_client()
        secret = register(client, receiver)
        rule = make_rule(client, name="shop answers", metrics=[CORRECT], alert=alert_of(receiver))
        assert rule["alert"] == {**alert_of(receiver), "firing_since": None}
        path = f"/v1/online_rules/{rule['id']}"

        # Three failed calls out of three leave the upper bound above 0.5; the fourth does not.
        send(client, FAIL, FAIL, FAIL, FAIL)
        judged_results(api, client, rule["id"], 4)
        [request] = receiver.wait_for(1, pump=lambda: tick(api))
        [event] = events([request], secret)
        assert event["type"] == "online_rule.alert"
        data = event["data"]
        assert data["rule_id"] == rule["id"] and data["rule_name"] == "shop answers"
        assert data["metric"] == "correct" and data["threshold"] == 0.5
        assert data["window_hours"] == 24
        assert (data["count"], data["passed"], data["failed"]) == (4, 0, 4)
        assert data["pass_rate"] == 0
        low, high = data["pass_rate_ci95"]
        assert low == 0 and high < 0.5
        firing_since = client.get(path).json()["alert"]["firing_since"]
        assert firing_since is not None and data["since"] == firing_since

        # The same alert sent again (a client PATCHing its whole rule) keeps its episode.
        same = client.patch(path, json={"alert": alert_of(receiver)})
        assert same.status_code == 200 and same.json()["alert"]["firing_since"] == firing_since

        # More failures and more ticks: the same episode, nothing sent again.
        send(client, FAIL, FAIL)
        judged_results(api, client, rule["id"], 6)
        for _ in range(3):
            tick(api)
        assert client.get(path).json()["alert"]["firing_since"] == firing_since

        # Passing calls lift the upper bound back over the threshold: resolved, once.
        send(client, PASS, PASS, PASS)
        judged_results(api, client, rule["id"], 9)
        receiver.wait_for(2, pump=lambda: tick(api))
        for _ in range(3):
            tick(api)
        received = events(receiver.received, secret)
        assert [each["type"] for each in received] == [
            "online_rule.alert",
            "online_rule.alert_resolved",
        ]
        resolved = received[1]["data"]
        assert resolved["since"] == data["since"] and resolved["resolved_at"]
        assert resolved["passed"] >= 1 and resolved["failed"] == 6
        assert resolved["pass_rate_ci95"][1] >= 0.5
        assert client.get(path).json()["alert"]["firing_since"] is None
        # The events are the endpoint's deliveries, one each.
        endpoint_id = client.get("/v1/webhook_endpoints").json()["data"][0]["id"]
        deliveries = client.get(f"/v1/webhook_endpoints/{endpoint_id}/deliveries").json()["data"]
        assert sorted(each["event_type"] for each in deliveries) == [
            "online_rule.alert",
            "online_rule.alert_resolved",
        ]

    def test_one_bad_call_among_few_does_not_alert(
        self, api: Api, judge: ScriptedJudge, receiver: WebhookReceiver
    ) -> None:
        judge.script(score_by_question)
        client = api.tenant_client()
        register(client, receiver)
        # A pass rate of 2/3 is below 0.9, but three calls cannot tell it from 0.94.
        rule = make_rule(client, metrics=[CORRECT], alert=alert_of(receiver, threshold=0.9))
        send(client, FAIL)
        judged_results(api, client, rule["id"], 1)
        tick(api)
        send(client, PASS, PASS)
        judged_results(api, client, rule["id"], 3)
        for _ in range(3):
            tick(api)
        assert client.get(f"/v1/online_rules/{rule['id']}").json()["alert"]["firing_since"] is None
        assert receiver.received == []
        trend = client.get(f"/v1/online_rules/{rule['id']}/trend").json()
        [point] = trend["metrics"][0]["points"]
        assert (point["passed"], point["failed"]) == (2, 1)
        assert point["pass_rate_ci95"][1] >= 0.9


class TestAlertChecks:
    def test_every_problem_of_an_alert_is_named_in_one_answer(
        self, api: Api, receiver: WebhookReceiver
    ) -> None:
        client = api.tenant_client()
        body = {
            "name": "bad alert",
            "sampling": {"rate": 1},
            "metrics": [CORRECT],
            "alert": {
                "metric": "missing",
                "threshold": 1.5,
                "window_hours": 169,
                "webhook_url": receiver.url,
            },
        }
        answer = problem(client.post("/v1/online_rules", json=body), 422)
        assert sorted(locs(answer)) == [
            "alert.metric",
            "alert.threshold",
            "alert.webhook_url",
            "alert.window_hours",
        ]
        types = {error["loc"]: error["type"] for error in answer["errors"]}
        assert types["alert.metric"] == "unknown_metric"
        assert types["alert.webhook_url"] == "unregistered_webhook"

        # Only what the schema cannot see: still one answer naming both.
        body["alert"] = {**body["alert"], "threshold": 0.5, "window_hours": 0.5}
        answer = problem(client.post("/v1/online_rules", json=body), 422)
        assert sorted(locs(answer)) == ["alert.metric", "alert.webhook_url", "alert.window_hours"]
        body["alert"] = {**body["alert"], "window_hours": 1}
        answer = problem(client.post("/v1/online_rules", json=body), 422)
        assert sorted(locs(answer)) == ["alert.metric", "alert.webhook_url"]

        missing = {"metric": "correct", "threshold": 0.5, "window_hours": 1, "extra": 1}
        answer = problem(client.post("/v1/online_rules", json={**body, "alert": missing}), 422)
        assert sorted(locs(answer)) == ["alert.extra", "alert.webhook_url"]

    def test_an_alert_is_set_changed_kept_and_removed(
        self, api: Api, receiver: WebhookReceiver
    ) -> None:
        client = api.tenant_client()
        register(client, receiver)
        rule = make_rule(client, metrics=[CORRECT])
        assert rule["alert"] is None
        path = f"/v1/online_rules/{rule['id']}"

        changed = client.patch(path, json={"alert": alert_of(receiver, window_hours=168)})
        assert changed.status_code == 200, changed.text
        expected = {**alert_of(receiver, window_hours=168), "firing_since": None}
        assert changed.json()["alert"] == expected
        assert client.get(path).json()["alert"] == expected

        # Metrics without the alert's metric: refused, naming the kept alert's metric.
        other = {**CORRECT, "name": "other"}
        answer = problem(client.patch(path, json={"metrics": [other]}), 422)
        assert locs(answer) == ["alert.metric"]
        kept = client.patch(path, json={"metrics": [CORRECT, other], "sampling": {"rate": 0.5}})
        assert kept.status_code == 200, kept.text
        assert kept.json()["alert"] == expected

        # An alert naming an endpoint not registered by this tenant: refused.
        stranger = api.tenant_client()
        answer = problem(stranger.post("/v1/online_rules", json=_with_alert(receiver)), 422)
        assert locs(answer) == ["alert.webhook_url"]

        removed = client.patch(path, json={"alert": None})
        assert removed.status_code == 200 and removed.json()["alert"] is None
        assert client.get(path).json()["alert"] is None

    def test_a_change_failing_its_schema_still_has_its_alert_checked(
        self, api: Api, receiver: WebhookReceiver
    ) -> None:
        client = api.tenant_client()
        created = client.post(
            "/v1/online_rules",
            json={"name": "to change", "sampling": {"rate": 1}, "metrics": [CORRECT]},
        )
        assert created.status_code == 201, created.text
        change = {
            "sampling": {"rate": 5},
            "alert": {
                "metric": "missing",
                "threshold": 0.5,
                "window_hours": 1,
                "webhook_url": receiver.url,
            },
        }
        answer = problem(client.patch(f"/v1/online_rules/{created.json()['id']}", json=change), 422)
        assert {"sampling.rate", "alert.metric"} <= set(locs(answer)), answer


def _with_alert(receiver: WebhookReceiver) -> dict[str, Any]:
    return {
        "name": "stranger",
        "sampling": {"rate": 1},
        "metrics": [CORRECT],
        "alert": alert_of(receiver),
    }
