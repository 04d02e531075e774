"""Loupe's requests to the identity provider go where the address policy looked and read what a
provider sends in reason: the environment's proxy is not used (it would resolve the host again,
past the policy's check), and an answer past `oidc.MAX_ANSWER_BYTES` ends the sign-in, never
inflated or held in memory whole. All on loopback: a real provider (oidc-provider-mock), a
recording "proxy" and a provider stand-in answering a huge discovery document."""

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from app.people import oidc
from tests.fixtures.api import side_app
from tests.people.provider import Provider, browser, person, settings_for, sign_in


@contextmanager
def serving(handler: type[BaseHTTPRequestHandler]) -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


class Recorder(BaseHTTPRequestHandler):
    """A proxy that records what reaches it and answers 502."""

    seen: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        Recorder.seen.append(self.path)
        self.send_error(502)

    do_POST = do_GET  # noqa: N815

    def log_message(self, *args: object) -> None:
        pass


def test_the_environments_proxy_is_not_used(
    tmp_path: Path, idp: Provider, monkeypatch: pytest.MonkeyPatch
) -> None:
    with serving(Recorder) as proxy:
        for name in ("HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "ALL_PROXY"):
            monkeypatch.setenv(name, proxy)
        monkeypatch.delenv("NO_PROXY", raising=False)
        monkeypatch.delenv("no_proxy", raising=False)
        with side_app(tmp_path, **settings_for(idp.issuer)) as loupe:
            loupe.new_key("ml")
            done = sign_in(browser(loupe), person(idp, "ml"))
            assert done.status_code == 200, done.text
    assert Recorder.seen == []


class Huge(BaseHTTPRequestHandler):
    """A provider whose discovery document is past the cap (and says so in no header)."""

    def do_GET(self) -> None:  # noqa: N802
        issuer = f"http://127.0.0.1:{self.server.server_port}"
        padding = "x" * (oidc.MAX_ANSWER_BYTES + 1)
        body = json.dumps({"issuer": issuer, "padding": padding}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def test_an_answer_past_the_cap_ends_the_sign_in(tmp_path: Path) -> None:
    with serving(Huge) as issuer, side_app(tmp_path, **settings_for(issuer)) as loupe:
        answer = browser(loupe).get("/console/oidc/start")
    assert answer.status_code == 502
    assert f"longer than {oidc.MAX_ANSWER_BYTES} bytes" in answer.text
