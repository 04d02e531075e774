"""Fair sharing's rules: where a queued job waits, when a running job gives way, and the Redis
queue applying the same rule as the embedded one."""

import random
import threading
import time
import uuid
from collections.abc import Iterator

import pytest
from prometheus_client import REGISTRY
from redis import Redis
from rq import Queue

from app.config import Settings
from app.dispatch import EmbeddedDispatcher, RQDispatcher
from app.fair_queue import (
    FairQueue,
    owner_of,
    queued_id,
    running_key,
    should_give_way,
    waiting_position,
    work_of,
)
from tests.fixtures.services import RedisServer, RestartableRedis, restartable_redis


def line_after(enqueues: list[str], running: dict[str, int]) -> list[str]:
    """The owners' line after enqueueing jobs of `enqueues` (owners) one by one."""
    line: list[str] = []
    for owner in enqueues:
        line.insert(waiting_position(line, running, owner), owner)
    return line


class TestIds:
    def test_the_owner_and_the_work_are_read_back_from_the_queued_id(self) -> None:
        queued = queued_id("ten_1", "score_ev_2_0-3")
        assert queued == "ten_1-score_ev_2_0-3"
        assert owner_of(queued) == "ten_1"
        assert work_of(queued) == work_of(queued_id("ten_1", "score_ev_2_0"))
        assert work_of(queued) != work_of(queued_id("ten_1", "score_ev_2_1000"))

    def test_a_job_without_an_owner_has_the_empty_owner(self) -> None:
        assert queued_id("", "deliver_evt_1") == "deliver_evt_1"
        assert owner_of("deliver_evt_1") == ""


class TestWaitingPosition:
    def test_a_newcomer_waits_behind_at_most_one_job_of_each_other_tenant(self) -> None:
        line = line_after(["big"] * 10 + ["small"], running={})
        assert line.index("small") == 1
        line = line_after(["big"] * 10 + ["other"] * 3 + ["small"], running={})
        assert line[:3] == ["big", "other", "small"]

    def test_a_tenant_with_jobs_running_waits_behind_one_without(self) -> None:
        line = line_after(["big"] * 5 + ["small"], running={"big": 2})
        assert line[0] == "small"

    def test_two_tenants_alternate_and_each_keeps_its_order(self) -> None:
        line: list[str] = []
        for job in ["a1", "a2", "a3", "b1", "b2", "b3"]:
            owners = [name[0] for name in line]
            line.insert(waiting_position(owners, {}, job[0]), job)
        assert line == ["a1", "b1", "a2", "b2", "a3", "b3"]

    def test_upkeep_jobs_take_their_turn_too(self) -> None:
        line = line_after(["big"] * 4 + [""], running={"big": 1})
        assert line[0] == ""


class TestShouldGiveWay:
    def test_gives_way_to_a_tenant_running_fewer_jobs(self) -> None:
        assert should_give_way("small", {"big": 1}, "big")
        assert should_give_way("small", {"big": 3, "small": 2}, "big")

    def test_keeps_the_worker_otherwise(self) -> None:
        assert not should_give_way(None, {"big": 1}, "big")
        assert not should_give_way("big", {"big": 3}, "big")
        assert not should_give_way("other", {"big": 1, "other": 1}, "big")
        assert not should_give_way("other", {"big": 1, "other": 2}, "big")


@pytest.fixture
def redis(redis_server: RedisServer) -> Iterator[Redis]:
    connection = Redis.from_url(redis_server.url)
    yield connection
    connection.close()


def noop() -> None:
    """A job that is never run: these tests only look at the line."""


class TestFairQueue:
    def test_redis_lines_jobs_up_as_the_rule_says(self, redis: Redis) -> None:
        name = f"fair-{uuid.uuid4().hex[:8]}"
        queue = FairQueue(name, connection=redis)
        shuffle = random.Random(7)
        owners = ["ten_a", "ten_b", "ten_c", ""]
        running = {"ten_a": 2, "ten_c": 1}
        expiry = time.time() + 600
        for owner, count in running.items():
            for n in range(count):
                redis.zadd(running_key(name), {queued_id(owner, f"run_{n}"): expiry})
        # A lapsed lease (a killed job) no longer counts.
        redis.zadd(running_key(name), {queued_id("ten_b", "dead"): time.time() - 1})
        expected: list[str] = []
        for n in range(60):
            owner = shuffle.choice(owners)
            job = queue.enqueue(noop, job_id=queued_id(owner, f"job_{n}"))
            expected.insert(
                waiting_position([owner_of(j) for j in expected], running, owner), job.id
            )
        assert queue.get_job_ids() == expected
        # Workers take the head first, as from any RQ queue.
        job, _ = Queue.dequeue_any([Queue(name, connection=redis)], None, connection=redis)
        assert job.id == expected[0]

    def test_at_front_still_means_the_front(self, redis: Redis) -> None:
        queue = FairQueue(f"fair-{uuid.uuid4().hex[:8]}", connection=redis)
        for n in range(3):
            queue.enqueue(noop, job_id=queued_id("ten_a", f"job_{n}"))
        queue.enqueue(noop, job_id=queued_id("ten_a", "urgent"), at_front=True)
        assert queue.get_job_ids()[0] == "ten_a-urgent"


