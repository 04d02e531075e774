"""What a traced call gives its rule's judge, per instrumentation and mode: an application's
openai client, instrumented by the real OpenTelemetry instrumentations, exports through the
official OTLP exporter to a live Loupe (the outside fidelity audit of issue 26, against
docs' reference on what each instrumentation emits)."""

import json
import re
from typing import Any

import httpx
import openai
import pytest

from tests.fixtures.api import Api
from tests.fixtures.judge import Reply, ScriptedJudge, plausible_answer, task_of
from tests.online.test_receiver import judged_results, make_rule
from tests.otlp.capture import Receiver, instrumented

# openllmetry-events: OpenLLMetry with use_attributes=False, its messages in log records.
INSTRUMENTATIONS = ("official", "openinference", "openllmetry", "openllmetry-events")
# The application's model: Loupe's own judge calls (traced too, in embedded mode) are not.
APP_MODEL = [{"attribute": "model", "op": "eq", "value": "gpt-4o-mini"}]
WEATHER = "What is the weather in Paris?"
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "The weather in a city.",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
        },
    }
]


def tool_call_reply() -> Reply:
    """The application's model answering with a tool call and no text."""
    message = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_abc123",
                "type": "function",
                "function": {"name": "get_weather", "arguments": '{"city": "Lyon"}'},
            }
        ],
    }
    body = {
        "id": "chatcmpl-tool1",
        "object": "chat.completion",
        "created": 1,
        "model": "gpt-4o-mini",
        "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}],
        "usage": {"prompt_tokens": 20, "completion_tokens": 5, "total_tokens": 25},
    }
    return Reply(raw_body=json.dumps(body).encode())


def ask(base_url: str, **request: Any) -> None:
    """One chat completion of gpt-4o-mini through the official openai client."""
    with httpx.Client(trust_env=False, timeout=30) as http:
        client = openai.OpenAI(base_url=base_url, api_key="test", http_client=http, max_retries=0)
        client.chat.completions.create(model="gpt-4o-mini", **request)


def counts(client: httpx.Client, rule: dict) -> dict[str, Any]:
    return client.get(f"/v1/online_rules/{rule['id']}").json()["counts"]


class TestToolCalls:
    @pytest.mark.parametrize("which", INSTRUMENTATIONS)
    def test_a_reply_that_calls_a_tool_is_judged_with_its_tool_call(
        self, api: Api, judge: ScriptedJudge, which: str
    ) -> None:
        """The call's tools are its test case's tools_called: argument_correctness judges
        the arguments the application's model gave (it scored 1, "no tool was called", with
        no judge call, and that pass went out to the team's traces)."""
        key = api.new_key()
        client = api.client(key)
        rule = make_rule(client, filter=APP_MODEL, metrics=[{"type": "argument_correctness"}])

        def model_and_judge(request: dict) -> Reply | dict:
            if task_of(request) is None:
                return tool_call_reply()
            verdict = {"call": 1, "verdict": "no", "reason": "Lyon is not Paris."}
            return {"verdicts": [verdict]}

        judge.script(model_and_judge)
        with instrumented(
            which, Receiver(api.base_url), headers={"Authorization": f"Bearer {key}"}
        ):
            ask(judge.base_url, messages=[{"role": "user", "content": WEATHER}], tools=TOOLS)

        [result] = judged_results(api, client, rule["id"], 1)
        assert result["error"] is None, result
        assert result["score"] == 0.0 and "Lyon is not Paris." in result["reason"]
        [asked] = judge.calls_for("argument_correctness_verdicts")
        text = json.dumps(asked)
        assert "get_weather" in text and "Lyon" in text and WEATHER in text
        case = result["test_case"]
        assert case["tools_called"] == [
            {"name": "get_weather", "input_parameters": {"city": "Lyon"}}
        ]
        assert counts(client, rule)["skipped"] == {}


