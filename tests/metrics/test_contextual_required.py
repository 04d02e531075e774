"""contextual_precision and contextual_recall need no `actual_output` (deepeval requires input,
expected_output and retrieval_context; neither formula reads the answer), as docs/api.md says: a
case without one is scored through the API, while a metric that reads it still gets a 422 naming
it."""

from typing import Any

import pytest

from app.metrics import parse_spec
from tests.evaluations.test_endpoints import problem
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.fixtures.metrics import by_task

RETRIEVAL = ["Paris is the capital of France.", "Bananas are yellow."]


def verdicts(*values: str) -> dict[str, Any]:
    return {"verdicts": [{"verdict": v, "reason": "r"} for v in values], "reason": "summary"}


def unanswered_case(**fields: Any) -> dict[str, Any]:
    return {
        "id": "capital",
        "input": "What is the capital of France?",
        "expected_output": "Paris.",
        "retrieval_context": RETRIEVAL,
        **fields,
    }


@pytest.mark.parametrize("metric", ["contextual_precision", "contextual_recall"])
def test_required_fields_leave_out_actual_output(metric: str) -> None:
    spec = parse_spec({"type": metric})
    assert spec.required_test_case_fields() == ("input", "expected_output", "retrieval_context")


class TestWithoutActualOutput:
    def test_both_metrics_score_a_case_without_an_answer(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(
            by_task(
                {
                    "contextual_precision_verdicts": verdicts("yes", "no"),
                    "contextual_recall_verdicts": verdicts("yes"),
                }
            )
        )
        body = {
            "test_cases": [unanswered_case()],
            "metrics": [{"type": "contextual_precision"}, {"type": "contextual_recall"}],
        }
        with api.tenant_client() as client:
            response = client.post("/v1/evaluations", json=body)
            assert response.status_code == 202, response.text
            done = api.wait(client, response.json()["id"])
            results = client.get(f"/v1/evaluations/{done['id']}/results").json()["data"]
            cases = client.get(f"/v1/evaluations/{done['id']}/test_cases").json()["data"]
        assert done["status"] == "completed" and not done["completed_with_errors"], done
        scores = {result["metric"]: result["score"] for result in results}
        assert scores == {"contextual_precision": 1.0, "contextual_recall": 1.0}
        assert cases[0]["actual_output"] is None

    def test_a_metric_reading_the_answer_names_it_in_the_422(self, api: Api) -> None:
        body = {
            "test_cases": [unanswered_case()],
            "metrics": [{"type": "contextual_recall"}, {"type": "exact_match"}],
        }
        with api.tenant_client() as client:
            found = problem(client.post("/v1/evaluations", json=body), 422)
        errors = {error["loc"]: error for error in found["errors"]}
        assert list(errors) == ["test_cases[0].actual_output"], found
        assert errors["test_cases[0].actual_output"]["type"] == "missing_for_metric"
        assert (
            "'exact_match' (metrics[1]) needs actual_output"
            in (errors["test_cases[0].actual_output"]["msg"])
        )
