"""LeanRequest: JSON parsed as it streams in, repeated long strings held once."""

import asyncio
import json

import pytest

from app.api.routing import LeanRequest


def request(chunks: list[bytes], content_type: str = "application/json") -> LeanRequest:
    messages = [
        {"type": "http.request", "body": chunk, "more_body": i < len(chunks) - 1}
        for i, chunk in enumerate(chunks)
    ] or [{"type": "http.request", "body": b"", "more_body": False}]

    async def receive() -> dict:
        return messages.pop(0)

    scope = {
        "type": "http",
        "method": "POST",
        "path": "/",
        "headers": [(b"content-type", content_type.encode())],
    }
    return LeanRequest(scope, receive)


def split(data: bytes, size: int) -> list[bytes]:
    return [data[i : i + size] for i in range(0, len(data), size)]


class TestLeanRequest:
    def test_parses_across_chunks_and_shares_repeats(self) -> None:
        image = "data:image/png;base64," + "A" * 5000
        document = {"cases": [{"url": image, "n": i, "x": 1.5} for i in range(50)], "ok": True}
        lean = request(split(json.dumps(document).encode(), 1000))
        parsed = asyncio.run(_parse(lean))
        assert parsed == document
        urls = [case["url"] for case in parsed["cases"]]
        assert all(url is urls[0] for url in urls)  # one string object, not fifty

    def test_malformed_json_is_a_decode_error(self) -> None:
        with pytest.raises(json.JSONDecodeError):
            asyncio.run(_parse(request([b'{"a": [1, ', b"2"])))
        with pytest.raises(json.JSONDecodeError):
            asyncio.run(_parse(request([b'{"a": 1} trailing'])))

    def test_empty_and_non_json_bodies_are_left_alone(self) -> None:
        assert asyncio.run(request([]).body()) == b""
        assert asyncio.run(request([b"a=", b"b"], "text/plain").body()) == b"a=b"


async def _parse(lean: LeanRequest):
    await lean.body()
    return await lean.json()
