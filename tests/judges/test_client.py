"""The judge client against the scripted OpenAI-compatible server: retries, repair, cache."""

import asyncio
import email.utils
import json
import logging
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict

from app.config import Settings
from app.evaluations.tasks import judge_endpoint
from app.judges import JudgeClient, JudgeError, cache_key, extract_json_object
from tests.fixtures.judge import Reply, ScriptedJudge, logprob_tokens
from tests.fixtures.metrics import endpoint

MESSAGES = [{"role": "user", "content": "Loupe task: demo\nSay hi as JSON."}]


class Greeting(BaseModel):
    model_config = ConfigDict(title="demo")
    greeting: str


class MemoryCache:
    def __init__(self) -> None:
        self.entries: dict[str, dict[str, Any]] = {}

    async def get(self, key: str) -> dict[str, Any] | None:
        return self.entries.get(key)

    async def put(self, key: str, value: dict[str, Any]) -> None:
        self.entries[key] = value


def call(judge: ScriptedJudge, *, cache: Any = None, messages=MESSAGES, **overrides: Any):
    async def go():
        client = JudgeClient(endpoint(judge, **overrides))
        try:
            return await client.call(messages, Greeting, cache=cache), client
        finally:
            await client.close()

    return asyncio.run(go())


def fails(judge: ScriptedJudge, **overrides: Any) -> JudgeError:
    with pytest.raises(JudgeError) as caught:
        call(judge, **overrides)
    return caught.value


def timed(judge: ScriptedJudge, *replies: Reply | dict) -> list[float]:
    """Script `replies` in order; returns the list the arrival time of each request goes to."""
    arrivals: list[float] = []
    answers = iter(replies)

    def respond(request: dict) -> Reply | dict:
        arrivals.append(time.monotonic())
        return next(answers)

    judge.script(respond)
    return arrivals


def rate_limited(retry_after: str) -> Reply:
    return Reply(status=429, headers={"Retry-After": retry_after}, error_code="rate_limit_exceeded")


class TestRetries:
    def test_429_with_retry_after_is_retried(self, judge: ScriptedJudge) -> None:
        arrivals = timed(judge, rate_limited("0.5"), {"greeting": "hi"})
        reply, _ = call(judge)
        assert reply.data == {"greeting": "hi"}
        assert len(judge.requests) == 2
        assert reply.usage.calls == 1 and reply.usage.prompt_tokens == 10
        # The endpoint's wait, not our backoff (at most 0.05 s here), came between the two.
        assert arrivals[1] - arrivals[0] >= 0.45

    def test_unparseable_retry_after_falls_back_to_backoff(self, judge: ScriptedJudge) -> None:
        judge.sequence(rate_limited("soon"), {"greeting": "hi"})
        reply, _ = call(judge)
        assert reply.data == {"greeting": "hi"} and len(judge.requests) == 2

    def test_retry_after_date_without_zone_is_utc(self, judge: ScriptedJudge, monkeypatch) -> None:
        # Local time nine hours ahead of UTC: read as local time, the date would be long past.
        monkeypatch.setenv("TZ", "Etc/GMT-9")
        time.tzset()
        try:
            # Four seconds ahead: at least three after whole-second rounding, so a first request
            # slowed by a busy machine still leaves the retry more than a second away.
            soon = datetime.now(UTC).replace(tzinfo=None) + timedelta(seconds=4)
            date = email.utils.format_datetime(soon)
            assert date.endswith("-0000")
            arrivals = timed(judge, rate_limited(date), {"greeting": "hi"})
            reply, _ = call(judge)
        finally:
            monkeypatch.undo()
            time.tzset()
        assert reply.data == {"greeting": "hi"}
        # Read as UTC the retry waits; read as local time it would not wait at all.
        assert arrivals[1] - arrivals[0] >= 0.95

    def test_insufficient_quota_is_not_retried(self, judge: ScriptedJudge) -> None:
        judge.sequence(Reply(status=429, error_code="insufficient_quota"))
        error = fails(judge)
        assert error.type == "judge_quota" and len(judge.requests) == 1

    def test_persistent_500_gives_up_within_bounds(self, judge: ScriptedJudge) -> None:
        judge.sequence(Reply(status=500))
        error = fails(judge, max_attempts=3)
        assert error.type == "judge_server_error" and len(judge.requests) == 3
        assert "gave up after 3 attempts" in error.message

    def test_timeout_is_retried_then_reported(self, judge: ScriptedJudge) -> None:
        judge.sequence(Reply(content='{"greeting": "late"}', delay=1.0))
        error = fails(judge, timeout_seconds=0.2, max_attempts=2)
        assert error.type == "judge_timeout" and len(judge.requests) == 2

    def test_timeout_then_success(self, judge: ScriptedJudge) -> None:
        judge.sequence(Reply(content='{"greeting": "late"}', delay=1.0), {"greeting": "hi"})
        reply, _ = call(judge, timeout_seconds=0.3)
        assert reply.data["greeting"] == "hi"

    def test_bad_request_is_not_retried(self, judge: ScriptedJudge) -> None:
        judge.sequence(Reply(status=400, content="model not found"))
        assert fails(judge).type == "judge_bad_request" and len(judge.requests) == 1


