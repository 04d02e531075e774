"""Clients that send or read slowly hold no pooled database connection.

A request that checked its key and then waited on its client kept the session's connection
checked out: an OTLP export or a label import trickling its body in, an export whose client
read nothing. A handful of such clients of one tenant took the whole pool (15 connections on
SQLite, 30 on PostgreSQL), and every other request waited 30 s for one, then got a 503.
The pool's count of checked-out connections is read while the clients stall.
"""

import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit

import pytest

from tests.fixtures.api import Api

# Fewer than either pool holds, so an old-style hold shows as this many checked out rather
# than as requests waiting; more than background work (the ticker) ever holds at once.
STALLED = 6


def checked_out(api: Api) -> int:
    return api.served.runtime.engine.pool.checkedout()  # type: ignore[attr-defined]


def released(api: Api) -> bool:
    """Whether the stalled requests' connections go back to the pool (polled: the exports
    read a page or two more before their sends block on the clients)."""
    deadline = time.monotonic() + 30
    while checked_out(api) >= STALLED:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@contextmanager
def stalled(api: Api, heads: list[bytes]) -> Iterator[list[socket.socket]]:
    """Connections that sent these request heads (and whatever follows them), then stall."""
    address = urlsplit(api.base_url)
    sockets = []
    try:
        for head in heads:
            sock = socket.socket()
            # A small receive window, so an answer of a few MB is still being sent.
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.settimeout(60)
            sock.connect((address.hostname, address.port))
            sock.sendall(head)
            sockets.append(sock)
        yield sockets
    finally:
        for sock in sockets:
            sock.close()


def request_head(api: Api, method: str, path: str, key: str, **headers: str) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", f"Host: {urlsplit(api.base_url).netloc}"]
    lines += [f"Authorization: Bearer {key}"]
    lines += [f"{name.replace('_', '-')}: {value}" for name, value in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


class TestSlowBodies:
    @pytest.mark.parametrize(
        ("path", "content_type"),
        [
            ("/v1/traces", "application/x-protobuf"),
            ("/v1/logs", "application/json"),
            ("/v1/labels/import", "application/x-ndjson"),
        ],
    )
    def test_a_body_trickling_in_holds_no_connection(
        self, api: Api, path: str, content_type: str
    ) -> None:
        key = api.new_key()
        head = request_head(
            api, "POST", path, key, Content_Type=content_type, Content_Length="1000000"
        )
        with stalled(api, [head + b"{"] * STALLED), api.client(key) as client:
            # Answered after the stalled requests arrived: they have been read as far as
            # they go.
            assert client.get("/v1/evaluations").status_code == 200
            assert checked_out(api) < STALLED


class TestSlowReaders:
    def test_an_export_read_slowly_holds_no_connection(self, api: Api) -> None:
        key = api.new_key()
        cases = [
            {"id": f"q{i}", "input": "q" * 500, "actual_output": "a" * 1000, "expected_output": "a"}
            for i in range(2500)
        ]
        with api.client(key) as client:
            made = client.post(
                "/v1/evaluations",
                json={"name": "export", "metrics": [{"type": "exact_match"}], "test_cases": cases},
            )
            assert made.status_code == 202, made.text
            evaluation_id = made.json()["id"]
            assert api.wait(client, evaluation_id)["status"] == "completed"
            path = f"/v1/evaluations/{evaluation_id}/results/export"
            with stalled(api, [request_head(api, "GET", path, key)] * STALLED) as sockets:
                for sock in sockets:
                    # The first page is being sent: its rows were read.
                    assert b"\r\n\r\n" in sock.recv(4096, socket.MSG_PEEK | socket.MSG_WAITALL)
                # The next pages are read while the first fills the socket's buffers (each in
                # a session it closes); then every export waits on its client. Held for the
                # client, the connections stayed checked out until it read (7 or 12 seen).
                assert released(api)
