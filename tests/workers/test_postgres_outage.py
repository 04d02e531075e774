"""While PostgreSQL is away, the API answers 503 with `Retry-After` (problem+json naming the
database), not a 500 "unexpected error" a client and its alerting cannot tell from a Loupe bug;
once it is back, the same request answers as before."""

from tests.fixtures.api import postgres_settings
from tests.fixtures.judge import ScriptedJudge
from tests.fixtures.services import RedisServer, running_postgres
from tests.workers.test_worker_process import served_api


def test_reads_while_the_database_is_away_are_503_then_answer_again(
    redis_server: RedisServer, judge: ScriptedJudge
) -> None:
    with running_postgres() as postgres:
        settings = postgres_settings(postgres, redis_server, judge_base_url=judge.base_url)
        with served_api(settings) as api, api.tenant_client() as client:
            body = {
                "test_cases": [{"input": "q", "actual_output": "a", "expected_output": "a"}],
                "metrics": [{"type": "exact_match"}],
            }
            created = client.post("/v1/evaluations", json=body)
            assert created.status_code == 202, created.text
            path = f"/v1/evaluations/{created.json()['id']}"
            postgres.stop()
            try:
                for _ in range(2):  # the pool's dropped connection, then a refused one
                    away = client.get(path)
                    assert away.status_code == 503, away.text
                    assert away.headers["content-type"].startswith("application/problem+json")
                    assert away.headers["retry-after"] == "5"
                    assert away.json()["type"].endswith("/storage-unavailable")
            finally:
                postgres.start()
            assert client.get(path).status_code == 200