def dispatchers(redis_server: RedisServer) -> list[EmbeddedDispatcher | RQDispatcher]:
    """Both dispatchers; the embedded one's threads are stopped, so queued jobs stay queued."""
    name = f"fair-{uuid.uuid4().hex[:8]}"
    embedded = EmbeddedDispatcher(Settings(embedded_worker_threads=1, job_turn_seconds=0.01))
    embedded.close()
    distributed = RQDispatcher(
        Settings(redis_url=redis_server.url, queue_name=name, job_turn_seconds=0.01)
    )
    return [embedded, distributed]


class TestDispatchers:
    @pytest.mark.parametrize("mode", [0, 1], ids=["embedded", "distributed"])
    def test_a_waiting_continuation_is_the_same_work(
        self, redis_server: RedisServer, mode: int
    ) -> None:
        dispatcher = dispatchers(redis_server)[mode]
        assert dispatcher.enqueue("workers.jobs.tick", job_id="score_ev_0-1", owner="ten_a")
        # The sweeper re-dispatching the slice finds its continuation waiting.
        assert not dispatcher.enqueue("workers.jobs.tick", job_id="score_ev_0", owner="ten_a")
        assert dispatcher.enqueue("workers.jobs.tick", job_id="score_ev_1000", owner="ten_a")
        assert dispatcher.backlog()[0] == 2

    @pytest.mark.parametrize("mode", [0, 1], ids=["embedded", "distributed"])
    def test_one_waiting_job_displaces_one_running_job(
        self, redis_server: RedisServer, mode: int
    ) -> None:
        dispatcher = dispatchers(redis_server)[mode]
        with (
            dispatcher.running("score_big_0", "ten_big") as first,
            dispatcher.running("score_big_1000", "ten_big") as second,
        ):
            dispatcher.enqueue("workers.jobs.tick", job_id="score_big_2000", owner="ten_big")
            time.sleep(0.02)
            # Only the tenant's own work waits: nobody gives way.
            assert not first.should_give_way()
            dispatcher.enqueue("workers.jobs.tick", job_id="score_small_0", owner="ten_small")
            assert [first.should_give_way(), second.should_give_way()] == [True, False]

    @pytest.mark.parametrize("mode", [0, 1], ids=["embedded", "distributed"])
    def test_the_backlog_ages_from_the_oldest_job_not_the_head(
        self, redis_server: RedisServer, mode: int
    ) -> None:
        dispatcher = dispatchers(redis_server)[mode]
        # RQ keeps job hashes per Redis, not per queue: ids no other test used.
        big, small = f"score_{uuid.uuid4().hex}", f"score_{uuid.uuid4().hex}"
        dispatcher.enqueue("workers.jobs.tick", job_id=f"{big}_0", owner="ten_big")
        dispatcher.enqueue("workers.jobs.tick", job_id=f"{big}_1000", owner="ten_big")
        time.sleep(0.3)
        # A newcomer goes ahead of the big tenant's second job, behind its first.
        dispatcher.enqueue("workers.jobs.tick", job_id=f"{small}_0", owner="ten_small")
        waiting, oldest = dispatcher.backlog()
        assert waiting == 3
        assert oldest >= 0.3


def redis_unavailable(operation: str) -> float:
    return REGISTRY.get_sample_value("loupe_redis_unavailable_total", {"operation": operation}) or 0


@pytest.fixture
def restartable() -> Iterator[RestartableRedis]:
    with restartable_redis() as server:
        yield server


class TestRedisAway:
    def test_an_enqueue_waits_for_redis_to_come_back(self, restartable: RestartableRedis) -> None:
        dispatcher = RQDispatcher(
            Settings(redis_url=restartable.url, queue_name=f"fair-{uuid.uuid4().hex[:8]}")
        )
        before = redis_unavailable("enqueue")
        restartable.stop()
        comeback = threading.Timer(1.0, restartable.start)
        comeback.start()
        try:
            assert dispatcher.enqueue("workers.jobs.tick", job_id="score_ev_0", owner="ten_a")
        finally:
            comeback.join()
        assert dispatcher.backlog()[0] == 1
        assert redis_unavailable("enqueue") > before
        dispatcher.close()

    def test_a_running_job_keeps_its_turn_and_lease_while_redis_is_away(
        self, restartable: RestartableRedis
    ) -> None:
        name = f"fair-{uuid.uuid4().hex[:8]}"
        dispatcher = RQDispatcher(
            Settings(
                redis_url=restartable.url,
                queue_name=name,
                job_turn_seconds=0.01,
                heartbeat_seconds=0.1,
                stuck_after_seconds=5,
            )
        )
        before = {op: redis_unavailable(op) for op in ("give_way", "lapsed")}
        with dispatcher.running("score_ev_0", "ten_a") as turn:
            restartable.stop()
            time.sleep(0.02)
            # No answer from the line: the job keeps its worker and asks again later.
            assert not turn.should_give_way()
            # The sweep finds nothing now and looks again on its next tick.
            assert dispatcher.lapsed() == []
            restartable.start()
            # A restarted Redis kept nothing: the next renewal writes the lease again.
            connection = Redis.from_url(restartable.url)
            deadline = time.monotonic() + 30
            while connection.zscore(running_key(name), "ten_a-score_ev_0") is None:
                assert time.monotonic() < deadline, "the lease was never written again"
                time.sleep(0.05)
            connection.close()
        assert all(redis_unavailable(op) > before[op] for op in before), before
        dispatcher.close()
