"""The Python client sends a request again when Loupe asks it to (a 429 or 503 with
Retry-After, or no answer at all) only where that cannot store anything twice: a read, or a
POST under an Idempotency-Key. A wait polls through the service being away until its deadline,
and a Retry-After past the client's limit (a daily budget, until midnight UTC) is the caller's,
raised at once rather than slept through."""

import asyncio
import http.server
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from loupe_client import (
    AsyncLoupe,
    ExactMatch,
    ImageUrlPart,
    Loupe,
    RateLimitError,
    ServerError,
)
from loupe_client import _resources as sync_resources
from redis import Redis

from app.tenants import limits, repository
from tests.fixtures.api import Api, postgres_settings, served_api
from tests.fixtures.services import PostgresServer, RedisServer, running_postgres
from tests.sdk.helpers import HeldImage

CASE = {"input": "q", "actual_output": "a", "expected_output": "a"}


class Answers:
    """Every answer the client received, as (method, path, status), from httpx's event hook."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str, int]] = []
        self.lock = threading.Lock()

    def hook(self, response: httpx.Response) -> None:
        with self.lock:
            self.seen.append(
                (response.request.method, response.request.url.path, response.status_code)
            )

    async def async_hook(self, response: httpx.Response) -> None:
        self.hook(response)

    def of(self, method: str, path: str) -> list[int]:
        with self.lock:
            return [status for m, p, status in self.seen if (m, p) == (method, path)]

    def wait_for(self, method: str, path: str, status: int) -> None:
        while status not in self.of(method, path):
            time.sleep(0.05)


class InThread:
    """`call()` started in a thread; `result()` joins it and returns or raises its outcome."""

    def __init__(self, call: Callable[[], Any]) -> None:
        self.outcome: dict[str, Any] = {}
        self.thread = threading.Thread(target=self._run, args=(call,), daemon=True)
        self.thread.start()

    def _run(self, call: Callable[[], Any]) -> None:
        try:
            self.outcome["value"] = call()
        except BaseException as exc:  # handed to the test
            self.outcome["error"] = exc

    def running(self) -> bool:
        return self.thread.is_alive()

    def result(self) -> Any:
        self.thread.join()
        if "error" in self.outcome:
            raise self.outcome["error"]
        return self.outcome["value"]


@pytest.fixture
def postgres() -> Iterator[PostgresServer]:
    with running_postgres() as server:
        yield server


class TestDatabaseRestart:
    def test_reads_and_keyed_creates_are_sent_again_and_a_create_without_a_key_once(
        self, postgres: PostgresServer, redis_server: RedisServer
    ) -> None:
        settings = postgres_settings(postgres, redis_server)
        answers = Answers()
        hooks = {"trust_env": False, "event_hooks": {"response": [answers.hook]}}
        with served_api(settings, Redis.from_url(redis_server.url)) as api:
            client = Loupe(api.base_url, api.new_key(), httpx_args=hooks)
            first = client.evaluations.create(test_cases=[CASE], metrics=[ExactMatch()])
            path = f"/v1/evaluations/{first.id}"
            postgres.stop()
            try:
                with pytest.raises(ServerError) as away:
                    client.evaluations.create(test_cases=[CASE], metrics=[ExactMatch()])
                # Without a key a second send could store it twice: sent once, raised.
                assert away.value.status == 503 and answers.of("POST", "/v1/evaluations") == [
                    202,
                    503,
                ]
                read = InThread(lambda: client.evaluations.get(first.id))
                answers.wait_for("GET", path, 503)
                keyed = InThread(
                    lambda: client.evaluations.create(
                        name="keyed",
                        test_cases=[CASE],
                        metrics=[ExactMatch()],
                        idempotency_key="restart-1",
                    )
                )
                while answers.of("POST", "/v1/evaluations").count(503) < 2:
                    time.sleep(0.05)
            finally:
                postgres.start()
            assert read.result().id == first.id
            created = keyed.result()
            # The keyed create was sent again after the server's Retry-After and stored once.
            assert [e.id for e in client.evaluations.list(name="keyed")] == [created.id]
            assert answers.of("GET", path)[0] == 503 and answers.of("GET", path)[-1] == 200
            assert answers.of("POST", "/v1/evaluations")[-1] == 202
            client.close()

    def test_a_wait_polls_through_the_database_away_until_the_evaluation_is_done(
        self, postgres: PostgresServer, redis_server: RedisServer
    ) -> None:
        settings = postgres_settings(postgres, redis_server)
        answers = Answers()
        hooks = {"trust_env": False, "event_hooks": {"response": [answers.hook]}}
        with served_api(settings, Redis.from_url(redis_server.url)) as api:
            # No sends again of a single poll: the wait itself polls through the outage.
            client = Loupe(api.base_url, api.new_key(), max_retries=0, httpx_args=hooks)
            created = client.evaluations.create(test_cases=[CASE], metrics=[ExactMatch()])
            path = f"/v1/evaluations/{created.id}"
            postgres.stop()
            try:
                waiting = InThread(lambda: client.evaluations.wait(created.id, timeout=300))
                answers.wait_for("GET", path, 503)
            finally:
                postgres.start()
            while waiting.running():
                api.run_queue()
                time.sleep(0.05)
            evaluation = waiting.result()
            assert evaluation.status == "completed"
            assert 503 in answers.of("GET", path)
            client.close()


class TestLongRetryAfter:
    def test_a_spent_daily_budget_is_raised_at_once_not_slept_through(
        self, api: Api, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        # The budget's 429 asks to wait until midnight UTC: append_all slept that long, four
        # times. The SDK's clock is swapped for one that records instead of sleeping.
        slept: list[float] = []
        clock = SimpleNamespace(sleep=slept.append, monotonic=time.monotonic)
        monkeypatch.setattr(sync_resources, "time", clock)
        name = f"sdk-budget-{api.mode}"
        key = api.new_key(name)
        with Loupe(api.base_url, key, httpx_args={"trust_env": False}) as client:
            opened = client.evaluations.create_open(metrics=[ExactMatch()])
            with api.served.runtime.session() as session:
                tenant = repository.tenant_by_name(session, name)
                assert tenant is not None
                limits.set_limits(session, tenant, daily_usd=0)
                session.commit()
            with pytest.raises(RateLimitError) as refused:
                client.evaluations.append_all(opened.id, [CASE], idempotency_prefix="budget")
        assert refused.value.retry_after is not None and refused.value.retry_after > 60
        assert "daily_usd" in (refused.value.detail or "")
        assert slept == []


class TestKeyInProgress:
    def test_a_keyed_create_that_timed_out_gets_its_first_sends_answer_once_stored(
        self, api: Api
    ) -> None:
        # The first send fetches an image that is held, so it outlasts the client's timeout;
        # sent again under its key, Loupe answers 409 while the first runs: that was raised.
        answers = Answers()
        hooks = {"trust_env": False, "event_hooks": {"response": [answers.hook]}}
        name = f"held-{api.mode}"
        with HeldImage(hold_limit=30) as image:
            client = Loupe(
                api.base_url, api.new_key(), timeout=0.5, max_retries=10, httpx_args=hooks
            )
            case = {
                "input": ["What?", ImageUrlPart(image.url)],
                "actual_output": "a",
                "expected_output": "a",
            }
            creating = InThread(
                lambda: client.evaluations.create(
                    name=name, test_cases=[case], metrics=[ExactMatch()], idempotency_key=name
                )
            )
            answers.wait_for("POST", "/v1/evaluations", 409)
            image.release()
            created = creating.result()
        assert image.fetches == 1
        assert [e.id for e in client.evaluations.list(name=name)] == [created.id]
        assert answers.of("POST", "/v1/evaluations")[-1] == 202
        client.close()

    def test_the_async_client_does_the_same(self, api: Api) -> None:
        answers = Answers()
        hooks = {"trust_env": False, "event_hooks": {"response": [answers.async_hook]}}
        name = f"held-async-{api.mode}"

        async def create(image_url: str) -> Any:
            async with AsyncLoupe(
                api.base_url, api.new_key(), timeout=0.5, max_retries=10, httpx_args=hooks
            ) as client:
                case = {**CASE, "input": ["What?", ImageUrlPart(image_url)]}
                created = await client.evaluations.create(
                    name=name, test_cases=[case], metrics=[ExactMatch()], idempotency_key=name
                )
                return created, [e.id async for e in client.evaluations.list(name=name)]

        with HeldImage(hold_limit=30) as image:
            creating = InThread(lambda: asyncio.run(create(image.url)))
            answers.wait_for("POST", "/v1/evaluations", 409)
            image.release()
            created, named = creating.result()
        assert image.fetches == 1 and named == [created.id]


class Ingress:
    """A loopback proxy in front of the API, as an ingress with its own rate limit: it answers
    the first `refusals` requests 503 with a Retry-After HTTP-date `ahead` seconds from then,
    and forwards the rest. `seen` lists each request's path."""

    def __init__(self, upstream: str, refusals: int, ahead: float) -> None:
        self.seen: list[str] = []
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                proxy.seen.append(self.path)
                if len(proxy.seen) <= refusals:
                    moment = datetime.now(UTC) + timedelta(seconds=ahead)
                    self.send_response(503)
                    self.send_header("Retry-After", format_datetime(moment, usegmt=True))
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                headers = {"authorization": self.headers["authorization"]}
                with httpx.Client(trust_env=False) as client:
                    answer = client.get(upstream + self.path, headers=headers)
                self.send_response(answer.status_code)
                self.send_header("Content-Type", answer.headers["content-type"])
                self.send_header("Content-Length", str(len(answer.content)))
                self.end_headers()
                self.wfile.write(answer.content)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class TestHttpDateRetryAfter:
    """Loupe sends Retry-After in seconds; a proxy in front of it may send an HTTP-date. Read
    as absent before, an hour's date was retried at once, four times, instead of raised."""

    def test_a_date_an_hour_ahead_is_raised_at_once(self, api: Api) -> None:
        ingress = Ingress(api.base_url, refusals=10, ahead=3600)
        try:
            with (
                Loupe(
                    ingress.url,
                    api.new_key(f"sdk-date-{api.mode}"),
                    httpx_args={"trust_env": False},
                ) as client,
                pytest.raises(ServerError) as refused,
            ):
                list(client.evaluations.list())
        finally:
            ingress.close()
        assert len(ingress.seen) == 1 and refused.value.status == 503

    def test_a_date_moments_ahead_is_waited_for_then_answered(self, api: Api) -> None:
        ingress = Ingress(api.base_url, refusals=1, ahead=1)
        try:
            with Loupe(
                ingress.url,
                api.new_key(f"sdk-date-soon-{api.mode}"),
                httpx_args={"trust_env": False},
            ) as client:
                listed = list(client.evaluations.list())
        finally:
            ingress.close()
        assert len(ingress.seen) == 2 and listed == []