class TestJson:
    def test_broken_json_gets_one_repair_request(self, judge: ScriptedJudge) -> None:
        judge.sequence("Sure! {greeting: hi", '```json\n{"greeting": "hi",}\n```')
        reply, _ = call(judge)
        assert reply.data == {"greeting": "hi"} and reply.repaired
        assert reply.usage.calls == 2
        repair = judge.requests[1]["messages"]
        assert repair[-2] == {"role": "assistant", "content": "Sure! {greeting: hi"}
        assert "only the JSON object" in repair[-1]["content"]

    def test_broken_twice_is_an_error_not_a_crash(self, judge: ScriptedJudge) -> None:
        judge.sequence("no json here")
        error = fails(judge)
        assert error.type == "judge_malformed" and error.usage.calls == 2

    def test_wrong_shape_counts_as_broken(self, judge: ScriptedJudge) -> None:
        judge.sequence({"hello": "x"}, {"greeting": "hi"})
        reply, _ = call(judge)
        assert reply.repaired and "greeting" in judge.requests[1]["messages"][-1]["content"]

    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            ('{"a": 1}', {"a": 1}),
            ('prose {"a": [1, 2,],} more', {"a": [1, 2]}),
            ('{"a": {"b": 2}', {"a": {"b": 2}}),
        ],
    )
    def test_extraction(self, text: str, expected: dict) -> None:
        assert extract_json_object(text) == expected


class TestResponseFormat:
    def test_json_schema_is_sent(self, judge: ScriptedJudge) -> None:
        judge.sequence({"greeting": "hi"})
        call(judge)
        response_format = judge.requests[0]["response_format"]
        assert response_format["type"] == "json_schema"
        assert response_format["json_schema"]["name"] == "demo"

    def test_unsupported_modes_step_down(self, judge: ScriptedJudge) -> None:
        def respond(request: dict) -> Reply | dict:
            if request.get("response_format"):
                kind = request["response_format"]["type"]
                return Reply(status=400, content=f"response_format {kind} is not supported")
            return {"greeting": "plain"}

        judge.script(respond)
        reply, client = call(judge)
        assert reply.data == {"greeting": "plain"}
        assert client.response_format == "text"
        assert [r.get("response_format", {}).get("type") for r in judge.requests] == [
            "json_schema",
            "json_object",
            None,
        ]

    @pytest.mark.parametrize("mode", ["json_object", "text"])
    def test_configured_mode(self, judge: ScriptedJudge, mode: str) -> None:
        judge.sequence({"greeting": "hi"})
        call(judge, response_format=mode)
        sent = judge.requests[0].get("response_format")
        assert (sent or {}).get("type") == (None if mode == "text" else mode)


def ask_with_logprobs(judge: ScriptedJudge, *models: str, top_logprobs: int = 20) -> list:
    """One call per model name, in order, on one client; returns the replies."""

    async def go():
        client = JudgeClient(endpoint(judge))
        try:
            return [
                await client.call(MESSAGES, Greeting, model=model, top_logprobs=top_logprobs)
                for model in models
            ]
        finally:
            await client.close()

    return asyncio.run(go())


def greeting_with_logprobs(request: dict) -> Reply:
    content = '{"greeting": "hi 7"}'
    return Reply(content=content, logprobs=logprob_tokens(content))


def sent_top_logprobs(judge: ScriptedJudge) -> list[int | None]:
    return [request.get("top_logprobs") for request in judge.requests]


class TestLogprobs:
    def test_a_refused_top_logprobs_is_retried_lower_and_remembered_per_model(
        self, judge: ScriptedJudge
    ) -> None:
        def respond(request: dict) -> Reply:
            if request.get("model") == "small-judge" and request.get("top_logprobs", 0) > 5:
                return Reply(status=400, content="top_logprobs is too large for this model")
            return greeting_with_logprobs(request)

        judge.script(respond)
        first, second, other = ask_with_logprobs(judge, "small-judge", "small-judge", "big-judge")
        # 20 refused, 5 taken; the next call starts at 5; another model still gets 20.
        assert sent_top_logprobs(judge) == [20, 5, 5, 20]
        assert (first.top_logprobs, second.top_logprobs, other.top_logprobs) == (5, 5, 20)
        assert first.logprobs and first.logprobs_refusal is None
        assert first.usage.calls == 1  # the refusal is not a call

    def test_a_stated_limit_is_used(self, judge: ScriptedJudge) -> None:
        def respond(request: dict) -> Reply:
            if request.get("top_logprobs", 0) > 3:
                return Reply(status=400, content="top_logprobs must be <= 3 for this model")
            return greeting_with_logprobs(request)

        judge.script(respond)
        (reply,) = ask_with_logprobs(judge, "judge-model")
        assert sent_top_logprobs(judge) == [20, 3] and reply.top_logprobs == 3

    def test_logprobs_refused_altogether_say_why(self, judge: ScriptedJudge) -> None:
        def respond(request: dict) -> Reply:
            if request.get("logprobs"):
                return Reply(status=400, content="logprobs are not supported with this model")
            return Reply(content='{"greeting": "hi"}')

        judge.script(respond)
        first, second = ask_with_logprobs(judge, "reasoner", "reasoner")
        assert sent_top_logprobs(judge) == [20, 5, None, None]
        assert "logprobs" not in judge.requests[-1]
        for reply in (first, second):
            assert reply.logprobs is None and reply.top_logprobs is None
            assert reply.logprobs_refusal == "logprobs are not supported with this model"


