"""Telemetry values Python or the database reads badly: an integer of more digits than Python
converts (4,300), JSON inside a string attribute nested far deeper than any request body may
be, and a time past what a signed 64-bit column holds.

A 5,000-digit integer in an OTLP/JSON body, or in a span's `gen_ai.input.messages`, was a 500
for the whole export (an exporter does not retry a 500: every span of the batch was lost). A
tool call's arguments nested 300 deep were stored with their conversation's test case, and
every read of it failed (pydantic writes at most 255 levels). A JSON string attribute is now
read as a structured one is: nested at most `Limits.max_depth` (16) levels, deeper values cut.
A span starting at 2^64 - 1 ns (OTLP's field is unsigned) was a 500 for its export in both
modes where a conversation rule stored its time; such a time is read as unknown (0).
"""

import json

from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.online.test_conversation_target import (
    TURN_RELEVANCY,
    conversation_span,
    counts,
    model_and_turns,
    sweep_past_idle,
)
from tests.online.test_receiver import judged_results, make_rule, model_and_judge, semconv_span

DIGITS = "1" * 5000


def nested(levels: int) -> dict:
    value: dict = {"city": "Paris"}
    for _ in range(levels):
        value = {"inner": value}
    return value


def depth(value: object) -> int:
    if isinstance(value, dict):
        return 1 + max((depth(item) for item in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((depth(item) for item in value), default=0)
    return 0


class TestLongIntegers:
    def test_an_otlp_json_body_holding_one_is_a_400_naming_the_body(self, api: Api) -> None:
        client = api.tenant_client()
        span = semconv_span("00f067aa0ba90a01", "app", "Capital of France?")
        attributes = span["scopeSpans"][0]["spans"][0]["attributes"]
        attributes.append({"key": "count", "value": {"intValue": "DIGITS"}})
        text = json.dumps({"resourceSpans": [span]}).replace('"DIGITS"', DIGITS)
        response = client.post(
            "/v1/traces", content=text, headers={"Content-Type": "application/json"}
        )
        assert response.status_code == 400, response.text
        body = response.json()
        assert body["code"] == 3 and "does not decode" in body["message"]
        assert [error["loc"] for error in body["errors"]] == ["body"]

    def test_a_span_whose_messages_hold_one_is_skipped_and_its_batch_taken(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(model_and_judge)
        client = api.tenant_client()
        rule = make_rule(client)
        bad = semconv_span("00f067aa0ba90a02", "app", "Capital of Italy?")
        messages = [{"role": "user", "parts": [{"type": "text", "content": "DIGITS"}]}]
        text = json.dumps(messages).replace('"DIGITS"', DIGITS)
        bad["scopeSpans"][0]["spans"][0]["attributes"][2]["value"]["stringValue"] = text
        good = semconv_span("00f067aa0ba90a03", "app", "Capital of France?")
        response = client.post("/v1/traces", json={"resourceSpans": [good, bad]})
        assert response.status_code == 200, response.text
        found = client.get(f"/v1/online_rules/{rule['id']}").json()["counts"]
        assert (found["received"], found["sampled"]) == (2, 2)
        assert found["skipped"] == {"malformed_content": 1}
        assert judged_results(api, client, rule["id"], 1)[0]["error"] is None


class TestDeepJsonStrings:
    def test_tool_arguments_nested_deep_are_cut_and_the_case_reads(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(model_and_turns)
        client = api.tenant_client()
        rule = make_rule(client, name="chats", target="conversation", metrics=[TURN_RELEVANCY])
        ask = {"role": "user", "parts": [{"type": "text", "content": "Weather in Paris?"}]}
        calls = [
            # Arguments as an object inside the messages' JSON string, and as a JSON string
            # of their own (as OpenAI sends them).
            {"type": "tool_call", "id": "call-1", "name": "weather", "arguments": nested(300)},
            {
                "type": "tool_call",
                "id": "call-2",
                "name": "forecast",
                "arguments": json.dumps(nested(300)),
            },
        ]
        reply = {"role": "assistant", "parts": [{"type": "text", "content": "Sunny."}, *calls]}
        body = {"resourceSpans": [conversation_span("00f067aa0ba90a04", 1, [ask], [reply])]}
        assert client.post("/v1/traces", json=body).status_code == 200
        assert sweep_past_idle(api) >= 1
        [result] = judged_results(api, client, rule["id"], 1)
        cases = client.get(f"/v1/evaluations/{result['evaluation_id']}/test_cases")
        assert cases.status_code == 200, cases.text
        [case] = cases.json()["data"]
        tools = case["turns"][1]["tools_called"]
        assert [tool["name"] for tool in tools] == ["weather", "forecast"]
        for tool in tools:
            assert 0 < depth(tool["input_parameters"]) <= 16
        assert counts(client, rule)["sent"] == 1


class TestTimes:
    def test_a_time_past_2262_is_read_as_unknown_and_the_export_taken(self, api: Api) -> None:
        client = api.tenant_client()
        rule = make_rule(client, name="chats", target="conversation", metrics=[TURN_RELEVANCY])
        ask = {"role": "user", "parts": [{"type": "text", "content": "Hello?"}]}
        hello = {"role": "assistant", "parts": [{"type": "text", "content": "Hello!"}]}
        span = conversation_span("00f067aa0ba90a05", 1, [ask], [hello])
        span["scopeSpans"][0]["spans"][0]["startTimeUnixNano"] = str(2**64 - 1)
        response = client.post("/v1/traces", json={"resourceSpans": [span]})
        assert response.status_code == 200, response.text
        assert counts(client, rule)["sampled"] == 1
        # Its held call goes with it: no other test's sweep judges it.
        assert client.delete(f"/v1/online_rules/{rule['id']}").status_code == 204
