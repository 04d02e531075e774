"""A create naming a disabled endpoint's URL as its `webhook_url` is refused as disabled, not as
unregistered: the endpoint's id, why it was turned off and how to turn it back on, in one type
and wording whatever takes the URL (evaluations, runs, alignments, online rules' alerts, eval
runs in OpenAI's dialect)."""

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.fixtures.api import Api
from tests.fixtures.receiver import WebhookReceiver
from tests.lifecycle.test_every_kind import given_predictions
from tests.runs.test_endpoints import vqa_dataset
from tests.webhooks.test_delivery import evaluation_body, wait_deliveries

CRITERION = {
    "type": "string_check",
    "name": "exact",
    "operation": "eq",
    "input": "{{ item.answer }}",
    "reference": "{{ item.answer }}",
}
EVAL = {
    "name": "disabled hook",
    "data_source_config": {"type": "custom", "item_schema": {"type": "object"}},
    "testing_criteria": [CRITERION],
}
ROWS = [{"item": {"answer": "4"}}]
CORRECT = {
    "type": "g_eval",
    "name": "correct",
    "criteria": "Is the answer right?",
    "evaluation_params": ["input", "actual_output"],
}


@pytest.fixture
def receiver() -> Iterator[WebhookReceiver]:
    with WebhookReceiver() as server:
        yield server


def disabled(api: Api, client: httpx.Client, receiver: WebhookReceiver) -> dict[str, Any]:
    """The receiver's endpoint, disabled by its answering 410 Gone."""
    endpoint = client.post("/v1/webhook_endpoints", json={"url": receiver.url}).json()
    receiver.answer(410)
    created = client.post("/v1/evaluations", json=evaluation_body(receiver.url))
    assert created.status_code == 202, created.text
    assert api.wait(client, created.json()["id"])["status"] == "completed"
    wait_deliveries(api, client, endpoint["id"], lambda history: len(history) >= 1)
    shown = client.get(f"/v1/webhook_endpoints/{endpoint['id']}").json()
    assert (shown["enabled"], shown["disabled_reason"]) == (
        False,
        "the receiver answered 410 Gone",
    )
    return shown


def refusal(response: httpx.Response, status: int, loc: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    [error] = [error for error in response.json()["errors"] if error["loc"] == loc]
    return error


class TestDisabledWebhookUrl:
    def test_every_create_says_it_is_disabled_why_and_how_to_turn_it_on(
        self, api: Api, receiver: WebhookReceiver
    ) -> None:
        client = api.tenant_client()
        endpoint = disabled(api, client, receiver)
        url = receiver.url
        expected = {
            "type": "disabled_webhook",
            "msg": f"webhook endpoint {endpoint['id']} at this URL is disabled (the receiver "
            "answered 410 Gone); register the URL again with POST /v1/webhook_endpoints to "
            "turn it back on",
        }

        def said(error: dict[str, Any]) -> dict[str, Any]:
            return {"type": error["type"], "msg": error["msg"]}

        evaluation = client.post("/v1/evaluations", json=evaluation_body(url))
        assert said(refusal(evaluation, 422, "webhook_url")) == expected
        run = {**given_predictions(vqa_dataset(client), 1), "metrics": [CORRECT]}
        response = client.post("/v1/runs", json={**run, "webhook_url": url})
        assert said(refusal(response, 422, "webhook_url")) == expected
        alignment = {"metric_version": "mv_0123456789abcdef01234567", "webhook_url": url}
        response = client.post("/v1/alignments", json=alignment)
        assert said(refusal(response, 422, "webhook_url")) == expected
        alert = {"metric": "correct", "threshold": 0.5, "window_hours": 24, "webhook_url": url}
        rule = {"name": "alerting", "sampling": {"rate": 1}, "metrics": [CORRECT], "alert": alert}
        response = client.post("/v1/online_rules", json=rule)
        assert said(refusal(response, 422, "alert.webhook_url")) == expected

        definition = client.post("/v1/evals", json=EVAL)
        assert definition.status_code == 201, definition.text
        source = {"type": "file_content", "content": ROWS}
        body = {"data_source": {"type": "jsonl", "source": source}, "webhook_url": url}
        response = client.post(f"/v1/evals/{definition.json()['id']}/runs", json=body)
        assert said(refusal(response, 400, "webhook_url")) == expected
        assert response.json()["error"]["param"] == "webhook_url"
        assert response.json()["error"]["message"] == f"webhook_url: {expected['msg']}"

        # What the words say works: registered again, the URL is taken.
        assert client.post("/v1/webhook_endpoints", json={"url": url}).status_code == 201
        again = client.post("/v1/evaluations", json=evaluation_body(url))
        assert again.status_code == 202, again.text