class TestCache:
    def test_identical_request_is_answered_from_cache(self, judge: ScriptedJudge) -> None:
        judge.sequence({"greeting": "hi"})
        cache = MemoryCache()
        first, _ = call(judge, cache=cache)
        second, _ = call(judge, cache=cache)
        assert len(judge.requests) == 1
        assert second.cached and second.data == first.data and second.usage.calls == 0

    def test_images_are_keyed_by_content(self) -> None:
        def with_image(url: str, **extra: Any) -> list[dict]:
            part = {"type": "image_url", "image_url": {"url": url}, **extra}
            return [{"role": "user", "content": [{"type": "text", "text": "x"}, part]}]

        a = cache_key("m", with_image("data:image/png;base64,AAAA"), "s", {})
        assert a == cache_key("m", with_image("data:image/png;base64,AAAA"), "s", {})
        assert a != cache_key("m", with_image("data:image/png;base64,BBBB"), "s", {})
        assert a != cache_key("other", with_image("data:image/png;base64,AAAA"), "s", {})
        hashed = cache_key("m", with_image("data:...", sha256="f" * 64), "s", {})
        assert hashed == cache_key("m", with_image("data:other", sha256="f" * 64), "s", {})


class TestLimits:
    def test_in_flight_requests_are_bounded(self, judge: ScriptedJudge) -> None:
        # Requests another test left hanging (scripted delays) would inflate the peak.
        while judge.in_flight:
            time.sleep(0.05)
        judge.reset()
        judge.latency = 0.05
        judge.script(lambda request: {"greeting": "hi"})

        async def go():
            client = JudgeClient(endpoint(judge, concurrency=4))
            try:
                await asyncio.gather(*(client.call(MESSAGES, Greeting) for _ in range(20)))
            finally:
                await client.close()

        asyncio.run(go())
        assert len(judge.requests) == 20 and judge.max_in_flight == 4


class TestSecrets:
    def test_api_key_never_logged_or_in_errors(self, judge: ScriptedJudge, caplog) -> None:
        caplog.set_level(logging.DEBUG)
        judge.sequence(Reply(status=401, content="bad key"))
        error = fails(judge)
        assert error.type == "judge_auth"
        assert "sk-test-secret" not in error.message
        assert "sk-test-secret" not in caplog.text
        assert "sk-test-secret" not in repr(endpoint(judge))
        assert judge.requests and json.dumps(judge.requests).count("sk-test-secret") == 0


class TestEndpointSettings:
    def test_openai_variables_are_the_fallback(self, judge: ScriptedJudge, monkeypatch) -> None:
        monkeypatch.setenv("OPENAI_BASE_URL", judge.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-from-openai-env")
        settings = Settings(judge_base_url=None, judge_api_key=None, _env_file=None)
        assert settings.judge_endpoint_values() == (judge.base_url, "sk-from-openai-env")
        judge.sequence({"greeting": "hi"})

        async def go():
            client = JudgeClient(judge_endpoint(settings))
            try:
                return await client.call(MESSAGES, Greeting)
            finally:
                await client.close()

        assert asyncio.run(go()).data == {"greeting": "hi"}
        assert judge.request_headers[0]["authorization"] == "Bearer sk-from-openai-env"
        assert judge.requests[0]["model"] == settings.judge_model

    def test_loupe_settings_win_over_openai_variables(self, monkeypatch) -> None:
        monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
        monkeypatch.setenv("OPENAI_API_KEY", "sk-from-openai-env")
        settings = Settings(
            judge_base_url="http://127.0.0.1:8/v1", judge_api_key="sk-loupe", _env_file=None
        )
        assert settings.judge_endpoint_values() == ("http://127.0.0.1:8/v1", "sk-loupe")

    def test_nothing_set_means_the_sdk_default(self, monkeypatch) -> None:
        monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
        monkeypatch.delenv("OPENAI_API_KEY", raising=False)
        settings = Settings(judge_base_url=None, judge_api_key=None, _env_file=None)
        assert settings.judge_endpoint_values() == (None, "")
