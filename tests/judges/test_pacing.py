"""Requests paced to the limits an endpoint states, shared by every client through Redis."""

import asyncio
import time
import uuid
from typing import Any

import pytest
from prometheus_client import REGISTRY

from app.judges import JudgeClient
from app.judges._pace_stores import LocalPaceStore, RedisPaceStore
from app.judges._pacing import Pacer, parse_duration, total_tokens
from tests.fixtures.judge import Reply, ScriptedJudge
from tests.fixtures.metrics import endpoint
from tests.fixtures.services import RedisServer, free_port, restartable_redis

RPM = 600  # ten a second
MESSAGES = [{"role": "user", "content": "hi"}]


def limited_answers(arrivals: list[float], **headers: str) -> Any:
    def respond(request: dict) -> Reply:
        arrivals.append(time.monotonic())
        return Reply(
            content="an answer",
            headers={"x-ratelimit-limit-requests": str(RPM), **headers},
        )

    return respond


def busiest(arrivals: list[float], seconds: float) -> int:
    """The most requests that arrived within any window of `seconds`."""
    ordered = sorted(arrivals)
    return max(
        sum(1 for t in ordered[i:] if t - start < seconds) for i, start in enumerate(ordered)
    )


# Past the start (each client's first request, sent before it knows the limit, and the small
# burst a quiet start allows): at most thirty in any three seconds at ten a second, give or
# take the one on the window's edge. Unpaced, all of them would arrive at once.
START = 6
MOST_IN_THREE_SECONDS = 31


async def generate_many(client: JudgeClient, count: int) -> None:
    await asyncio.gather(*(client.generate(MESSAGES) for _ in range(count)))


def fresh_endpoint(judge: ScriptedJudge, **overrides: Any) -> Any:
    # A key of its own: the schedule other tests left for the shared judge must not count.
    return endpoint(judge, api_key=f"sk-{uuid.uuid4().hex}", role="candidate", **overrides)


class TestHeaders:
    @pytest.mark.parametrize(
        ("text", "seconds"),
        [("1s", 1.0), ("6m0s", 360.0), ("20ms", 0.02), ("1h2m3.5s", 3723.5), ("0.5", 0.5)],
    )
    def test_durations(self, text: str, seconds: float) -> None:
        assert parse_duration(text) == pytest.approx(seconds)

    @pytest.mark.parametrize("text", ["", "soon", "1x", "-1", "nan"])
    def test_nonsense_durations(self, text: str) -> None:
        assert parse_duration(text) is None

    def test_total_tokens(self) -> None:
        assert total_tokens(b'{"usage": {"prompt_tokens": 3, "total_tokens": 17}}') == 17
        assert total_tokens(b"{}") == 0


class TestPacing:
    def test_a_stated_request_limit_is_kept(self, judge: ScriptedJudge) -> None:
        arrivals: list[float] = []
        judge.script(limited_answers(arrivals))

        async def go() -> None:
            client = JudgeClient(fresh_endpoint(judge, concurrency=16))
            try:
                await generate_many(client, 45)
            finally:
                await client.close()

        asyncio.run(go())
        assert len(arrivals) == 45
        assert busiest(sorted(arrivals)[START:], 3.0) <= MOST_IN_THREE_SECONDS

    def test_workers_share_one_limit_through_redis(
        self, judge: ScriptedJudge, redis_server: RedisServer
    ) -> None:
        arrivals: list[float] = []
        judge.script(limited_answers(arrivals))
        shared = fresh_endpoint(judge, concurrency=16, pace_url=redis_server.url)

        async def worker() -> None:
            client = JudgeClient(shared)
            try:
                await generate_many(client, 15)
            finally:
                await client.close()

        async def three_workers() -> None:
            await asyncio.gather(worker(), worker(), worker())

        asyncio.run(three_workers())
        assert len(arrivals) == 45
        # Three clients that each believed they owned the limit would send three times as many.
        assert busiest(sorted(arrivals)[START:], 3.0) <= MOST_IN_THREE_SECONDS

    def test_retry_after_holds_every_worker(
        self, judge: ScriptedJudge, redis_server: RedisServer
    ) -> None:
        arrivals: list[float] = []
        refused = []

        def respond(request: dict) -> Reply:
            arrivals.append(time.monotonic())
            if not refused:
                refused.append(arrivals[-1])
                return Reply(status=429, headers={"Retry-After": "1"}, content="slow down")
            return Reply(content="an answer")

        judge.script(respond)
        shared = fresh_endpoint(judge, pace_url=redis_server.url)

        async def go() -> None:
            first, second = JudgeClient(shared), JudgeClient(shared)
            try:
                await first.generate(MESSAGES)  # refused, waits, retried
                await second.generate(MESSAGES)  # another worker: held as well
            finally:
                await first.close()
                await second.close()

        asyncio.run(go())
        assert len(arrivals) == 3
        # Redis's clock and ours may differ by a few milliseconds.
        assert all(t - refused[0] >= 0.95 for t in arrivals[1:])


