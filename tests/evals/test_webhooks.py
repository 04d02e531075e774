"""Eval-run webhooks as the official SDK reads them, on both backends: OpenAI's envelope,
verified and parsed by `client.webhooks.unwrap()` with the endpoint's `whsec_` secret."""

from collections.abc import Iterator
from typing import Any

import httpx
import openai
import pytest
from openai.types.webhooks import (
    EvalRunCanceledWebhookEvent,
    EvalRunFailedWebhookEvent,
    EvalRunSucceededWebhookEvent,
)

from tests.evals.helpers import CRITERIA, ROWS, create_eval, grading, wait
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.fixtures.receiver import ReceivedRequest, WebhookReceiver
from tests.webhooks.test_delivery import wait_deliveries

JSONL = {"type": "jsonl", "source": {"type": "file_content", "content": ROWS[:2]}}


class Hooks:
    """A registered receiver and a way to wait for what it got."""

    def __init__(self, api: Api, loupe: httpx.Client, receiver: WebhookReceiver) -> None:
        self.api, self.loupe, self.receiver = api, loupe, receiver
        self.endpoint = loupe.post("/v1/webhook_endpoints", json={"url": receiver.url}).json()

    @property
    def secret(self) -> str:
        return self.endpoint["secret"]

    def first(self) -> ReceivedRequest:
        wait_deliveries(
            self.api, self.loupe, self.endpoint["id"], lambda h: any(d["succeeded"] for d in h)
        )
        return self.receiver.received[0]


@pytest.fixture
def hooks(api: Api, client: openai.OpenAI) -> Iterator[Hooks]:
    auth = {"Authorization": f"Bearer {client.api_key}"}
    with (
        WebhookReceiver() as receiver,
        httpx.Client(base_url=api.base_url, headers=auth, trust_env=False) as loupe,
    ):
        yield Hooks(api, loupe, receiver)


def unwrap(client: openai.OpenAI, hooks: Hooks) -> tuple[Any, dict[str, Any], ReceivedRequest]:
    received = hooks.first()
    event = client.webhooks.unwrap(received.body, received.headers, secret=hooks.secret)
    return event, event.data.to_dict(), received


class TestEnvelope:
    def test_succeeded_unwraps_with_the_sdk(
        self, api: Api, client: openai.OpenAI, hooks: Hooks
    ) -> None:
        ev = create_eval(client, CRITERIA[:1])
        run = client.evals.runs.create(
            ev.id, data_source=JSONL, extra_body={"webhook_url": hooks.receiver.url}
        )  # type: ignore[arg-type]
        final = wait(api, client, ev.id, run.id)
        event, data, received = unwrap(client, hooks)
        assert isinstance(event, EvalRunSucceededWebhookEvent)
        assert (event.type, event.object) == ("eval.run.succeeded", "event")
        # The event id is the one the signature covers.
        assert event.id == received.headers["webhook-id"]
        # Unix seconds, like the signature's timestamp (milliseconds would exceed it).
        assert isinstance(event.created_at, int)
        assert event.created_at <= int(received.headers["webhook-timestamp"])
        assert event.data.id == run.id
        # Loupe's extras ride along in data, timestamps in Unix seconds like the run's.
        assert data["eval_id"] == ev.id and data["status"] == "completed"
        assert data["result_counts"] == final.result_counts.model_dump()
        assert isinstance(data["completed_at"], int) and data["error"] is None

    def test_failed_carries_the_runs_error_code(self, client: openai.OpenAI, hooks: Hooks) -> None:
        ev = create_eval(client, CRITERIA[:1])
        source = {
            "type": "completions",
            "model": "gpt-unknown",
            "source": {"type": "file_content", "content": [{"item": ROWS[0]["item"]}]},
            "input_messages": {
                "type": "template",
                "template": [{"role": "user", "content": "{{ item.question }}"}],
            },
        }
        run = client.evals.runs.create(
            ev.id, data_source=source, extra_body={"webhook_url": hooks.receiver.url}
        )  # type: ignore[arg-type]
        event, data, _ = unwrap(client, hooks)
        assert isinstance(event, EvalRunFailedWebhookEvent) and event.data.id == run.id
        assert data["error"]["code"] == run.error.code == "model_not_found"
        assert data["error"]["message"] == run.error.message

    def test_canceled_unwraps_too(
        self, client: openai.OpenAI, hooks: Hooks, judge: ScriptedJudge
    ) -> None:
        judge.script(grading)
        judge.hold()
        # The hold stays: it is released after the test, once the canceled job has stopped at its
        # held call (released here, the job could make its next call before it sees the cancel).
        ev = create_eval(client, CRITERIA[2:3])
        run = client.evals.runs.create(
            ev.id, data_source=JSONL, extra_body={"webhook_url": hooks.receiver.url}
        )  # type: ignore[arg-type]
        client.evals.runs.cancel(run.id, eval_id=ev.id)
        event, _, _ = unwrap(client, hooks)
        assert isinstance(event, EvalRunCanceledWebhookEvent) and event.data.id == run.id

    def test_a_wrong_secret_is_refused_by_the_sdk(
        self, api: Api, client: openai.OpenAI, hooks: Hooks
    ) -> None:
        ev = create_eval(client, CRITERIA[:1])
        run = client.evals.runs.create(
            ev.id, data_source=JSONL, extra_body={"webhook_url": hooks.receiver.url}
        )  # type: ignore[arg-type]
        wait(api, client, ev.id, run.id)
        received = hooks.first()
        other = "whsec_" + "A" * 43 + "="
        with pytest.raises(openai.InvalidWebhookSignatureError):
            client.webhooks.unwrap(received.body, received.headers, secret=other)
