"""GET /v1/usage: a tenant's calls, tokens and cost from its stored results."""

from datetime import UTC, datetime

import pytest

from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.usage.test_costs import JUDGE_CALL_USD, cases, judge_reply


def submit(api: Api, client, metric: dict, count: int) -> dict:
    response = client.post(
        "/v1/evaluations", json={"metrics": [metric], "test_cases": cases(count)}
    )
    assert response.status_code == 202, response.text
    return api.wait(client, response.json()["id"])


class TestUsage:
    def test_by_model_and_by_day_for_the_tenant_only(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(judge_reply)
        today = datetime.now(UTC).date().isoformat()
        with api.tenant_client() as client, api.tenant_client() as other:
            submit(api, client, {"type": "llm_accuracy"}, 3)
            submit(api, client, {"type": "llm_accuracy", "model": "unpriced-judge"}, 2)
            submit(api, client, {"type": "exact_match"}, 2)

            by_model = client.get("/v1/usage", params={"group_by": "model"})
            assert by_model.status_code == 200, by_model.text
            body = by_model.json()
            assert body["object"] == "usage" and body["end"] == today
            buckets = {bucket["key"]: bucket for bucket in body["data"]}
            assert set(buckets) == {"judge-model", "unpriced-judge"}
            priced = buckets["judge-model"]
            assert priced["judge"] == {
                "calls": 3,
                "failed_calls": 0,
                "prompt_tokens": 3000,
                "completion_tokens": 750,
                "cached_prompt_tokens": 0,
                "cost_usd": pytest.approx(3 * JUDGE_CALL_USD, abs=1e-12),
            }
            assert priced["candidate"]["calls"] == 0
            assert priced["cost_usd"] == pytest.approx(3 * JUDGE_CALL_USD, abs=1e-12)
            assert buckets["unpriced-judge"]["judge"]["calls"] == 2
            assert buckets["unpriced-judge"]["cost_usd"] is None
            # One unpriced model makes the total unknown, not smaller.
            assert body["judge"]["calls"] == 5 and body["cost_usd"] is None

            by_day = client.get("/v1/usage", params={"start": today, "end": today}).json()
            assert [bucket["key"] for bucket in by_day["data"]] == [today]
            # ISO 8601's basic form names the same day.
            compact = today.replace("-", "")
            basic = client.get("/v1/usage", params={"start": compact, "end": compact}).json()
            assert basic["data"] == by_day["data"] and basic["start"] == today
            assert by_day["data"][0]["judge"]["prompt_tokens"] == 5000
            assert by_day["data"][0]["judge"]["cost_usd"] is None

            past = client.get("/v1/usage", params={"start": "2020-01-01", "end": "2020-01-31"})
            assert past.json()["data"] == [] and past.json()["cost_usd"] == 0.0

            nothing = other.get("/v1/usage").json()
            assert nothing["data"] == [] and nothing["judge"]["calls"] == 0

            backwards = client.get("/v1/usage", params={"start": today, "end": "2020-01-01"})
            assert backwards.status_code == 422
            assert backwards.headers["content-type"].startswith("application/problem+json")
            assert client.get("/v1/usage", params={"group_by": "week"}).status_code == 422

    def test_a_bad_range_is_a_problem_naming_the_parameter(self, api: Api) -> None:
        with api.tenant_client() as client:

            def refused(params: dict[str, str]) -> dict:
                response = client.get("/v1/usage", params=params)
                assert response.status_code == 422, response.text
                assert response.headers["content-type"] == "application/problem+json"
                body = response.json()
                assert body["status"] == 422 and body["title"]
                return body

            # A number is no day (pydantic read it as seconds since 1970: `end=0` was 1970-01-01).
            numbers = refused({"start": "0", "end": "1764374400.5"})
            assert {e["loc"]: e["type"] for e in numbers["errors"]} == {
                "query.start": "invalid_date",
                "query.end": "invalid_date",
            }
            assert "'0' is not an ISO 8601 date (such as 2026-11-26)" in numbers["detail"]
            backwards = refused({"start": "2024-05-01", "end": "2024-04-01"})
            assert [e["loc"] for e in backwards["errors"]] == ["query.start"]
            assert backwards["detail"] == "query.start: 2024-05-01 is after end (2024-04-01)"
            long = refused({"start": "2020-01-01", "end": "2024-01-01"})
            assert [e["loc"] for e in long["errors"]] == ["query.start"]
            assert "1462 days; at most 366" in long["detail"]
            # The last date there is: the day after it, where the range ends, is none (was 500).
            last = refused({"end": "9999-12-31"})
            assert [e["loc"] for e in last["errors"]] == ["query.end"]
            assert [e["loc"] for e in refused({"start": "05/01/2024"})["errors"]] == ["query.start"]
            # The first days there are: the default 30-day range stops at 0001-01-01 (was 500).
            first = client.get("/v1/usage", params={"end": "0001-01-05"})
            assert first.status_code == 200, first.text
            assert first.json()["start"] == "0001-01-01"
            assert client.get("/v1/usage", params={"end": "9999-12-30"}).status_code == 200
