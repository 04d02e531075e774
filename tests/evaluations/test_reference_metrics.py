"""Reference metrics (no judge) through the HTTP API and the workers."""

import math

import pytest

from app.metrics._lcs import MAX_SCORED_TOKENS
from tests.evaluations.test_endpoints import error_locs, problem
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge


class TestChoiceAccuracy:
    def test_scores_extracted_answers(self, api: Api, judge: ScriptedJudge) -> None:
        client = api.tenant_client()
        completions = ["Thinking.\nANSWER: B", "Answer: c", "The correct option is (D) Dog", "?"]
        body = {
            "test_cases": [
                {"input": "Which?", "actual_output": text, "expected_output": expected}
                for text, expected in zip(completions, ["B", "C", "D", "A"], strict=True)
            ],
            "metrics": [{"type": "choice_accuracy"}],
        }
        created = client.post("/v1/evaluations", json=body)
        assert created.status_code == 202, created.text
        final = api.wait(client, created.json()["id"])
        assert final["result_counts"]["passed"] == 3 and final["result_counts"]["failed"] == 1
        assert final["per_metric"][0]["mean_score"] == 0.75
        rows = client.get(f"/v1/evaluations/{final['id']}/results").json()["data"]
        assert [r["logs"]["extracted_prediction"] for r in rows] == ["B", "C", "D", ""]
        assert judge.requests == []  # reference metrics never call a judge

    def test_missing_expected_output_is_422(self, api: Api) -> None:
        body = {
            "test_cases": [{"input": "q", "actual_output": "ANSWER: A"}],
            "metrics": [{"type": "choice_accuracy", "labels": ["A", "B"]}],
        }
        response = api.tenant_client().post("/v1/evaluations", json=body)
        assert error_locs(problem(response, 422)) == ["test_cases[0].expected_output"]


class TestBleuRouge:
    def test_scores_and_logs_through_the_api(self, api: Api, judge: ScriptedJudge) -> None:
        client = api.tenant_client()
        body = {
            "test_cases": [
                {
                    "input": "q",
                    "actual_output": "the cat sat",
                    "expected_output": "the cat sat on the mat",
                },
                {
                    "input": "q",
                    "actual_output": "猫坐在垫子上。",
                    "expected_output": "猫坐在垫子上了。",
                },
            ],
            "metrics": [{"type": "bleu", "n": 1}, {"type": "rouge"}],
        }
        created = client.post("/v1/evaluations", json=body)
        assert created.status_code == 202, created.text
        final = api.wait(client, created.json()["id"])
        assert final["status"] == "completed" and final["result_counts"]["errored"] == 0
        rows = client.get(f"/v1/evaluations/{final['id']}/results").json()["data"]
        first_bleu, first_rouge = rows[0], rows[1]
        assert first_bleu["score"] == pytest.approx(math.exp(-1))
        assert first_rouge["score"] == 0.5
        assert set(first_bleu["logs"]) >= {"bleu-1", "bleu-4", "Rouge-1-R", "Rouge-L-F"}
        assert rows[2]["logs"]["bleu-1"] > 0.8  # jieba-tokenised Chinese
        assert judge.requests == []

    def test_a_side_past_the_token_cap_is_an_errored_result(self, api: Api) -> None:
        # The audit's case: ~30 KB of short words a side (10,000 tokens) grew the API past 9 GB.
        long_text = " ".join(["ab", "cd", "ef"][i % 3] for i in range(10_000))
        client = api.tenant_client()
        body = {
            "test_cases": [
                {"input": "q", "actual_output": long_text, "expected_output": long_text},
                {"input": "q", "actual_output": "the cat sat", "expected_output": "the cat sat"},
            ],
            "metrics": [{"type": "rouge"}],
        }
        created = client.post("/v1/evaluations", json=body)
        assert created.status_code == 202, created.text
        final = api.wait(client, created.json()["id"])
        assert final["status"] == "completed"
        assert final["result_counts"]["errored"] == 1 and final["result_counts"]["passed"] == 1
        long_row, normal_row = client.get(f"/v1/evaluations/{final['id']}/results").json()["data"]
        assert long_row["score"] is None and long_row["error"]["type"] == "input_too_long"
        assert long_row["error"]["message"].startswith(
            "actual_output has 10,000 tokens, over the BLEU and ROUGE cap of "
            f"{MAX_SCORED_TOKENS:,} tokens a side"
        )
        assert normal_row["score"] == 1.0 and normal_row["error"] is None

    def test_bad_options_are_422(self, api: Api) -> None:
        body = {
            "test_cases": [{"input": "q", "actual_output": "a", "expected_output": "a"}],
            "metrics": [{"type": "bleu", "n": 5}, {"type": "rouge", "variant": "3"}],
        }
        response = api.tenant_client().post("/v1/evaluations", json=body)
        assert sorted(error_locs(problem(response, 422))) == ["metrics[0].n", "metrics[1].variant"]
