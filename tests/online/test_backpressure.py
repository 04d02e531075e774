"""Back-pressure at the OTLP receiver (issue 26): with LOUPE_OTLP_MAX_CONCURRENT exports being
taken in, the next one is answered 429 with Retry-After as a `google.rpc.Status` in its own
encoding (the OTLP/HTTP specification's throttling answer, which exporters send again), and
once a place is free again the export sent again is taken in: nothing is lost.

A place is held deterministically: the export waits for its rule's evaluation of the day, whose
row the test holds locked on PostgreSQL, and the test probes only once PostgreSQL reports that
export blocked by the test's own connection (`pg_blocking_pids`), never after a sleep."""

import gzip
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
from google.protobuf import json_format
from google.rpc.status_pb2 import Status
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from redis import Redis
from sqlalchemy import Connection, create_engine, text

from tests.fixtures.api import Api, postgres_settings, served_api
from tests.fixtures.judge import ScriptedJudge
from tests.fixtures.services import PostgresServer, RedisServer
from tests.online.test_receiver import make_rule, semconv_span

PROTOBUF = {"Content-Type": "application/x-protobuf"}
RESOURCE_EXHAUSTED = 8  # google.rpc.Code


def export(span_id: str, question: str) -> dict:
    return {"resourceSpans": [semconv_span(span_id, "app", question)]}


def as_protobuf(body: dict) -> bytes:
    """The OTLP/JSON export in protobuf (OTLP/JSON writes ids in hex, protobuf's JSON base64)."""
    request = json_format.ParseDict(body, ExportTraceServiceRequest())
    spans = [
        span
        for entry in body["resourceSpans"]
        for scope in entry["scopeSpans"]
        for span in scope["spans"]
    ]
    parsed = [
        span
        for entry in request.resource_spans
        for scope in entry.scope_spans
        for span in scope.spans
    ]
    for written, span in zip(spans, parsed, strict=True):
        span.trace_id = bytes.fromhex(written["traceId"])
        span.span_id = bytes.fromhex(written["spanId"])
    return request.SerializeToString()


@contextmanager
def held_day(database_url: str, rule_id: str) -> Iterator[tuple[Connection, Connection]]:
    """The rule's evaluation of the day locked by a connection of the test's (FOR UPDATE, as
    the ingest's `appending.lock` takes it), and a second connection to watch with."""
    engine = create_engine(database_url)
    holder, watcher = engine.connect(), engine.connect()
    try:
        [evaluation_id] = holder.execute(
            text("SELECT evaluation_id FROM online_rule_day WHERE rule_id = :rule"),
            {"rule": rule_id},
        ).scalars()
        locked = holder.execute(
            text("SELECT id FROM evaluation WHERE id = :id FOR UPDATE"), {"id": evaluation_id}
        ).scalars()
        assert list(locked) == [evaluation_id]
        yield holder, watcher
    finally:
        holder.rollback()
        holder.close()
        watcher.close()
        engine.dispose()


def blocked_by(watcher: Connection, holder: Connection) -> list[str]:
    """The queries PostgreSQL reports waiting for a lock the holder has."""
    holder_pid = holder.execute(text("SELECT pg_backend_pid()")).scalar()
    watcher.rollback()  # a fresh snapshot of pg_stat_activity each time
    return list(
        watcher.execute(
            text(
                "SELECT query FROM pg_stat_activity "
                "WHERE :holder = ANY(pg_blocking_pids(pid)) AND wait_event_type = 'Lock'"
            ),
            {"holder": holder_pid},
        ).scalars()
    )


@contextmanager
def place_taken(app: Api, key: str, database_url: str, rule_id: str) -> Iterator[None]:
    """The only place (LOUPE_OTLP_MAX_CONCURRENT=1) held by an export waiting for its rule's
    locked day; on leaving, the day let go and that export answered 200."""
    held: list[httpx.Response] = []
    sender = threading.Thread(
        target=lambda: held.append(_post(app, key, json=export("00f067aa0ba90202", "Still there?")))
    )
    try:
        with held_day(database_url, rule_id) as (holder, watcher):
            sender.start()
            # Probe only once the export holding the place waits for the locked day, its
            # `appending.lock` blocked by the test's connection as PostgreSQL reports it (a
            # probe sent before could take the place itself); the export ending first instead
            # means it never waited, said by its answer.
            while not any(
                "FROM evaluation" in query and "FOR UPDATE" in query
                for query in blocked_by(watcher, holder)
            ):
                sender.join(0.02)
                assert sender.is_alive(), f"the export never waited for the day: {held}"
            yield
            assert sender.is_alive() and not held, "the held export ended while probed"
    finally:
        if sender.is_alive():
            sender.join()
    [first] = held
    assert first.status_code == 200, first.text


