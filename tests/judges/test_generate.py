"""Candidate generation on the judge client, against the scripted OpenAI-compatible server."""

import asyncio
import time
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict

from app.judges import Generation, JudgeClient, JudgeError
from tests.fixtures.judge import Reply, ScriptedJudge
from tests.fixtures.metrics import endpoint
from tests.fixtures.services import free_port

QUESTION = [{"role": "user", "content": "What is the capital of France?"}]
PNG = "data:image/png;base64,iVBORw0KGgo="


def generate(
    judge: ScriptedJudge,
    messages: list[dict[str, Any]] = QUESTION,
    *,
    model: str | None = None,
    params: dict[str, Any] | None = None,
    **overrides: Any,
) -> Generation:
    async def go() -> Generation:
        client = JudgeClient(endpoint(judge, role="candidate", **overrides))
        try:
            return await client.generate(messages, model=model, params=params)
        finally:
            await client.close()

    return asyncio.run(go())


def fails(judge: ScriptedJudge, **kw: Any) -> JudgeError:
    with pytest.raises(JudgeError) as caught:
        generate(judge, **kw)
    return caught.value


class TestRequest:
    def test_plain_completion(self, judge: ScriptedJudge) -> None:
        judge.sequence(Reply(content="Paris.", prompt_tokens=12, completion_tokens=3))
        generation = generate(judge)
        assert generation.content == "Paris."
        assert generation.finish_reason == "stop"
        assert (generation.usage.calls, generation.usage.prompt_tokens) == (1, 12)
        assert generation.usage.completion_tokens == 3
        sent = judge.requests[0]
        assert sent["model"] == "judge-model" and sent["messages"] == QUESTION
        assert sent["temperature"] == 0.0
        assert "response_format" not in sent and "logprobs" not in sent
        assert "top_logprobs" not in sent

    def test_choice_and_model_are_kept(self, judge: ScriptedJudge) -> None:
        judge.sequence(Reply(content='{"city": "Paris"}'))
        generation = generate(judge, model="cand-1")
        assert generation.model == "cand-1"
        assert generation.choice["message"]["content"] == '{"city": "Paris"}'
        assert generation.choice["finish_reason"] == "stop"

    def test_params_reach_the_body(self, judge: ScriptedJudge) -> None:
        params = {
            "max_tokens": 64,
            "top_p": 0.9,
            "seed": 7,
            "stop": ["\n\n"],
            "frequency_penalty": 0.1,
            "presence_penalty": 0.2,
        }
        judge.sequence("Paris")
        generate(judge, model="candidate-model", params=params)
        sent = judge.requests[0]
        assert {name: sent[name] for name in params} == params
        assert sent["model"] == "candidate-model"

    def test_temperature_param_overrides_the_endpoint(self, judge: ScriptedJudge) -> None:
        judge.sequence("Paris")
        generate(judge, params={"temperature": 0.7}, temperature=0.2)
        generate(judge, temperature=0.2)
        assert [r["temperature"] for r in judge.requests] == [0.7, 0.2]

    def test_none_param_leaves_the_field_out(self, judge: ScriptedJudge) -> None:
        judge.sequence("Paris")
        generate(judge, params={"temperature": None, "max_tokens": None})
        assert "temperature" not in judge.requests[0]
        assert "max_tokens" not in judge.requests[0]

    @pytest.mark.parametrize("name", ["model", "messages", "stream"])
    def test_params_may_not_set_what_loupe_owns(self, judge: ScriptedJudge, name: str) -> None:
        error = fails(judge, params={name: True})
        assert error.type == "candidate_bad_request" and name in error.message
        assert judge.requests == [] and error.usage.calls == 0

    def test_image_bookkeeping_is_stripped(self, judge: ScriptedJudge) -> None:
        judge.sequence("a red circle")
        image = {"type": "image_url", "image_url": {"url": PNG}, "sha256": "f" * 64}
        messages = [{"role": "user", "content": [{"type": "text", "text": "What is it?"}, image]}]
        generate(judge, messages)
        parts = judge.requests[0]["messages"][0]["content"]
        assert parts == [
            {"type": "text", "text": "What is it?"},
            {"type": "image_url", "image_url": {"url": PNG}},
        ]
        assert "sha256" in image  # the caller's message is left as it was

    def test_audio_part_is_passed_through(self, judge: ScriptedJudge) -> None:
        judge.sequence("a dog barking")
        audio = {"type": "input_audio", "input_audio": {"data": "UklGRg==", "format": "wav"}}
        messages = [{"role": "user", "content": [{"type": "text", "text": "What is it?"}, audio]}]
        generate(judge, messages)
        assert judge.requests[0]["messages"][0]["content"][1] == audio


class TestReply:
    @pytest.mark.parametrize("content", [None, ""])
    def test_empty_content_is_an_answer(self, judge: ScriptedJudge, content: str | None) -> None:
        judge.sequence(Reply(content=content))
        generation = generate(judge)
        assert generation.content == "" and generation.usage.calls == 1

    def test_a_body_that_is_no_completion_is_an_error(self, judge: ScriptedJudge) -> None:
        judge.sequence(Reply(raw_body=b"<html>gateway</html>"))
        error = fails(judge)
        assert error.type == "candidate_malformed" and "candidate endpoint" in error.message
        assert error.usage.calls == 1 and len(judge.requests) == 1


