"""The judge's HTTP client: the SDK's requests go out whole through the lean path."""

import asyncio
import json

import httpx
import openai

from app.judges import JudgeClient
from app.judges._http import LeanAioHttpClient
from tests.fixtures.judge import Reply, ScriptedJudge
from tests.fixtures.metrics import endpoint


def test_sdk_requests_carry_the_sdk_headers_body_and_key(judge: ScriptedJudge) -> None:
    judge.script(lambda request: {"ok": True})

    async def go() -> bytes:
        client = openai.AsyncOpenAI(
            base_url=judge.base_url,
            api_key="sk-lean",
            max_retries=0,
            default_headers={"X-Extra": "yes"},
            http_client=LeanAioHttpClient(timeout=5),
        )
        try:
            return await client.post(
                "/chat/completions",
                content=json.dumps({"model": "m", "messages": []}).encode(),
                cast_to=bytes,
                options={"headers": {"Content-Type": "application/json"}},
            )
        finally:
            await client.close()

    raw = asyncio.run(go())
    assert json.loads(raw)["choices"][0]["message"]["content"] == '{"ok": true}'
    assert judge.requests == [{"model": "m", "messages": []}]
    headers = judge.request_headers[0]
    assert headers["authorization"] == "Bearer sk-lean"
    assert headers["x-extra"] == "yes"
    assert headers["content-type"] == "application/json"
    assert headers["user-agent"].startswith("AsyncOpenAI/Python")
    assert "x-stainless-retry-count" in headers


def test_other_request_shapes_use_httpx_own_building(judge: ScriptedJudge) -> None:
    judge.script(lambda request: {})

    async def go() -> httpx.Response:
        async with LeanAioHttpClient(timeout=5) as client:
            # A relative URL, json= and params= are not the SDK's shape: httpx builds them.
            request = client.build_request(
                "POST", f"{judge.base_url}/chat/completions", json={"a": 1}, params={"q": "1"}
            )
            assert request.url.params["q"] == "1"
            return await client.send(request)

    response = asyncio.run(go())
    assert response.status_code == 200 and response.json()["choices"]
    assert judge.requests == [{"a": 1}]


def test_a_streamed_response_is_left_unread(judge: ScriptedJudge) -> None:
    judge.script(lambda request: {})

    async def go() -> bytes:
        async with LeanAioHttpClient(timeout=5) as client:
            request = client.build_request(
                "POST", httpx.URL(f"{judge.base_url}/chat/completions"), content=b"{}"
            )
            response = await client.send(request, stream=True)
            assert not response.is_stream_consumed
            return await response.aread()

    assert json.loads(asyncio.run(go()))["choices"]


def test_judge_requests_leave_out_the_sdks_platform_headers(judge: ScriptedJudge) -> None:
    judge.script(lambda request: Reply(content="an answer"))

    async def go() -> None:
        client = JudgeClient(endpoint(judge, api_key="sk-judge-headers"))
        try:
            for _ in range(2):
                await client.generate([{"role": "user", "content": "hi"}])
        finally:
            await client.close()

    asyncio.run(go())
    assert len(judge.request_headers) == 2
    for headers in judge.request_headers:
        assert headers["authorization"] == "Bearer sk-judge-headers"
        assert headers["content-type"] == "application/json"
        assert headers["user-agent"].startswith("AsyncOpenAI/Python")
        assert headers["x-stainless-retry-count"] == "0"
        # Which machine and runtime Loupe runs on is not the provider's business.
        assert not [
            name
            for name in headers
            if name.startswith("x-stainless-")
            and name
            not in (
                "x-stainless-retry-count",
                "x-stainless-read-timeout",
            )
        ]
