"""A conversation's id evicted by the SDK's attribute limit. OpenInference writes a few
attributes per message, and the SDK keeps 128 a span, evicting the oldest first: the
`session.id` that `using_session` (or a processor's `gen_ai.conversation.id`) set as the span
started goes once a conversation reaches some ten exchanges. The rule cannot place such a call,
and says why (`conversation_id_dropped`, not `no_conversation_id`: the application did name
its conversation), so the team knows to raise OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT."""

import pytest
from openinference.instrumentation import using_session

from tests.console.helpers import signed_in
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.online.test_conversation_target import TURN_RELEVANCY, counts, model_and_turns
from tests.online.test_receiver import make_rule
from tests.otlp.capture import Receiver, ask_text, instrumented


def test_a_call_whose_conversation_id_was_evicted_is_counted_so(
    api: Api, judge: ScriptedJudge, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = api.new_key()
    client = api.client(key)
    rule = make_rule(
        client,
        name="chats",
        target="conversation",
        metrics=[TURN_RELEVANCY],
        filter=[{"attribute": "service.name", "op": "eq", "value": "app-openinference"}],
    )
    judge.script(model_and_turns)
    # A limit this low evicts the session id from a one-question call, as 128 does from a long
    # conversation's, and keeps the call's messages: it is read, then cannot be placed (the
    # SDK reads the limit when the tracer provider is made).
    monkeypatch.setenv("OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT", "12")
    with (
        instrumented(
            "openinference", Receiver(api.base_url), headers={"Authorization": f"Bearer {key}"}
        ),
        using_session("conversation-long"),
    ):
        ask_text(judge.base_url, "What is the capital of France?")
        ask_text(judge.base_url, "And of Italy?")

    found = counts(client, rule)
    assert found["matched"] == 2 and found["sampled"] == 0
    assert found["skipped"] == {"conversation_id_dropped": 2}
    page = signed_in(api, key).get(f"/console/online_rules/{rule['id']}")
    assert page.status_code == 200
    assert "OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT" in page.text
