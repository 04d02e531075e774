"""Reference metrics (no judge) through the HTTP API and the workers."""

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
