"""Costs from LOUPE_MODEL_PRICES: per result, per evaluation and per run, judge and candidate
apart (prices in tests/fixtures/api.py: judge-model 2 / 8 USD, candidate-vlm 1 / 4 USD per
million input / output tokens, its cached input 0.25)."""

import csv
import io
import json
import uuid

import pytest

from tests.fixtures.api import Api
from tests.fixtures.judge import Reply, ScriptedJudge
from tests.runs.helpers import CANDIDATE, register_model, wait_run
from tests.runs.test_endpoints import VQA_ANSWERS, start, user_text, vqa_dataset

GRADE = json.dumps({"reasoning": "matches the reference", "verdict": "A"})
# One judge call: 1000 prompt tokens at 2 USD, 250 completion tokens at 8 USD per million.
JUDGE_CALL_USD = (1000 * 2 + 250 * 8) / 1e6


def judge_reply(request: dict) -> Reply:
    return Reply(content=GRADE, prompt_tokens=1000, completion_tokens=250)


def cases(count: int) -> list[dict]:
    return [
        {"input": f"capital {i}?", "actual_output": f"city {i}", "expected_output": "Paris"}
        for i in range(count)
    ]


class TestEvaluationCosts:
    def test_each_result_and_the_evaluation_carry_the_judge_cost(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(judge_reply)
        with api.tenant_client() as client:
            submitted = client.post(
                "/v1/evaluations",
                json={
                    "metrics": [{"type": "llm_accuracy"}, {"type": "exact_match"}],
                    "test_cases": cases(3),
                },
            )
            assert submitted.status_code == 202, submitted.text
            final = api.wait(client, submitted.json()["id"])
            assert final["status"] == "completed"
            assert final["usage"] == {
                "calls": 3,
                "failed_calls": 0,
                "prompt_tokens": 3000,
                "completion_tokens": 750,
                "cached_prompt_tokens": 0,
                "cost_usd": pytest.approx(3 * JUDGE_CALL_USD, abs=1e-12),
            }
            assert final["cost_usd"] == pytest.approx(3 * JUDGE_CALL_USD, abs=1e-12)
            assert final["candidate_usage"] == {
                "calls": 0,
                "failed_calls": 0,
                "prompt_tokens": 0,
                "completion_tokens": 0,
                "cached_prompt_tokens": 0,
                "cost_usd": 0.0,
            }
            judged, exact = final["per_metric"]
            assert judged["usage"]["cost_usd"] == pytest.approx(3 * JUDGE_CALL_USD, abs=1e-12)
            assert exact["usage"]["cost_usd"] == 0.0
            results = client.get(f"/v1/evaluations/{final['id']}/results").json()["data"]
            assert len(results) == 6
            for result in results:
                if result["type"] == "llm_accuracy":
                    assert result["cost_usd"] == pytest.approx(JUDGE_CALL_USD, abs=1e-12)
                    assert result["usage"]["cost_usd"] == result["cost_usd"]
                else:
                    # No call was made: a real zero, not an unknown price.
                    assert result["cost_usd"] == 0.0
            exported = client.get(
                f"/v1/evaluations/{final['id']}/results/export",
                params={"format": "csv", "metric": "llm_accuracy"},
            )
            rows = list(csv.DictReader(io.StringIO(exported.text)))
            assert len(rows) == 3
            assert [float(row["cost_usd"]) for row in rows] == [
                pytest.approx(JUDGE_CALL_USD, abs=1e-12)
            ] * 3

    def test_a_model_without_a_price_costs_null_never_zero(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(judge_reply)
        with api.tenant_client() as client:
            submitted = client.post(
                "/v1/evaluations",
                json={
                    "metrics": [
                        {"type": "llm_accuracy", "model": "unpriced-judge"},
                        {"type": "exact_match"},
                    ],
                    "test_cases": cases(2),
                },
            )
            assert submitted.status_code == 202, submitted.text
            final = api.wait(client, submitted.json()["id"])
            assert final["status"] == "completed"
            assert final["usage"]["calls"] == 2
            assert final["usage"]["prompt_tokens"] == 2000
            assert final["usage"]["cost_usd"] is None
            assert final["cost_usd"] is None
            assert final["per_metric"][0]["usage"]["cost_usd"] is None
            assert final["per_metric"][1]["usage"]["cost_usd"] == 0.0
            results = client.get(f"/v1/evaluations/{final['id']}/results").json()["data"]
            costs = sorted((r["type"], r["cost_usd"]) for r in results)
            assert costs == [
                ("exact_match", 0.0),
                ("exact_match", 0.0),
                ("llm_accuracy", None),
                ("llm_accuracy", None),
            ]

    def test_cached_prompt_tokens_at_the_cached_price(self, api: Api, judge: ScriptedJudge) -> None:
        # The judge model has no cached price: cached tokens cost the input price.
        judge.script(
            lambda request: Reply(
                content=GRADE, prompt_tokens=1000, completion_tokens=250, cached_tokens=800
            )
        )
        with api.tenant_client() as client:
            submitted = client.post(
                "/v1/evaluations",
                json={"metrics": [{"type": "llm_accuracy"}], "test_cases": cases(1)},
            )
            final = api.wait(client, submitted.json()["id"])
            assert final["cost_usd"] == pytest.approx(JUDGE_CALL_USD, abs=1e-12)
            # Counted wherever the tokens are: the evaluation, its metric, its result, the day.
            [result] = client.get(f"/v1/evaluations/{final['id']}/results").json()["data"]
            day = client.get("/v1/usage").json()
        assert final["usage"]["cached_prompt_tokens"] == 800
        assert final["per_metric"][0]["usage"]["cached_prompt_tokens"] == 800
        assert result["usage"]["cached_prompt_tokens"] == 800
        assert day["judge"]["cached_prompt_tokens"] == 800
        assert final["candidate_usage"]["cached_prompt_tokens"] == 0

    def test_cached_tokens_past_the_prompt_count_as_the_prompt(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        # Cached tokens are prompt tokens served from a cache: a server reporting more (or
        # a negative count) would show more cached than prompt tokens, and price the excess
        # of one reply at the cached rate in every sum it joins.
        judge.script(
            lambda request: Reply(
                content=GRADE, prompt_tokens=100, completion_tokens=250, cached_tokens=5000
            )
        )
        with api.tenant_client() as client:
            submitted = client.post(
                "/v1/evaluations",
                json={"metrics": [{"type": "llm_accuracy"}], "test_cases": cases(1)},
            )
            final = api.wait(client, submitted.json()["id"])
            [result] = client.get(f"/v1/evaluations/{final['id']}/results").json()["data"]
            day = client.get("/v1/usage").json()
        assert final["usage"]["prompt_tokens"] == 100
        assert final["usage"]["cached_prompt_tokens"] == 100
        assert result["usage"]["cached_prompt_tokens"] == 100
        assert day["judge"]["cached_prompt_tokens"] == 100


def candidate_and_judge(request: dict) -> Reply:
    if request["model"] != CANDIDATE:
        return judge_reply(request)
    text = user_text(request)
    answer = next((a for q, a in VQA_ANSWERS.items() if q in text), "I do not know")
    # Samples may repeat a question: a unique answer keeps each one's judge call its own
    # (an identical judge request would be answered from the judge cache, without a call).
    answer = f"{answer} ({uuid.uuid4().hex[:8]})"
    # 300 prompt tokens, 200 of them cached (0.25 USD), and 40 completion tokens.
    return Reply(content=answer, prompt_tokens=300, completion_tokens=40, cached_tokens=200)


# One candidate call: 100 uncached at 1 USD, 200 cached at 0.25, 40 out at 4 per million.
CANDIDATE_CALL_USD = (100 * 1 + 200 * 0.25 + 40 * 4) / 1e6


class TestRunCosts:
    def test_a_run_reports_judge_and_candidate_apart(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(candidate_and_judge)
        with api.tenant_client() as client:
            run = start(
                client,
                {
                    "dataset_id": vqa_dataset(client),
                    "model_id": register_model(client, judge.base_url),
                    "metrics": [{"type": "llm_accuracy"}],
                },
            )
            final = wait_run(api, client, run["id"])
            assert final["status"] == "completed", final
            samples = final["sample_count"]
            assert samples == 7
            assert final["usage"] == {
                "calls": samples,
                "failed_calls": 0,
                "prompt_tokens": 1000 * samples,
                "completion_tokens": 250 * samples,
                "cached_prompt_tokens": 0,
                "cost_usd": pytest.approx(samples * JUDGE_CALL_USD, abs=1e-12),
            }
            # One candidate call per sample, however many metrics score it.
            assert final["candidate_usage"] == {
                "calls": samples,
                "failed_calls": 0,
                "prompt_tokens": 300 * samples,
                "completion_tokens": 40 * samples,
                "cached_prompt_tokens": 200 * samples,
                "cost_usd": pytest.approx(samples * CANDIDATE_CALL_USD, abs=1e-12),
            }
            assert final["cost_usd"] == pytest.approx(
                samples * (JUDGE_CALL_USD + CANDIDATE_CALL_USD), abs=1e-12
            )
            assert len(judge.calls_for("llm_accuracy")) == samples
            usage = client.get("/v1/usage", params={"group_by": "model"}).json()
            buckets = {bucket["key"]: bucket for bucket in usage["data"]}
            assert set(buckets) == {"judge-model", CANDIDATE}
            assert buckets[CANDIDATE]["candidate"]["calls"] == samples
            assert buckets[CANDIDATE]["candidate"]["cached_prompt_tokens"] == 200 * samples
            assert buckets[CANDIDATE]["candidate"]["cost_usd"] == pytest.approx(
                samples * CANDIDATE_CALL_USD, abs=1e-12
            )
            assert buckets["judge-model"]["judge"]["calls"] == samples
            assert usage["cost_usd"] == final["cost_usd"]
