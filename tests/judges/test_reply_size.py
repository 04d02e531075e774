"""A judge, candidate or embeddings reply larger than LOUPE_MAX_MODEL_RESPONSE_BYTES is not read
on: the call fails as `<role>_malformed` naming the host and the cap, once (asking again would
download the same), and the evaluation completes with the error on the result. A model stand-in
answering 100 MiB was read and stored whole.

The stand-ins: the scripted judge (a declared Content-Length, a gzip body inflating past the cap)
and a loopback server sending a chunked body with no length at all.
"""

import asyncio
import gzip
import json
import socket
import threading
from collections.abc import Iterator

import pytest
from pydantic import BaseModel

from app.candidates.service import endpoint_for
from app.config import Settings
from app.judges import JudgeClient, JudgeError
from app.judges._types import DEFAULT_MAX_RESPONSE_BYTES
from tests.fixtures.api import Api
from tests.fixtures.judge import Reply, ScriptedJudge, plausible_answer, task_of
from tests.fixtures.metrics import endpoint
from tests.judges.test_deep_json import g_eval_twice
from tests.judges.test_failures import KEY, failure

CAP = 64 * 1024


class Answer(BaseModel):
    verdict: str


def completion(content: str, size: int | None = None) -> bytes:
    """A chat completion body answering `content`, padded with spaces to `size` bytes."""
    body = json.dumps(
        {
            "object": "chat.completion",
            "model": "judge-model",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}}],
            "usage": {"prompt_tokens": 3, "completion_tokens": 2},
        }
    ).encode()
    return body if size is None else body + b" " * (size - len(body))


def assert_too_large(error: JudgeError, role: str, host: str, cap: int = CAP) -> None:
    assert (error.type, error.kind) == (f"{role}_malformed", "malformed")
    assert host in error.message and f"more than {cap} bytes" in error.message
    assert "LOUPE_MAX_MODEL_RESPONSE_BYTES" in error.message
    assert KEY not in error.message
    # The call was made (and billed): it counts.
    assert error.usage.calls == 1