class TestRetries:
    def test_500_then_success(self, judge: ScriptedJudge) -> None:
        judge.sequence(Reply(status=500), Reply(status=503), "Paris")
        generation = generate(judge)
        assert generation.content == "Paris" and len(judge.requests) == 3
        assert generation.usage.calls == 1

    def test_429_waits_as_retry_after_says(self, judge: ScriptedJudge) -> None:
        judge.sequence(
            Reply(status=429, headers={"Retry-After": "0.4"}, error_code="rate_limit_exceeded"),
            "Paris",
        )
        started = time.monotonic()
        # The backoff alone would wait at most 0.05 s.
        generation = generate(judge, backoff_cap_seconds=0.05)
        assert time.monotonic() - started >= 0.4
        assert generation.content == "Paris" and len(judge.requests) == 2

    def test_insufficient_quota_is_not_retried(self, judge: ScriptedJudge) -> None:
        judge.sequence(Reply(status=429, error_code="insufficient_quota"))
        error = fails(judge)
        assert error.type == "candidate_quota" and len(judge.requests) == 1
        host = judge.base_url.split("//")[1].split("/")[0]
        assert error.message == f"the candidate account at {host} is out of quota"

    def test_gives_up_within_bounds_counting_the_calls(self, judge: ScriptedJudge) -> None:
        judge.sequence(Reply(status=500))
        error = fails(judge, max_attempts=2)
        assert error.type == "candidate_server_error" and len(judge.requests) == 2
        assert "gave up after 2 attempts" in error.message and error.usage.calls == 0


class TestErrorTypes:
    @pytest.mark.parametrize(
        ("reply", "expected"),
        [
            (Reply(status=400, content="unknown model"), "candidate_bad_request"),
            (Reply(status=401, content="bad key"), "candidate_auth"),
            (Reply(status=404, content="no such route"), "candidate_error"),
            (Reply(status=429, error_code="rate_limit_exceeded"), "candidate_rate_limited"),
            (Reply(status=502), "candidate_server_error"),
        ],
    )
    def test_status_errors_carry_the_role(
        self, judge: ScriptedJudge, reply: Reply, expected: str
    ) -> None:
        judge.sequence(reply)
        assert fails(judge, max_attempts=2).type == expected

    def test_auth_message_names_the_role(self, judge: ScriptedJudge) -> None:
        judge.sequence(Reply(status=401, content="bad key"))
        error = fails(judge)
        host = judge.base_url.split("//")[1].split("/")[0]
        assert error.message == f"the candidate endpoint {host} refused the API key"
        assert "sk-test-secret" not in error.message

    def test_timeout(self, judge: ScriptedJudge) -> None:
        judge.sequence(Reply(content="late", delay=1.0))
        error = fails(judge, timeout_seconds=0.2, max_attempts=2)
        assert error.type == "candidate_timeout" and len(judge.requests) == 2

    def test_unreachable_endpoint(self, judge: ScriptedJudge) -> None:
        closed = f"http://127.0.0.1:{free_port()}/v1"
        error = fails(judge, base_url=closed, max_attempts=2)
        # httpx-aiohttp maps a refused connection to httpx.ConnectTimeout (its exception map
        # prefers the parent class's entry); the cause chain still says it was refused.
        assert error.type == "candidate_unreachable"
        assert "gave up after 2 attempts" in error.message

    def test_the_judge_role_is_the_default(self, judge: ScriptedJudge) -> None:
        judge.sequence(Reply(status=429, error_code="insufficient_quota"))

        async def go() -> None:
            client = JudgeClient(endpoint(judge))
            try:
                await client.generate(QUESTION)
            finally:
                await client.close()

        with pytest.raises(JudgeError) as caught:
            asyncio.run(go())
        assert caught.value.type == "judge_quota"
        assert caught.value.message.startswith("the judge account at 127.0.0.1:")


class Greeting(BaseModel):
    model_config = ConfigDict(title="demo")
    greeting: str


class TestSharedLimit:
    def test_generations_and_judge_calls_share_the_in_flight_limit(
        self, judge: ScriptedJudge
    ) -> None:
        # Requests another test left hanging (scripted delays) would inflate the peak.
        while judge.in_flight:
            time.sleep(0.05)
        judge.reset()
        judge.latency = 0.05
        judge.script(lambda request: {"greeting": "hi"})

        async def go() -> None:
            client = JudgeClient(endpoint(judge, concurrency=3))
            try:
                judged = [client.call(QUESTION, Greeting) for _ in range(6)]
                generated = [client.generate(QUESTION) for _ in range(6)]
                await asyncio.gather(*judged, *generated)
            finally:
                await client.close()

        asyncio.run(go())
        assert len(judge.requests) == 12 and judge.max_in_flight == 3
