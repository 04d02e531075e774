"""A sampled call is judged or has its error stored: Loupe's own infrastructure blinking costs
time, never results (issue 26's "nothing lost when a worker dies or Redis restarts")."""

from redis import Redis
from rq import Queue
from sqlalchemy import func, select

from app.evaluations import recovery
from app.models import UnqueuedSlice
from tests.fixtures.api import postgres_settings, served_api
from tests.fixtures.judge import ScriptedJudge
from tests.fixtures.services import PostgresServer, RedisServer, restartable_redis
from tests.online.test_receiver import judged_results, make_rule, model_and_judge, semconv_span
from workers import jobs


def test_calls_queued_before_redis_forgot_its_jobs_are_judged_after(
    postgres_server: PostgresServer, redis_server: RedisServer, judge: ScriptedJudge
) -> None:
    judge.script(model_and_judge)
    settings = postgres_settings(postgres_server, redis_server, judge_base_url=judge.base_url)
    redis = Redis.from_url(redis_server.url)
    with served_api(settings, redis=redis) as api, api.tenant_client() as client:
        rule = make_rule(client)
        spans = [
            semconv_span(f"00f067aa0ba902{index:02x}", "app", f"Question {index}?")
            for index in range(3)
        ]
        assert client.post("/v1/traces", json={"resourceSpans": spans}).status_code == 200
        # Redis restarts without persistence before any worker took the jobs: the queue is gone.
        redis.flushall()
        api.run_queue()
        assert client.get(f"/v1/online_rules/{rule['id']}/results").json()["data"] == []
        # The worker's watch on Redis re-enqueues what the database says is unscored.
        recovery.resume_forgotten(api.served.runtime, live=set())
        results = judged_results(api, client, rule["id"], 3)
        assert all(result["error"] is None for result in results)
        assert len({result["span_id"] for result in results}) == 3


def test_calls_taken_while_redis_refused_writes_are_judged_at_the_next_tick(
    postgres_server: PostgresServer, judge: ScriptedJudge
) -> None:
    """Redis full (its memory at `maxmemory` under RQ's `noeviction`) when a request committed
    a rule's calls: the job was refused, "an effect of a committed transaction failed" was
    logged, and nothing remembered it. The stuck-evaluation sweep waits for a stale heartbeat,
    which the day's later calls keep fresh, so under steady traffic those calls waited for a
    lull of LOUPE_STUCK_AFTER_SECONDS, or the day's end. The slice not queued is recorded and
    the next tick queues it."""
    judge.script(model_and_judge)
    with restartable_redis() as redis_server:
        # The sweep never finds the day silent here: only the record can bring the calls back.
        settings = postgres_settings(
            postgres_server, redis_server, judge_base_url=judge.base_url, stuck_after_seconds=3600
        )
        redis = Redis.from_url(redis_server.url)
        try:
            with served_api(settings, redis=redis) as api, api.tenant_client() as client:
                rule = make_rule(client)

                def send(first: int) -> None:
                    spans = [
                        semconv_span(f"00f067aa0ba903{index:02x}", "app", f"Question {index}?")
                        for index in range(first, first + 3)
                    ]
                    sent = client.post("/v1/traces", json={"resourceSpans": spans})
                    assert sent.status_code == 200, sent.text

                send(0)
                judged_results(api, client, rule["id"], 3)
                redis.config_set("maxmemory", 1)
                try:
                    send(3)
                finally:
                    redis.config_set("maxmemory", 0)
                # Traffic goes on: the day's heartbeat stays fresh.
                send(6)
                jobs.tick(api.served.runtime)
                results = judged_results(api, client, rule["id"], 9)
        finally:
            redis.close()
    assert all(result["error"] is None for result in results)
    assert len({result["span_id"] for result in results}) == 9


def test_calls_queued_as_usual_leave_no_record_for_the_tick(
    postgres_server: PostgresServer, redis_server: RedisServer, judge: ScriptedJudge
) -> None:
    """A request records the slice of the calls it commits in its own transaction (a process
    killed before its enqueue leaves it for the tick: tests/workers/test_killed_enqueue.py)
    and forgets it once the job is queued: the tick finds nothing to queue a second time."""
    judge.script(model_and_judge)
    settings = postgres_settings(postgres_server, redis_server, judge_base_url=judge.base_url)
    redis = Redis.from_url(redis_server.url)
    try:
        with served_api(settings, redis=redis) as api, api.tenant_client() as client:
            rule = make_rule(client)
            spans = [
                semconv_span(f"00f067aa0ba904{index:02x}", "app", f"Question {index}?")
                for index in range(3)
            ]
            assert client.post("/v1/traces", json={"resourceSpans": spans}).status_code == 200
            queue = Queue(settings.queue_name, connection=redis)
            waiting = queue.count
            with api.served.runtime.session() as session:
                recorded = session.scalar(select(func.count()).select_from(UnqueuedSlice))
                session.commit()
            jobs.tick(api.served.runtime)
            waiting_after_tick = queue.count
            results = judged_results(api, client, rule["id"], 3)
    finally:
        redis.close()
    assert (recorded, waiting, waiting_after_tick) == (0, 1, 1)
    assert all(result["error"] is None for result in results)