class TestBackPressure:
    def test_an_export_past_the_ones_being_taken_in_is_a_429_and_is_taken_when_sent_again(
        self,
        postgres_server: PostgresServer,
        redis_server: RedisServer,
        judge_server: ScriptedJudge,
    ) -> None:
        settings = postgres_settings(
            postgres_server,
            redis_server,
            judge_base_url=judge_server.base_url,
            otlp_max_concurrent=1,
        )
        with served_api(settings, redis=Redis.from_url(redis_server.url)) as app:
            key = app.new_key()
            with app.client(key) as client:
                rule = make_rule(client)
                # The first judged call makes the rule's evaluation of the day.
                assert client.post("/v1/traces", json=export("00f067aa0ba90201", "Hi?")).is_success
            with place_taken(app, key, settings.database_url, rule["id"]):
                late = export("00f067aa0ba90203", "And now?")
                busy = _post(app, key, content=as_protobuf(late), headers=PROTOBUF)
                assert busy.status_code == 429, busy.text
                assert busy.headers["retry-after"] == "1"
                assert busy.headers["content-type"] == "application/x-protobuf"
                status = Status.FromString(busy.content)
                assert status.code == RESOURCE_EXHAUSTED
                assert "LOUPE_OTLP_MAX_CONCURRENT" in status.message
                # An OTLP/JSON export is told so in JSON.
                busy_json = _post(app, key, json=late)
                assert busy_json.status_code == 429, busy_json.text
                assert busy_json.headers["retry-after"] == "1"
                # The receiver's OTLP/JSON dialect: the problem, Status's code and message beside.
                assert busy_json.headers["content-type"] == "application/problem+json"
                problem = busy_json.json()
                assert problem["status"] == 429 and problem["code"] == RESOURCE_EXHAUSTED
                assert "LOUPE_OTLP_MAX_CONCURRENT" in problem["message"]

            # The place is free again: the refused export, sent again, is taken in.
            again = _post(app, key, content=as_protobuf(late), headers=PROTOBUF)
            assert again.status_code == 200, again.text
            assert not ExportTraceServiceResponse.FromString(again.content).HasField(
                "partial_success"
            )
            with app.client(key) as client:
                counts = client.get(f"/v1/online_rules/{rule['id']}").json()["counts"]
                assert counts["received"] == 3, counts
                assert counts["sampled"] == 3 and not counts["skipped"], counts
            # Each call stored once, as a test case of the day (its span id as client id).
            assert _kept_span_ids(settings.database_url) == [
                "00f067aa0ba90201",
                "00f067aa0ba90202",
                "00f067aa0ba90203",
            ]

    def test_an_export_without_a_place_is_refused_before_it_is_decompressed(
        self,
        postgres_server: PostgresServer,
        redis_server: RedisServer,
        judge_server: ScriptedJudge,
    ) -> None:
        """The place is taken once the body is read as sent, before it is decompressed: an
        export refused for want of one never grows to its decompressed size. Decompressed
        first, sixteen gzip exports at once took 1.3 GB more than one did, though ten of them
        were refused. A gzip body that would be refused past LOUPE_OTLP_MAX_BYTES once
        decompressed (413) says which came first: without a place it is a 429."""
        settings = postgres_settings(
            postgres_server,
            redis_server,
            judge_base_url=judge_server.base_url,
            otlp_max_concurrent=1,
            otlp_max_bytes=64 * 1024,
        )
        # 4 MiB of zeros gzip to some 4 KiB: small as sent, 64 times the limit decompressed.
        bomb = gzip.compress(b"\0" * (4 << 20))
        assert len(bomb) < settings.otlp_max_bytes
        gzipped = {**PROTOBUF, "Content-Encoding": "gzip"}
        with served_api(settings, redis=Redis.from_url(redis_server.url)) as app:
            key = app.new_key()
            with app.client(key) as client:
                rule = make_rule(client)
                assert client.post("/v1/traces", json=export("00f067aa0ba90201", "Hi?")).is_success
            before = _metrics(app, key)
            with place_taken(app, key, settings.database_url, rule["id"]):
                for path in ("/v1/traces", "/v1/logs"):
                    busy = _post(app, key, url=path, content=bomb, headers=gzipped)
                    assert busy.status_code == 429, busy.text
                    assert busy.headers["retry-after"] == "1"
                    status = Status.FromString(busy.content)
                    assert status.code == RESOURCE_EXHAUSTED
                    assert "LOUPE_OTLP_MAX_CONCURRENT" in status.message
            # With its place, the same body is decompressed, and refused past the limit.
            for path in ("/v1/traces", "/v1/logs"):
                refused = _post(app, key, url=path, content=bomb, headers=gzipped)
                assert refused.status_code == 413, refused.text
                assert refused.headers["content-type"] == "application/x-protobuf"
                status = Status.FromString(refused.content)
                assert status.code == RESOURCE_EXHAUSTED and "65536" in status.message
            # Each answer counted on /metrics under its route and status, as before.
            after = _metrics(app, key)
            for path in ("/v1/traces", "/v1/logs"):
                for code in ("429", "413"):
                    counted = after.get((path, code), 0) - before.get((path, code), 0)
                    assert counted == 1, (path, code, counted)


def _metrics(app: Api, key: str) -> dict[tuple[str, str], float]:
    """loupe_http_requests_total of POST requests by (route, status), read off /metrics."""
    with app.client(key) as client:
        exposition = client.get("/metrics").text
    found: dict[tuple[str, str], float] = {}
    for line in exposition.splitlines():
        if line.startswith("loupe_http_requests_total{") and 'method="POST"' in line:
            labels, value = line.rsplit(" ", 1)
            route = labels.split('route="', 1)[1].split('"', 1)[0]
            status = labels.split('status="', 1)[1].split('"', 1)[0]
            found[(route, status)] = float(value)
    return found


def _post(app: Api, key: str, url: str = "/v1/traces", **request: object) -> httpx.Response:
    with app.client(key) as client:
        return client.post(url, **request)  # type: ignore[arg-type]


def _kept_span_ids(database_url: str) -> list[str]:
    engine = create_engine(database_url)
    try:
        with engine.connect() as connection:
            return sorted(connection.execute(text("SELECT client_id FROM test_case")).scalars())
    finally:
        engine.dispose()
