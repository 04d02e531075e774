"""OpenInference's text completions (`client.completions.create`) read as calls, and content that
is present but does not parse counted malformed whichever message it is (issue 26)."""

import json

import httpx
import openai

from app.otlp import JudgedCall, Skipped, SkipReason, judged_calls
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge, plausible_answer
from tests.online.test_receiver import judged_results, make_rule
from tests.otlp.capture import Receiver, instrumented
from tests.otlp.test_conventions import SPAN, _span

OUTPUT = [{"role": "assistant", "parts": [{"type": "text", "content": "Paris."}]}]
INPUT = [{"role": "user", "parts": [{"type": "text", "content": "Capital of France?"}]}]
PROMPT = "Complete this: the capital of France is"
COMPLETION = " Paris."


def _one(attributes: dict) -> JudgedCall | Skipped:
    [result] = [call for call in judged_calls([_span(attributes)]) if call.span_id == SPAN]
    assert isinstance(result, JudgedCall | Skipped), result
    return result


class TestMalformedContent:
    def test_unparsable_input_with_valid_output_is_malformed_not_missing(self) -> None:
        skipped = _one(
            {
                "gen_ai.operation.name": "chat",
                "gen_ai.input.messages": "[{oops",
                "gen_ai.output.messages": json.dumps(OUTPUT),
            }
        )

        assert isinstance(skipped, Skipped)
        assert skipped.reason == SkipReason.MALFORMED_CONTENT
        assert "gen_ai.input.messages is not JSON" in skipped.detail

    def test_unparsable_output_with_valid_input_is_malformed(self) -> None:
        skipped = _one(
            {
                "gen_ai.operation.name": "chat",
                "gen_ai.input.messages": json.dumps(INPUT),
                "gen_ai.output.messages": '{"role": "assistant"',
            }
        )

        assert isinstance(skipped, Skipped)
        assert skipped.reason == SkipReason.MALFORMED_CONTENT
        assert "gen_ai.output.messages is not JSON" in skipped.detail

    def test_a_missing_input_is_still_no_content(self) -> None:
        skipped = _one(
            {"gen_ai.operation.name": "chat", "gen_ai.output.messages": json.dumps(OUTPUT)}
        )

        assert isinstance(skipped, Skipped)
        assert skipped.reason == SkipReason.NO_CONTENT


class TestOpenInferenceCompletions:
    def test_a_completion_is_a_text_completion_call(self) -> None:
        call = _one(
            {
                "openinference.span.kind": "LLM",
                "llm.system": "openai",
                "llm.model_name": "gpt-3.5-turbo-instruct",
                "llm.invocation_parameters": json.dumps({"model": "gpt-3.5-turbo-instruct"}),
                "llm.prompts.0.prompt.text": "Say this is a test",
                "llm.choices.0.completion.text": "This is a test.",
                "input.value": json.dumps({"prompt": "Say this is a test"}),
                "output.value": "{}",
            }
        )

        assert isinstance(call, JudgedCall), call
        assert call.convention == "openinference"
        assert call.operation == "text_completion"
        assert call.model == "gpt-3.5-turbo-instruct"
        assert call.input_text == "Say this is a test"
        assert call.output_text == "This is a test."

    def test_an_older_prompt_list_is_read_too(self) -> None:
        call = _one(
            {
                "openinference.span.kind": "LLM",
                "llm.prompts": ("First?", "Say this is a test"),
                "llm.choices.0.completion.text": "This is a test.",
            }
        )

        assert isinstance(call, JudgedCall), call
        assert call.input_text == "Say this is a test"
        assert call.output_text == "This is a test."

    def test_a_completion_without_its_choice_has_no_output(self) -> None:
        skipped = _one(
            {"openinference.span.kind": "LLM", "llm.prompts.0.prompt.text": "Say this is a test"}
        )

        assert isinstance(skipped, Skipped)
        assert skipped.reason == SkipReason.NO_CONTENT


def complete(prompt: str) -> None:
    """One legacy completion (`client.completions.create`), the application's model answering
    from an in-process transport (the judge stand-in serves chat completions only)."""

    def model(request: httpx.Request) -> httpx.Response:
        assert request.url.path.endswith("/completions"), request.url
        return httpx.Response(
            200,
            json={
                "id": "cmpl-1",
                "object": "text_completion",
                "created": 1795685647,
                "model": "gpt-3.5-turbo-instruct",
                "choices": [
                    {"index": 0, "text": COMPLETION, "finish_reason": "stop", "logprobs": None}
                ],
                "usage": {"prompt_tokens": 5, "completion_tokens": 3, "total_tokens": 8},
            },
        )

    with httpx.Client(transport=httpx.MockTransport(model)) as http:
        client = openai.OpenAI(
            base_url="http://127.0.0.1:9/v1", api_key="test", http_client=http, max_retries=0
        )
        client.completions.create(model="gpt-3.5-turbo-instruct", prompt=prompt)


class TestCompletionsThroughTheReceiver:
    def test_an_openinference_completion_is_judged(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(plausible_answer)
        key = api.new_key()
        client = api.client(key)
        # Only the application's model: the instrumentation traces every openai client in the
        # process, the embedded worker's judge calls too.
        only_the_app = [{"attribute": "model", "op": "eq", "value": "gpt-3.5-turbo-instruct"}]
        rule = make_rule(client, metrics=[{"type": "answer_relevancy"}], filter=only_the_app)
        with instrumented(
            "openinference", Receiver(api.base_url), headers={"Authorization": f"Bearer {key}"}
        ):
            complete(PROMPT)

        [result] = judged_results(api, client, rule["id"], 1)
        counts = client.get(f"/v1/online_rules/{rule['id']}").json()["counts"]
        assert (counts["sent"], counts["skipped"]) == (1, {})
        day = client.get(f"/v1/evaluations/{result['evaluation_id']}/test_cases").json()
        [case] = day["data"]
        assert (case["input"], case["actual_output"]) == (PROMPT, COMPLETION)
        assert any(PROMPT in json.dumps(request) for request in judge.requests)
