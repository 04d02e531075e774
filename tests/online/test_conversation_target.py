"""Online rules with `target: "conversation"` (issues 26 and 30): the calls of a sampled
conversation (`gen_ai.conversation.id`, or OpenInference's `session.id`) are held until the
conversation has been idle LOUPE_ONLINE_CONVERSATION_IDLE_SECONDS, then judged as ONE
conversational test case by the rule's conversational metrics."""

import json
import re
import time
from datetime import timedelta
from pathlib import Path

from openinference.instrumentation import using_session

from app.db import utcnow
from app.online import conversations
from tests.console.helpers import signed_in
from tests.evaluations.test_endpoints import error_locs, problem
from tests.fixtures.api import Api, side_app
from tests.fixtures.judge import Reply, ScriptedJudge, image_parts, task_of
from tests.online.test_receiver import judged_results, make_rule, semconv_span
from tests.otlp.capture import (
    ANSWER,
    QUESTION,
    Receiver,
    ask_about_image,
    ask_text,
    data_url,
    instrumented,
    red_square_png,
)

TURN_RELEVANCY = {"type": "turn_relevancy", "name": "on_topic"}
FOLLOW_UP = "Is it a square or a circle?"
TRACE_ID = "7c8efff798038103d269b633813fc60c"


def model_and_turns(request: dict) -> Reply | dict:
    """The application's model answers; turn_relevancy's judge says `yes` to the first reply
    listed and `no` to the others (so the score is 1 / replies)."""
    task = task_of(request)
    if task is None:
        return Reply(content=ANSWER)
    assert task == "turn_relevancy_verdicts", task
    text = "\n".join(
        part.get("text", "") if isinstance(part, dict) else str(part)
        for message in request["messages"]
        for part in (
            message["content"] if isinstance(message["content"], list) else [message["content"]]
        )
    )
    listed = [
        int(n) for n in re.findall(r"^- turn (\d+)", text.split("Replies to judge:")[-1], re.M)
    ]
    return {
        "verdicts": [
            {"turn": turn, "verdict": "yes" if i == 0 else "no", "reason": f"turn {turn}"}
            for i, turn in enumerate(listed)
        ]
    }


def counts(client, rule: dict) -> dict:
    return client.get(f"/v1/online_rules/{rule['id']}").json()["counts"]


def sweep_past_idle(api: Api) -> int:
    """The ticker's sweep as it runs once the conversation has been idle long enough."""
    idle = api.settings.online_conversation_idle_seconds
    return conversations.sweep(api.served.runtime, now=utcnow() + timedelta(seconds=idle + 1))