class TestAdaptiveLimit:
    def test_one_request_until_the_endpoint_answers_then_halved_on_429(self) -> None:
        async def go() -> list[float]:
            pacer = Pacer("k", 16, LocalPaceStore())
            limits = [pacer.limit]
            await pacer.acquire()
            await pacer.release(headers={}, rate_limited=False)
            limits.append(pacer.limit)
            for _ in range(2):
                await pacer.acquire()
                await pacer.release(headers={}, rate_limited=True, retry_after=0)
                limits.append(pacer.limit)
            for _ in range(4):
                await pacer.acquire()
                await pacer.release(headers={}, rate_limited=False)
            limits.append(pacer.limit)
            # A timeout says nothing about the endpoint's limits.
            await pacer.acquire()
            await pacer.release(headers=None, rate_limited=False)
            limits.append(pacer.limit)
            return limits

        limits = asyncio.run(go())
        assert limits[:4] == [1.0, 16.0, 8.0, 4.0]
        grown = 4.0
        for _ in range(4):
            grown += 1 / grown  # + 1/limit per answer
        assert limits[4] == pytest.approx(grown)
        assert limits[5] == limits[4]


def redis_unavailable(operation: str) -> float:
    return REGISTRY.get_sample_value("loupe_redis_unavailable_total", {"operation": operation}) or 0


class TestRedisAway:
    def test_requests_wait_for_redis_to_come_back(self, judge: ScriptedJudge) -> None:
        """Redis restarting mid-run: the calls wait for the shared schedule, none fails."""
        arrivals: list[float] = []
        judge.script(limited_answers(arrivals))
        before = redis_unavailable("pace")

        with restartable_redis() as redis:
            shared = fresh_endpoint(judge, concurrency=4, pace_url=redis.url)

            async def go() -> list[Any]:
                client = JudgeClient(shared)
                try:
                    await generate_many(client, 3)
                    redis.stop()
                    calls = asyncio.gather(
                        *(client.generate(MESSAGES) for _ in range(6)), return_exceptions=True
                    )
                    await asyncio.sleep(1.0)
                    redis.start()
                    return list(await calls)
                finally:
                    await client.close()

            answers = asyncio.run(go())

        assert [a for a in answers if isinstance(a, BaseException)] == []
        assert len(arrivals) == 9
        assert redis_unavailable("pace") > before

    def test_past_its_patience_a_process_paces_alone(self) -> None:
        """A Redis that stays away holds requests back for `patience` seconds per outage, no
        more: then this process keeps the schedule until Redis answers again."""
        nobody = f"redis://127.0.0.1:{free_port()}/0"
        before = redis_unavailable("pace")

        async def go() -> tuple[float, float]:
            store = RedisPaceStore(nobody, patience=0.3)
            try:
                first = await store.take("endpoint", 1.0, 0.2)
                await store.hold("endpoint", 30.0)
                # Already past the patience: Redis is asked once, then this process answers.
                second = await store.take("endpoint", 1.0, 0.2)
                return first, second
            finally:
                await store.close()

        first, second = asyncio.run(go())
        assert first == 0.0
        # The hold recorded in this process applies to the next request.
        assert second > 29
        assert redis_unavailable("pace") > before