class TestDeclaredLength:
    def test_a_judge_reply_past_the_cap_is_malformed_and_not_retried(
        self, judge: ScriptedJudge
    ) -> None:
        judge.sequence(Reply(raw_body=completion('{"verdict": "yes"}', CAP + 1)))
        error = failure(judge, max_response_bytes=CAP)
        assert_too_large(error, "judge", f"127.0.0.1:{judge.port}")
        # Neither retried nor sent back for repair: one request.
        assert len(judge.requests) == 1

    def test_a_reply_of_exactly_the_cap_is_read(self, judge: ScriptedJudge) -> None:
        judge.sequence(Reply(raw_body=completion('{"verdict": "yes"}', CAP)))

        async def go() -> dict:
            client = JudgeClient(endpoint(judge, max_response_bytes=CAP))
            try:
                reply = await client.call([{"role": "user", "content": "judge this"}], Answer)
            finally:
                await client.close()
            return reply.data

        assert asyncio.run(go()) == {"verdict": "yes"}

    def test_a_candidate_reply_past_the_cap_is_candidate_malformed(
        self, judge: ScriptedJudge
    ) -> None:
        judge.sequence(Reply(raw_body=completion("x" * (CAP * 2))))
        error = failure(judge, role="candidate", max_response_bytes=CAP)
        assert_too_large(error, "candidate", f"127.0.0.1:{judge.port}")
        assert len(judge.requests) == 1

    def test_an_error_body_past_the_cap_is_not_retried_either(self, judge: ScriptedJudge) -> None:
        # A 500 would be retried; one too large to read is an unusable answer first.
        judge.sequence(Reply(status=500, raw_body=b"x" * (CAP + 1)))
        error = failure(judge, max_response_bytes=CAP)
        assert_too_large(error, "judge", f"127.0.0.1:{judge.port}")
        assert len(judge.requests) == 1

    def test_an_embeddings_reply_past_the_cap_is_malformed(self, judge: ScriptedJudge) -> None:
        vector = [0.125] * (CAP // 4)
        judge.script_embeddings(
            lambda request: Reply(
                raw_body=json.dumps(
                    {"object": "list", "data": [{"index": 0, "embedding": vector}]}
                ).encode()
            )
        )

        async def go() -> None:
            client = JudgeClient(endpoint(judge, api_key=KEY, max_response_bytes=CAP))
            try:
                await client.embed(["a text"], model="embedder")
            finally:
                await client.close()

        with pytest.raises(JudgeError) as caught:
            asyncio.run(go())
        assert_too_large(caught.value, "judge", f"127.0.0.1:{judge.port}")
        assert len(judge.embedding_requests) == 1


class TestDecodedSize:
    def test_a_gzip_body_counts_as_what_it_inflates_to(self, judge: ScriptedJudge) -> None:
        inflated = completion("x" * (CAP * 4))
        packed = gzip.compress(inflated)
        assert len(packed) < CAP  # its Content-Length alone would pass
        judge.sequence(Reply(raw_body=packed, headers={"content-encoding": "gzip"}))
        error = failure(judge, max_response_bytes=CAP)
        assert_too_large(error, "judge", f"127.0.0.1:{judge.port}")


class ChunkedServer:
    """Answers each POST with a chunked body of `total` bytes and no Content-Length, counting
    what it managed to send before the client hung up."""

    def __init__(self, total: int, piece: int = 64 * 1024) -> None:
        self.total = total
        self.piece = piece
        self.sent = 0
        self.requests = 0
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.thread = threading.Thread(target=self._serve_one, daemon=True)

    def _serve_one(self) -> None:
        conn, _ = self.listener.accept()
        with conn:
            head = b""
            while b"\r\n\r\n" not in head:
                head += conn.recv(65536)
            header, _, body = head.partition(b"\r\n\r\n")
            length = next(
                int(line.split(b":", 1)[1])
                for line in header.split(b"\r\n")
                if line.lower().startswith(b"content-length:")
            )
            while len(body) < length:
                body += conn.recv(65536)
            self.requests += 1
            try:
                conn.sendall(
                    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                    b"Transfer-Encoding: chunked\r\n\r\n"
                )
                # Not JSON: read whole, it would fail fast as "not a chat completion".
                chunk = b"%x\r\n%s\r\n" % (self.piece, b"x" * self.piece)
                while self.sent < self.total:
                    conn.sendall(chunk)
                    self.sent += self.piece
                conn.sendall(b"0\r\n\r\n")
            except OSError:
                pass  # the client hung up, as it should past the cap

    def __enter__(self) -> "ChunkedServer":
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.listener.close()


@pytest.fixture
def chunked() -> Iterator[ChunkedServer]:
    with ChunkedServer(total=64 * 1024 * 1024) as server:
        yield server


class TestChunkedBody:
    def test_a_chunked_body_stops_at_the_cap_unread(
        self, judge: ScriptedJudge, chunked: ChunkedServer
    ) -> None:
        error = failure(
            judge,
            base_url=f"http://127.0.0.1:{chunked.port}/v1",
            max_response_bytes=CAP,
        )
        assert_too_large(error, "judge", f"127.0.0.1:{chunked.port}")
        chunked.thread.join()
        assert chunked.requests == 1
        # The connection was closed, not drained: most of the 64 MiB was never sent.
        assert chunked.sent < chunked.total // 2


class TestSetting:
    def test_the_setting_reaches_every_endpoint(self) -> None:
        assert Settings().max_model_response_bytes == DEFAULT_MAX_RESPONSE_BYTES == 8 * 1024**2
        settings = Settings(max_model_response_bytes=CAP)
        for role in ("judge", "candidate"):
            built = endpoint_for(settings, "http://127.0.0.1:1/v1", "", "m", role)
            assert built.max_response_bytes == CAP


class TestEvaluation:
    def test_an_oversized_judge_reply_is_stored_on_the_result(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        cap = api.settings.max_model_response_bytes

        def huge_scores(request: dict) -> Reply | dict:
            if task_of(request) == "g_eval_score":
                return Reply(raw_body=completion('{"reason": "ok", "score": 8}', cap + 1))
            return plausible_answer(request)

        results = g_eval_twice(api, judge, huge_scores)
        assert [r["error"]["type"] for r in results] == ["judge_malformed"] * 2
        for result in results:
            assert f"more than {cap} bytes" in result["error"]["message"]
            assert f"127.0.0.1:{judge.port}" in result["error"]["message"]
        # Once per case: neither retried nor sent back for repair.
        assert len(judge.calls_for("g_eval_score")) == 2
