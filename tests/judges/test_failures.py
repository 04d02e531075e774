"""Each way a judge or candidate endpoint can fail has its own error type, and every message
names the endpoint's host, never its key.

The endpoints are loopback stand-ins: a closed port (refused), a socket that accepts and never
answers (stalls), a plain-HTTP server behind an https URL and a server whose certificate no one
trusts (TLS), the scripted judge answering 429 / 500 / garbage, and names under `.test` that
the patched resolver refuses (DNS) so no lookup leaves the machine.
"""

import asyncio
import socket
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import BaseModel

from app.judges import JudgeClient, JudgeError
from tests.fixtures.judge import Reply, ScriptedJudge
from tests.fixtures.metrics import endpoint
from tests.fixtures.services import free_port
from tests.media.certs import Authority, server_context
from tests.media.loopback import LoopbackServer, Route

KEY = "sk-never-shown-0123456789"


class Answer(BaseModel):
    verdict: str


def failure(judge: ScriptedJudge, role: str = "judge", **overrides: Any) -> JudgeError:
    """The JudgeError one call raises (`call` for a judge, `generate` for a candidate)."""

    async def go() -> None:
        client = JudgeClient(endpoint(judge, role=role, api_key=KEY, max_attempts=2, **overrides))
        try:
            if role == "judge":
                await client.call([{"role": "user", "content": "judge this"}], Answer)
            else:
                await client.generate([{"role": "user", "content": "answer this"}])
        finally:
            await client.close()

    with pytest.raises(JudgeError) as caught:
        asyncio.run(go())
    error = caught.value
    assert KEY not in error.message and KEY not in repr(error)
    return error


@pytest.fixture
def stalling() -> Iterator[str]:
    """A base URL whose server accepts connections and never answers."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                accepted.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}/v1"
    stop.set()
    thread.join()
    for conn in accepted:
        conn.close()
    listener.close()


@pytest.fixture
def resolver(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """`.test` names do not resolve; their lookups are recorded, nothing is sent."""
    real = socket.getaddrinfo
    lookups: list[str] = []

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        name = host.decode() if isinstance(host, bytes) else str(host)
        if name.rstrip(".").endswith(".test"):
            lookups.append(name)
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return lookups


@pytest.mark.parametrize("role", ["judge", "candidate"])
class TestFailureTypes:
    def test_refused_connection_is_unreachable_not_timeout(
        self, judge: ScriptedJudge, role: str
    ) -> None:
        port = free_port()
        error = failure(judge, role, base_url=f"http://127.0.0.1:{port}/v1")
        assert (error.type, error.kind) == (f"{role}_unreachable", "unreachable")
        assert f"127.0.0.1:{port} refused the connection" in error.message
        assert "gave up after 2 attempts" in error.message

    def test_stalled_endpoint_is_a_timeout(
        self, judge: ScriptedJudge, role: str, stalling: str
    ) -> None:
        error = failure(judge, role, base_url=stalling, timeout_seconds=0.3)
        assert (error.type, error.kind) == (f"{role}_timeout", "timeout")
        host = stalling.split("//")[1].split("/")[0]
        assert f"{host} did not answer within 0.3 s" in error.message

    def test_unknown_host_is_dns(
        self, judge: ScriptedJudge, role: str, resolver: list[str]
    ) -> None:
        error = failure(judge, role, base_url="http://vllm.test:8000/v1")
        assert (error.type, error.kind) == (f"{role}_dns", "dns")
        assert "vllm.test:8000 does not resolve" in error.message
        assert resolver and set(resolver) == {"vllm.test"}

    def test_plain_http_behind_https_is_tls(self, judge: ScriptedJudge, role: str) -> None:
        base = judge.base_url.replace("http://", "https://")
        error = failure(judge, role, base_url=base)
        assert (error.type, error.kind) == (f"{role}_tls", "tls")
        assert base.split("//")[1].split("/")[0] in error.message

    def test_untrusted_certificate_is_tls(self, judge: ScriptedJudge, role: str) -> None:
        authority = Authority()
        issued = authority.issue(ips=("127.0.0.1",))
        with LoopbackServer(tls=server_context(issued, [])) as server:
            server.routes["/v1/chat/completions"] = Route(body=b"{}")
            error = failure(judge, role, base_url=server.url("/v1"))
        assert (error.type, error.kind) == (f"{role}_tls", "tls")
        assert "certificate" in error.message.lower()

    def test_429_every_time_is_rate_limited(self, judge: ScriptedJudge, role: str) -> None:
        judge.sequence(Reply(status=429, error_code="rate_limit_exceeded"))
        error = failure(judge, role)
        assert (error.type, error.kind) == (f"{role}_rate_limited", "rate_limited")
        assert len(judge.requests) == 2
        assert f"{_host(judge)} rate-limited" in error.message

    def test_500_every_time_is_server_error(self, judge: ScriptedJudge, role: str) -> None:
        judge.sequence(Reply(status=500, content="model crashed"))
        error = failure(judge, role)
        assert (error.type, error.kind) == (f"{role}_server_error", "server_error")
        assert f"{_host(judge)} answered 500: model crashed" in error.message

    def test_garbage_body_is_malformed(self, judge: ScriptedJudge, role: str) -> None:
        judge.sequence(Reply(raw_body=b"<html>502 from a proxy</html>"))
        error = failure(judge, role)
        assert (error.type, error.kind) == (f"{role}_malformed", "malformed")
        assert _host(judge) in error.message
        # Garbage is not the model's words: no repair request is made from it.
        assert len(judge.requests) == 1 and error.usage.calls == 1

    def test_auth_names_the_host_not_the_key(self, judge: ScriptedJudge, role: str) -> None:
        judge.sequence(Reply(status=401, content=f"bad key {KEY[:6]}"))
        error = failure(judge, role)
        assert (error.type, error.kind) == (f"{role}_auth", "auth")
        assert error.message == f"the {role} endpoint {_host(judge)} refused the API key"


class TestJudgeJson:
    def test_unusable_json_twice_is_malformed(self, judge: ScriptedJudge) -> None:
        judge.sequence("not json at all", '{"other": 1}')
        error = failure(judge)
        assert (error.type, error.kind) == ("judge_malformed", "malformed")
        assert "returned unusable JSON twice" in error.message and _host(judge) in error.message
        assert len(judge.requests) == 2


class TestHostInMessages:
    def test_user_info_in_the_url_is_not_named(self, judge: ScriptedJudge) -> None:
        port = free_port()
        error = failure(judge, base_url=f"http://user:{KEY}@127.0.0.1:{port}/v1")
        assert error.type == "judge_unreachable" and f"127.0.0.1:{port}" in error.message


def _host(judge: ScriptedJudge) -> str:
    return judge.base_url.split("//")[1].split("/")[0]
