"""Judge requests in flight past LOUPE_JUDGE_CONCURRENCY (issue 31): an endpoint that states no
rate limit and never answers 429 lets the limit grow, up to LOUPE_JUDGE_MAX_CONCURRENCY, while
requests wait and the event loop has time to spare; a stated limit or a 429 holds today's cap."""

import asyncio
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from redis import Redis

from app import migrate
from app import runtime as runtime_module
from app.judges import JudgeClient
from app.judges._pacing import QUIET_CHECK_SECONDS
from tests.evaluations.test_endpoints import judged_body
from tests.evaluations.test_tasks import fresh_judge
from tests.fixtures.api import Api, ServedApp, sqlite_settings
from tests.fixtures.judge import Reply, ScriptedJudge
from tests.fixtures.metrics import endpoint
from tests.fixtures.services import RedisServer
from tests.telemetry.test_scrape import samples, value

MESSAGES = [{"role": "user", "content": "hi"}]
CAP, CEILING = 3, 12


def growing_endpoint(judge: ScriptedJudge) -> Any:
    # A key of its own: another test's pace on the shared judge must not count.
    return endpoint(
        judge,
        api_key=f"sk-{uuid.uuid4().hex}",
        role="candidate",
        concurrency=CAP,
        max_concurrency=CEILING,
    )


def in_flight_on_arrival(judge: ScriptedJudge, seen: list[int], **headers: str) -> None:
    def respond(request: dict) -> Reply:
        seen.append(judge.in_flight)
        return Reply(content="an answer", headers=headers)

    judge.script(respond)


async def calls(client: JudgeClient, count: int) -> None:
    await asyncio.gather(*(client.generate(MESSAGES) for _ in range(count)))


def run(judge: ScriptedJudge, *steps: Any) -> None:
    async def go() -> None:
        client = JudgeClient(growing_endpoint(judge))
        try:
            for step in steps:
                await step(client)
        finally:
            await client.close()

    asyncio.run(go())


class TestGrowth:
    def test_the_limit_grows_past_the_cap_up_to_the_ceiling(self, judge: ScriptedJudge) -> None:
        fresh_judge(judge)
        seen: list[int] = []
        in_flight_on_arrival(judge, seen)
        judge.latency = 0.05
        run(judge, lambda client: calls(client, 240))
        assert len(seen) == 240
        assert CAP < judge.max_in_flight <= CEILING

    def test_a_stated_rate_limit_keeps_the_cap(self, judge: ScriptedJudge) -> None:
        fresh_judge(judge)
        seen: list[int] = []
        # A limit far above what the test sends: pacing itself never holds a request back.
        in_flight_on_arrival(judge, seen, **{"x-ratelimit-limit-requests": "10000000"})
        judge.latency = 0.05
        run(judge, lambda client: calls(client, 240))
        assert len(seen) == 240 and judge.max_in_flight <= CAP

    def test_a_429_brings_the_limit_back_under_the_cap(self, judge: ScriptedJudge) -> None:
        fresh_judge(judge)
        seen: list[int] = []
        in_flight_on_arrival(judge, seen)
        judge.latency = 0.05
        after: list[int] = []

        async def refuse_once(client: JudgeClient) -> None:
            judge.sequence(Reply(status=429, headers={"retry-after": "0"}), "an answer")
            await client.generate(MESSAGES)

        async def then_more(client: JudgeClient) -> None:
            in_flight_on_arrival(judge, after)
            await calls(client, 120)

        run(judge, lambda client: calls(client, 240), refuse_once, then_more)
        assert max(seen) > CAP  # it had grown
        assert len(after) == 120 and max(after) <= CAP

    def test_a_loop_with_no_time_to_spare_holds_the_limit(self, judge: ScriptedJudge) -> None:
        fresh_judge(judge)
        seen: list[int] = []
        in_flight_on_arrival(judge, seen)
        judge.latency = 0.05

        async def busy_while(client: JudgeClient) -> None:
            work = asyncio.ensure_future(calls(client, 120))
            while not work.done():
                time.sleep(0.08)  # the loop's own work, holding it: timers run late
                await asyncio.sleep(0.002)
            await work

        run(judge, busy_while)
        assert len(seen) == 120 and judge.max_in_flight <= CAP


