"""JudgeClient.embed and a judge call's sampling params, against the scripted server."""

import asyncio
from typing import Any

import pytest

from app.judges import JudgeClient, JudgeError
from tests.fixtures.judge import Reply, ScriptedJudge
from tests.fixtures.metrics import endpoint
from tests.judges.test_client import MESSAGES, Greeting, MemoryCache


def run(judge: ScriptedJudge, work, **overrides: Any):
    async def go():
        client = JudgeClient(endpoint(judge, **overrides))
        try:
            return await work(client)
        finally:
            await client.close()

    return asyncio.run(go())


class TestEmbed:
    def test_vectors_in_input_order(self, judge: ScriptedJudge) -> None:
        # Answered out of order: the client orders by `index`.
        def reversed_data(request: dict) -> Reply:
            return Reply(
                raw_body=b'{"object":"list","data":['
                b'{"index":1,"embedding":[0,1]},{"index":0,"embedding":[1,0]}],'
                b'"usage":{"prompt_tokens":4,"total_tokens":4}}'
            )

        judge.script_embeddings(reversed_data)
        embeddings = run(judge, lambda client: client.embed(["a", "b"], model="emb"))
        assert embeddings.vectors == [[1.0, 0.0], [0.0, 1.0]]
        assert (embeddings.usage.calls, embeddings.usage.prompt_tokens) == (1, 4)
        assert judge.embedding_requests == [
            {"model": "emb", "input": ["a", "b"], "encoding_format": "float"}
        ]

    def test_rate_limit_is_retried(self, judge: ScriptedJudge) -> None:
        replies = iter([Reply(status=429, headers={"Retry-After": "0"})])
        judge.script_embeddings(lambda request: next(replies, [[1.0], [2.0]]))
        embeddings = run(judge, lambda client: client.embed(["a", "b"], model="emb"))
        assert embeddings.vectors == [[1.0], [2.0]] and len(judge.embedding_requests) == 2

    def test_auth_failure(self, judge: ScriptedJudge) -> None:
        judge.script_embeddings(lambda request: Reply(status=401))
        with pytest.raises(JudgeError) as raised:
            run(judge, lambda client: client.embed(["a"], model="emb"))
        assert raised.value.type == "judge_auth"


class TestSamplingParams:
    def test_params_are_sent_over_the_defaults(self, judge: ScriptedJudge) -> None:
        judge.sequence({"greeting": "hi"})
        params = {"temperature": 0.4, "seed": 7, "top_p": None}
        run(judge, lambda client: client.call(MESSAGES, Greeting, params=params))
        (request,) = judge.requests
        assert (request["temperature"], request["seed"]) == (0.4, 7)
        assert "top_p" not in request and request["response_format"]["type"] == "json_schema"

    @pytest.mark.parametrize("field", ["model", "messages", "response_format", "logprobs"])
    def test_owned_fields_are_refused(self, judge: ScriptedJudge, field: str) -> None:
        with pytest.raises(JudgeError) as raised:
            run(judge, lambda client: client.call(MESSAGES, Greeting, params={field: "x"}))
        assert raised.value.type == "judge_bad_request" and judge.requests == []

    def test_cache_keys_on_params(self, judge: ScriptedJudge) -> None:
        judge.sequence({"greeting": "hi"})
        cache = MemoryCache()

        async def work(client: JudgeClient) -> list[bool]:
            cached = []
            for params in (None, {"seed": 1}, {"seed": 1}, {"seed": 2}, None):
                reply = await client.call(MESSAGES, Greeting, cache=cache, params=params)
                cached.append(reply.cached)
            return cached

        assert run(judge, work) == [False, False, True, False, True]
        assert len(judge.requests) == 3
