"""Bodies over LOUPE_MAX_BODY_BYTES: the 413 reaches a client that is still uploading.

A raw socket stands for clients such as Node's fetch, which lose an answer sent before their
upload ends: the server must read the rest of the body (up to a bound) before it answers.
"""

import json
import socket
from pathlib import Path
from urllib.parse import urlsplit

from tests.fixtures.api import Api, side_app


def exchange(api: Api, head: dict[str, str], body: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send a POST /v1/evaluations with `head` and the whole `body`, then read the answer."""
    address = urlsplit(api.base_url)
    lines = ["POST /v1/evaluations HTTP/1.1", f"Host: {address.netloc}"]
    lines += [f"{name}: {value}" for name, value in head.items()]
    with socket.create_connection((address.hostname, address.port), timeout=60) as sock:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        # A reset here is the defect: the server answered and closed while we were sending.
        sock.sendall(body)
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += sock.recv(65536) or b"<closed before the answer's head>"
        head_part, _, content = answer.partition(b"\r\n\r\n")
        status_line, *header_lines = head_part.decode().split("\r\n")
        headers = {
            name.lower(): value.strip()
            for name, value in (line.split(":", 1) for line in header_lines)
        }
        while len(content) < int(headers["content-length"]):
            content += sock.recv(65536) or b"<closed before the answer's body>"
    return int(status_line.split()[1]), headers, content


def problem(headers: dict[str, str], content: bytes) -> dict:
    assert headers["content-type"] == "application/problem+json"
    return json.loads(content)


class TestTooLarge:
    def test_a_declared_length_over_the_limit_is_read_then_refused(self, api: Api) -> None:
        # Three times the limit: more than the loopback socket buffers hold, so the upload is
        # still going when the server has seen the Content-Length.
        size = 3 * api.settings.max_body_bytes
        status, headers, content = exchange(
            api,
            {"Content-Type": "application/json", "Content-Length": str(size)},
            b" " * size,
        )
        assert status == 413
        answer = problem(headers, content)
        assert answer["type"] == "https://loupe.dev/problems/body-too-large"
        assert "LOUPE_MAX_BODY_BYTES" in answer["detail"]
        # The field at fault is named, as in every other problem.
        assert [(e["loc"], e["type"]) for e in answer["errors"]] == [("body", "too_large")]

    def test_a_chunked_body_over_the_limit_is_refused(self, api: Api) -> None:
        chunk = b" " * 65536
        count = 3 * api.settings.max_body_bytes // len(chunk)
        framed = (f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n") * count + b"0\r\n\r\n"
        # With a working key: a caller without one is refused before its body is read.
        key = api.new_key()
        status, headers, content = exchange(
            api,
            {
                "Content-Type": "application/json",
                "Transfer-Encoding": "chunked",
                "Authorization": f"Bearer {key}",
            },
            framed,
        )
        assert status == 413
        answer = problem(headers, content)
        assert "LOUPE_MAX_BODY_BYTES" in answer["detail"]
        assert [error["loc"] for error in answer["errors"]] == ["body"]

    def test_expect_continue_is_refused_before_the_body_is_sent(self, api: Api) -> None:
        # The client waits for 100 Continue before uploading; it gets the 413 instead.
        status, headers, content = exchange(
            api,
            {
                "Content-Type": "application/json",
                "Content-Length": str(3 * api.settings.max_body_bytes),
                "Expect": "100-continue",
            },
            b"",
        )
        assert status == 413
        assert "LOUPE_MAX_BODY_BYTES" in problem(headers, content)["detail"]


def head_answer(
    api: Api, header_value: str, *, complete: bool
) -> tuple[int, dict[str, str], bytes]:
    """Send a GET whose one header holds `header_value` (and, `complete`, the blank line ending
    the head), then read the answer to its end."""
    address = urlsplit(api.base_url)
    head = f"GET /v1/evaluations HTTP/1.1\r\nHost: {address.netloc}\r\nX-Padding: {header_value}"
    with socket.create_connection((address.hostname, address.port), timeout=60) as sock:
        sock.sendall(head.encode() + (b"\r\n\r\n" if complete else b""))
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
            if b"\r\n\r\n" in answer:
                head_part, _, content = answer.partition(b"\r\n\r\n")
                length = next(
                    int(line.split(b":", 1)[1])
                    for line in head_part.split(b"\r\n")
                    if line.lower().startswith(b"content-length:")
                )
                if len(content) >= length:
                    break
    status_line, *header_lines = head_part.decode().split("\r\n")
    headers = {
        name.lower(): value.strip() for name, value in (line.split(":", 1) for line in header_lines)
    }
    return int(status_line.split()[1]), headers, content


class TestHeadTooLarge:
    def test_a_head_past_the_limit_is_refused_before_it_ends(self, api: Api) -> None:
        # The head never ends: the answer comes once it has passed the limit (uvicorn read a
        # header of any size whole, in time growing with its square).
        limit = api.settings.max_header_bytes
        status, headers, content = head_answer(api, "a" * (limit + 1024), complete=False)
        assert status == 431
        answer = problem(headers, content)
        assert answer["type"] == "https://loupe.dev/problems/header-too-large"
        assert "LOUPE_MAX_HEADER_BYTES" in answer["detail"]
        assert [(e["loc"], e["type"]) for e in answer["errors"]] == [("header", "too_large")]
        assert headers["connection"] == "close"

    def test_a_head_within_the_limit_is_answered(self, api: Api) -> None:
        status, _, content = head_answer(
            api, "a" * (api.settings.max_header_bytes - 1024), complete=True
        )
        # No key was sent: the request itself was read and answered.
        assert status == 401, content

    def test_a_head_that_is_not_http_is_a_problem(self, api: Api) -> None:
        # A control character in a header value: httptools refuses it, and uvicorn answered
        # with a text/plain line.
        status, headers, content = head_answer(api, "a\x01b", complete=True)
        assert status == 400
        answer = problem(headers, content)
        assert answer["type"] == "https://loupe.dev/problems/malformed-http"
        assert [(e["loc"], e["type"]) for e in answer["errors"]] == [("header", "invalid_http")]


class TestHeadTimeout:
    def test_a_head_that_does_not_arrive_in_time_is_a_408(self, tmp_path: Path) -> None:
        # uvicorn held a connection that sent half a head, or nothing, open for good.
        with side_app(tmp_path, header_timeout_seconds=0.5) as app:
            status, headers, content = head_answer(app, "half a head", complete=False)
            assert status == 408
            answer = problem(headers, content)
            assert answer["type"] == "https://loupe.dev/problems/header-timeout"
            assert "LOUPE_HEADER_TIMEOUT_SECONDS" in answer["detail"]
            assert [(e["loc"], e["type"]) for e in answer["errors"]] == [("header", "timeout")]
            address = urlsplit(app.base_url)
            with socket.create_connection((address.hostname, address.port), timeout=60) as sock:
                assert sock.recv(65536).startswith(b"HTTP/1.1 408 ")
            # A head that arrives in time is answered as ever.
            status, _, _ = head_answer(app, "a", complete=True)
            assert status == 401