class TestConversationRules:
    def test_two_calls_of_one_conversation_are_one_case_scored_by_the_rule(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        key = api.new_key()
        client = api.client(key)
        rule = make_rule(
            client,
            name="chats",
            target="conversation",
            metrics=[TURN_RELEVANCY],
            # The model too: in embedded mode the judge calls of work an earlier test left in
            # this process go through the same instrumented client while the block runs.
            filter=[
                {"attribute": "service.name", "op": "eq", "value": "app-openinference"},
                {"attribute": "model", "op": "eq", "value": "gpt-4o-mini"},
            ],
        )
        judge.script(model_and_turns)
        with (
            instrumented(
                "openinference", Receiver(api.base_url), headers={"Authorization": f"Bearer {key}"}
            ),
            using_session("conversation-42"),
        ):
            ask_about_image(judge.base_url, data_url(red_square_png()))
            ask_text(judge.base_url, FOLLOW_UP)

        assert counts(client, rule)["sampled"] == 2
        # Not idle yet: the sweep as the ticker runs it now leaves the conversation held.
        conversations.sweep(api.served.runtime)
        assert counts(client, rule)["sent"] == 0
        assert sweep_past_idle(api) >= 1

        [result] = judged_results(api, client, rule["id"], 1)
        assert result["metric"] == "on_topic" and result["error"] is None
        # Two replies, the judge's yes and no: the formula's 1/2.
        assert result["score"] == 0.5
        assert [pin["turn"] for pin in result["logs"]["turns"]] == [2, 4]
        cases = client.get(f"/v1/evaluations/{result['evaluation_id']}/test_cases").json()
        [case] = cases["data"]
        assert case["id"] == "conversation-42"
        turns = case["turns"]
        assert [turn["role"] for turn in turns] == ["user", "assistant", "user", "assistant"]
        assert QUESTION in json.dumps(turns[0]["content"])
        # The image went through the media pipeline, as a span case's does.
        assert re.search(r"/v1/media/[0-9a-f]{64}", json.dumps(turns[0]["content"]))
        assert turns[1]["content"] == ANSWER
        assert turns[2]["content"] == FOLLOW_UP
        assert case["chatbot_role"]  # the calls' system instructions
        assert case["metadata"]["conversation_id"] == "conversation-42"
        # The judge read the conversation with its image in place.
        [asked] = judge.calls_for("turn_relevancy_verdicts")
        assert image_parts(asked)
        assert FOLLOW_UP in json.dumps(asked)
        # The rule's page lists it as a conversation, linked to its transcript.
        console = signed_in(api, key)
        page = console.get(f"/console/online_rules/{rule['id']}")
        console.close()
        assert page.status_code == 200
        assert "A conversation of 4 turns" in page.text
        final = counts(client, rule)
        # `received` also counts spans an earlier test's exporter in this process flushes late
        # (seen in the full suite); what this conversation did is exact.
        assert final["received"] >= 2
        assert (final["sampled"], final["sent"], final["judged"]) == (2, 1, 1)
        assert final["skipped"] == {}

    def test_a_call_without_a_conversation_id_is_counted_skipped(self, api: Api) -> None:
        client = api.tenant_client()
        rule = make_rule(client, name="chats", target="conversation", metrics=[TURN_RELEVANCY])
        body = {"resourceSpans": [semconv_span("00f067aa0ba90701", "app", "Capital of France?")]}
        assert client.post("/v1/traces", json=body).status_code == 200
        assert sweep_past_idle(api) == 0
        found = counts(client, rule)
        assert (found["received"], found["matched"], found["sampled"]) == (1, 1, 0)
        assert found["skipped"] == {"no_conversation_id": 1}
        assert client.get(f"/v1/online_rules/{rule['id']}/results").json()["data"] == []


class TestDuplicates:
    def test_a_retried_export_is_held_once(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(model_and_turns)
        client = api.tenant_client()
        rule = make_rule(client, name="chats", target="conversation", metrics=[TURN_RELEVANCY])
        ask = {"role": "user", "parts": [{"type": "text", "content": "Hello?"}]}
        hello = {"role": "assistant", "parts": [{"type": "text", "content": "Hello!"}]}
        body = {"resourceSpans": [conversation_span("00f067aa0ba90901", 1, [ask], [hello])]}
        assert client.post("/v1/traces", json=body).status_code == 200
        assert client.post("/v1/traces", json=body).status_code == 200
        assert counts(client, rule)["skipped"] == {"duplicate": 1}
        assert sweep_past_idle(api) >= 1
        [result] = judged_results(api, client, rule["id"], 1)
        cases = client.get(f"/v1/evaluations/{result['evaluation_id']}/test_cases").json()
        [case] = cases["data"]
        assert [turn["content"] for turn in case["turns"]] == ["Hello?", "Hello!"]


class TestShapes:
    def test_a_metric_that_does_not_judge_the_rules_target_is_a_422_naming_it(
        self, api: Api
    ) -> None:
        client = api.tenant_client()
        single = {"type": "answer_relevancy"}
        conversation_body = {
            "name": "chats",
            "sampling": {"rate": 1},
            "target": "conversation",
            "metrics": [TURN_RELEVANCY, single, {"type": "tool_correctness"}],
        }
        body = problem(client.post("/v1/online_rules", json=conversation_body), 422)
        assert error_locs(body) == ["metrics[1]", "metrics[2]"]
        codes = [error["type"] for error in body["errors"]]
        assert codes == ["wrong_shape_for_target", "unfit_for_online"]
        # tool_correctness needs expected_tools, which no traced conversation carries.
        assert "expected_tools" in body["errors"][1]["msg"]

        span_body = {**conversation_body, "target": "span", "metrics": [single, TURN_RELEVANCY]}
        body = problem(client.post("/v1/online_rules", json=span_body), 422)
        assert error_locs(body) == ["metrics[1]"]

        # A traced call gives the tools its reply called (stored as the case's tools_called),
        # never those it should have called: the refusal says what it does give.
        tools_body = {**span_body, "metrics": [{"type": "tool_correctness"}]}
        [error] = problem(client.post("/v1/online_rules", json=tools_body), 422)["errors"]
        assert (error["loc"], error["type"]) == ("metrics[0]", "unfit_for_online")
        assert error["msg"] == (
            "metric 'tool_correctness' needs expected_tools, which a traced call does not have "
            "(it gives input, actual_output, tools_called and retrieval_context)"
        )

        # Changing a span rule's target to conversation checks the metrics it keeps.
        rule = make_rule(client, metrics=[single])
        changed = client.patch(f"/v1/online_rules/{rule['id']}", json={"target": "conversation"})
        assert error_locs(problem(changed, 422)) == ["metrics[0]"]


class TestBackfill:
    def test_a_conversation_rule_is_not_backfilled_from_single_calls(self, api: Api) -> None:
        client = api.tenant_client()
        rule = make_rule(client, name="chats", target="conversation", metrics=[TURN_RELEVANCY])
        response = client.post(f"/v1/online_rules/{rule['id']}/backfill", json={})
        assert error_locs(problem(response, 409)) == ["target"]


def conversation_span(span_id: str, start: int, inputs: list, outputs: list) -> dict:
    """An OTLP/JSON resourceSpans entry: one chat call of conversation `trip-7` (GenAI
    conventions), started at `start` seconds."""
    span = semconv_span(span_id, "app", "unused", trace_id=TRACE_ID)
    [scope] = span["scopeSpans"]
    [entry] = scope["spans"]
    entry["startTimeUnixNano"] = str(1795685647000000000 + start * 1_000_000_000)
    entry["attributes"] = [
        attribute
        for attribute in entry["attributes"]
        if attribute["key"] not in ("gen_ai.input.messages", "gen_ai.output.messages")
    ] + [
        {"key": "gen_ai.conversation.id", "value": {"stringValue": "trip-7"}},
        {"key": "gen_ai.input.messages", "value": {"stringValue": json.dumps(inputs)}},
        {"key": "gen_ai.output.messages", "value": {"stringValue": json.dumps(outputs)}},
    ]
    return span


class TestTicker:
    def test_the_ticker_judges_a_conversation_once_idle_with_its_tool_calls(
        self, tmp_path: Path, judge: ScriptedJudge
    ) -> None:
        judge.script(model_and_turns)
        ask = {"role": "user", "parts": [{"type": "text", "content": "Weather in Paris?"}]}
        tool_call = {
            "type": "tool_call",
            "id": "call-1",
            "name": "weather",
            "arguments": {"city": "Paris"},
        }
        calling = {"role": "assistant", "parts": [tool_call]}
        result = {
            "role": "tool",
            "parts": [{"type": "tool_call_response", "id": "call-1", "response": "sunny"}],
        }
        answer = {"role": "assistant", "parts": [{"type": "text", "content": "It is sunny."}]}
        # Sent in one export, the later call first: the case follows the calls' start times.
        body = {
            "resourceSpans": [
                conversation_span("00f067aa0ba90802", 2, [ask, calling, result], [answer]),
                conversation_span("00f067aa0ba90801", 1, [ask], [calling]),
            ]
        }
        with (
            side_app(
                tmp_path, judge_base_url=judge.base_url, online_conversation_idle_seconds=0
            ) as app,
            app.tenant_client() as client,
        ):
            rule = make_rule(client, name="trips", target="conversation", metrics=[TURN_RELEVANCY])
            assert client.post("/v1/traces", json=body).status_code == 200
            deadline = time.monotonic() + 60
            while not client.get(f"/v1/online_rules/{rule['id']}/results").json()["data"]:
                assert time.monotonic() < deadline, counts(client, rule)
                time.sleep(0.1)
            [scored] = client.get(f"/v1/online_rules/{rule['id']}/results").json()["data"]
            assert scored["score"] == 1.0 and scored["span_id"] == "00f067aa0ba90802"
            cases = client.get(f"/v1/evaluations/{scored['evaluation_id']}/test_cases").json()
            [case] = cases["data"]
            assert case["turns"] == [
                {"role": "user", "content": "Weather in Paris?"},
                {
                    "role": "assistant",
                    "content": "It is sunny.",
                    "tools_called": [
                        {
                            "name": "weather",
                            "input_parameters": {"city": "Paris"},
                            "output": "sunny",
                        }
                    ],
                },
            ]
            assert counts(client, rule)["sent"] == 1
