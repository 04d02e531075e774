"""The metrics fidelity audit's findings, through the HTTP API and the workers: edge cases of
the single-turn judged metrics against the scripted judge."""

from tests.evaluations.test_judged import all_results, submit
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge


class TestEmptyRetrievalContext:
    def test_precision_and_recall_score_zero_without_a_call(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        # Shown "Retrieval Context (0 nodes):", a judge that answered a verdict anyway made
        # contextual_precision an `invalid_answer` after a repair request (two calls), and
        # contextual_recall scored what the judge said of nodes that do not exist.
        def answer(request: dict) -> dict:
            verdict = {"verdict": "yes", "reason": "Node 1 says so."}
            return {"verdicts": [verdict], "reason": "Supported by node 1."}

        judge.script(answer)
        client = api.tenant_client()
        case = {"input": "What is 2+2?", "expected_output": "4.", "retrieval_context": []}
        metrics = [{"type": "contextual_precision"}, {"type": "contextual_recall"}]
        body = {"test_cases": [case], "metrics": metrics}
        estimate = client.post("/v1/evaluations/estimate", json=body)
        assert estimate.status_code == 200 and estimate.json()["calls"] == 0
        final = submit(api, client, body)
        assert final["result_counts"]["errored"] == 0, all_results(client, final["id"])
        rows = {row["metric"]: row for row in all_results(client, final["id"])}
        for metric in ("contextual_precision", "contextual_recall"):
            row = rows[metric]
            assert (row["score"], row["passed"]) == (0.0, False), row
            assert row["reason"].startswith("The retrieval context is empty")
        assert judge.requests == [] and final["usage"]["calls"] == 0