@pytest.fixture
def growing_api(judge: ScriptedJudge, tmp_path: Path) -> Iterator[Api]:
    """The embedded service with a small cap and a ceiling above it."""
    settings = sqlite_settings(
        tmp_path,
        judge_base_url=judge.base_url,
        judge_concurrency=CAP,
        judge_max_concurrency=CEILING,
    )
    migrate.upgrade(settings)
    previous = runtime_module._current
    try:
        with ServedApp(settings) as served:
            yield Api(mode="embedded", served=served, redis=None)
    finally:
        runtime_module._current = previous


def test_an_evaluation_keeps_more_judge_calls_in_flight_than_the_cap(
    growing_api: Api, judge: ScriptedJudge
) -> None:
    fresh_judge(judge)
    # Long enough answers that the grown limit lasts through several scrapes of /metrics,
    # however slowly a loaded machine answers them (at 0.05 s a run was over unseen).
    judge.latency = 0.25
    client = growing_api.tenant_client()
    judge_series = {"role": "judge", "host": "127.0.0.1"}
    # The process's other judge clients count in the same series: what this one adds is seen.
    before = samples(growing_api.client().get("/metrics").text)
    created = client.post("/v1/evaluations", json=judged_body(200))
    assert created.status_code == 202, created.text
    # /metrics while it runs: the limit as it grows, and the requests in flight.
    limits, in_flight = [], []
    with growing_api.client() as scraper:
        while client.get(f"/v1/evaluations/{created.json()['id']}").json()["status"] in (
            "queued",
            "in_progress",
        ):
            scraped = samples(scraper.get("/metrics").text)
            limits.append(
                value(scraped, "loupe_provider_in_flight_limit", **judge_series)
                - value(before, "loupe_provider_in_flight_limit", **judge_series)
            )
            in_flight.append(value(scraped, "loupe_provider_in_flight", **judge_series))
            time.sleep(0.02)
        after = samples(scraper.get("/metrics").text)
    final = growing_api.wait(client, created.json()["id"])
    assert final["status"] == "completed" and final["result_counts"]["errored"] == 0
    # Each request answered once: a loaded machine may have let one pass the suite's 2 s judge
    # timeout, to be retried, which counts as a failed call, never as a second answer.
    usage = final["usage"]
    assert len(judge.requests) == usage["calls"] + usage["failed_calls"]
    assert len(judge.calls_for("g_eval_score")) - usage["failed_calls"] <= 200
    assert CAP < judge.max_in_flight <= CEILING
    assert CAP < max(limits) <= CEILING and CAP < max(in_flight) <= CEILING
    # Idle again, the limit is back at the cap (no waiting requests to grow for), and nothing
    # is left in flight.
    assert value(after, "loupe_provider_in_flight", **judge_series) == 0
    assert value(after, "loupe_provider_in_flight_limit", **judge_series) - value(
        before, "loupe_provider_in_flight_limit", **judge_series
    ) == pytest.approx(CAP)


def test_requests_queued_on_the_schedule_do_not_each_ask_redis(
    judge: ScriptedJudge, redis_server: RedisServer
) -> None:
    """No rate stated: the shared schedule is asked at most once per quiet interval, not once
    per request that queued behind the one asking (a round trip apiece, one at a time)."""
    fresh_judge(judge)
    judge.script(lambda request: Reply(content="an answer"))
    judge.latency = 0.05
    redis = Redis.from_url(redis_server.url)
    redis.config_resetstat()
    started = time.monotonic()

    async def go() -> None:
        client = JudgeClient(
            endpoint(
                judge,
                api_key=f"sk-{uuid.uuid4().hex}",
                role="candidate",
                concurrency=64,
                pace_url=redis_server.url,
            )
        )
        try:
            await calls(client, 300)
        finally:
            await client.close()

    asyncio.run(go())
    elapsed = time.monotonic() - started
    asked = redis.info("commandstats").get("cmdstat_evalsha", {}).get("calls", 0)
    asked += redis.info("commandstats").get("cmdstat_eval", {}).get("calls", 0)
    redis.close()
    assert len(judge.requests) == 300
    # Once per QUIET_CHECK_SECONDS at most (and the first request's), far from 300.
    assert asked <= elapsed / QUIET_CHECK_SECONDS + 2
