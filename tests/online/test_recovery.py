"""A sampled call is judged or has its error stored: Loupe's own infrastructure blinking costs
time, never results (issue 26's "nothing lost when a worker dies or Redis restarts")."""

from redis import Redis

from app.evaluations import recovery
from tests.fixtures.api import postgres_settings, served_api
from tests.fixtures.judge import ScriptedJudge
from tests.fixtures.services import PostgresServer, RedisServer
from tests.online.test_receiver import judged_results, make_rule, model_and_judge, semconv_span


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