class TestHiddenContent:
    @pytest.mark.parametrize(
        "hidden",
        [
            # Its texts replaced by "__REDACTED__": the placeholder is not judged.
            {"OPENINFERENCE_HIDE_INPUT_TEXT": "true", "OPENINFERENCE_HIDE_OUTPUT_TEXT": "true"},
            {
                "OPENINFERENCE_HIDE_INPUT_TEXT": "true",
                "OPENINFERENCE_ENABLE_GENAI_SEMCONV": "true",
            },
            # No messages, input.value and output.value "__REDACTED__": no content, not an
            # unknown convention (OpenInference's token counts are no content either).
            {"OPENINFERENCE_HIDE_INPUTS": "true", "OPENINFERENCE_HIDE_OUTPUTS": "true"},
        ],
        ids=["texts", "texts-genai", "messages"],
    )
    def test_content_openinference_hides_is_counted_as_no_content(
        self, api: Api, judge: ScriptedJudge, monkeypatch: pytest.MonkeyPatch, hidden: dict
    ) -> None:
        key = api.new_key()
        client = api.client(key)
        rule = make_rule(client, filter=APP_MODEL)
        judge.script(lambda request: Reply(content="It is sunny in Paris."))
        for name, value in hidden.items():
            monkeypatch.setenv(name, value)
        with instrumented(
            "openinference", Receiver(api.base_url), headers={"Authorization": f"Bearer {key}"}
        ):
            ask(judge.base_url, messages=[{"role": "user", "content": WEATHER}])

        counted = counts(client, rule)
        assert (counted["received"], counted["sampled"], counted["sent"]) == (1, 1, 0)
        assert counted["skipped"] == {"no_content": 1}
        assert judge.calls_for("g_eval_score") == []


class TestFailedCalls:
    @pytest.mark.parametrize("which", INSTRUMENTATIONS)
    def test_a_call_that_failed_is_counted_as_failed(
        self, api: Api, judge: ScriptedJudge, which: str
    ) -> None:
        """The model answered 400: the span (status ERROR, its input captured) has no answer
        to judge, counted `call_failed` at once, not `no_content` (which says capture is off)."""
        key = api.new_key()
        client = api.client(key)
        rule = make_rule(client, filter=APP_MODEL)
        judge.script(lambda request: Reply(status=400, content="The model is unavailable."))
        with (
            instrumented(which, Receiver(api.base_url), headers={"Authorization": f"Bearer {key}"}),
            pytest.raises(openai.BadRequestError),
        ):
            ask(judge.base_url, messages=[{"role": "user", "content": WEATHER}])

        counted = counts(client, rule)
        assert (counted["received"], counted["sampled"], counted["sent"]) == (1, 1, 0)
        assert counted["skipped"] == {"call_failed": 1}


class TestLostContent:
    def test_a_call_whose_sdk_dropped_attributes_says_so(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        """80 turns make OpenInference's span pass the SDK's 128-attribute limit, which evicts
        the oldest (the first messages, input.value): the call is judged on what is left and
        its test case's metadata names the loss (it was computed and thrown away)."""
        key = api.new_key()
        client = api.client(key)
        rule = make_rule(client, filter=APP_MODEL)
        judge.script(lambda request: plausible_answer(request) if task_of(request) else "Yes.")
        history: list[dict[str, Any]] = []
        for turn in range(40):
            history.append({"role": "user", "content": f"Question {turn}?"})
            history.append({"role": "assistant", "content": f"Answer {turn}."})
        history.append({"role": "user", "content": WEATHER})
        with instrumented(
            "openinference", Receiver(api.base_url), headers={"Authorization": f"Bearer {key}"}
        ):
            ask(judge.base_url, messages=history)

        [result] = judged_results(api, client, rule["id"], 1)
        case = result["test_case"]
        assert case["input"] == WEATHER and case["actual_output"] == "Yes."
        assert re.fullmatch(r"attributes_dropped: \d+", case["metadata"]["warnings"])

    def test_a_tool_call_traced_without_content_is_not_judged(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        """Capture off: OpenLLMetry's events (as the official instrumentation's earlier ones)
        still name the tools a choice called, without their arguments, beside empty messages.
        Nothing the user asked is known, so the call is `no_content`, not a tool call judged
        against an empty request."""
        key = api.new_key()
        client = api.client(key)
        rule = make_rule(client, filter=APP_MODEL, metrics=[{"type": "argument_correctness"}])
        judge.script(lambda request: tool_call_reply())
        with instrumented(
            "openllmetry-events",
            Receiver(api.base_url),
            headers={"Authorization": f"Bearer {key}"},
            capture_content=False,
        ):
            ask(judge.base_url, messages=[{"role": "user", "content": WEATHER}], tools=TOOLS)

        counted = counts(client, rule)
        assert (counted["received"], counted["sampled"], counted["sent"]) == (1, 1, 0)
        assert counted["skipped"] == {"no_content": 1}
        assert judge.calls_for("argument_correctness_verdicts") == []
