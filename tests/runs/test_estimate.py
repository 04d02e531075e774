"""POST /v1/runs/estimate: a run's bill before it starts, the candidate's calls included."""

import pytest

from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.runs.helpers import CANDIDATE, register_model, wait_run
from tests.runs.test_endpoints import start, vqa_candidate, vqa_dataset


class TestRunEstimate:
    def test_the_candidate_and_the_judge_as_the_run_then_calls_them(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(vqa_candidate)
        client = api.tenant_client()
        dataset_id = vqa_dataset(client)
        model_id = register_model(client, judge.base_url)
        body = {
            "dataset_id": dataset_id,
            "model_id": model_id,
            "judge": {"strategy": "llm"},
            "cache": False,
        }
        response = client.post("/v1/runs/estimate", json=body)
        assert response.status_code == 200, response.text
        estimate = response.json()
        assert judge.requests == []
        assert client.get("/v1/runs").json()["data"] == []

        final = wait_run(api, client, start(client, body)["id"])
        assert final["status"] == "completed"
        candidate = estimate["candidate"]
        assert candidate["calls"] == final["candidate_usage"]["calls"] == 7
        by_metric = {metric["metric"]: metric for metric in estimate["metrics"]}
        # The dataset's two files ask the same questions: a repeat made after its first answer
        # is answered from the run's own cache (cache off or not), so fewer calls may be made
        # when the machine is slow, never more; the estimate says it is an upper bound.
        assert by_metric["acc"]["calls"] == 7
        assert 0 < final["usage"]["calls"] <= 7, final["usage"]
        assert any("repeat an identical request" in note for note in estimate["notes"])
        assert by_metric["rule"]["calls"] == 0
        assert estimate["calls"] == 14
        # The candidate's own price (candidate-vlm: $1 in, $4 out per million tokens).
        expected = (candidate["prompt_tokens"] * 1 + candidate["completion_tokens"] * 4) / 1e6
        assert candidate["usd"] == pytest.approx(expected)
        assert candidate["prompt_tokens"] > 7 * 85  # every sample shows at least one image
        assert any("candidate model's answers" in note for note in estimate["notes"])
        assert len([r for r in judge.requests if r["model"] == CANDIDATE]) == 7

    def test_given_predictions_and_llm_recall(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(lambda request: {"reasoning": "no", "verdict": "B"})
        client = api.tenant_client()
        body = {
            "dataset_id": vqa_dataset(client),
            "predictions": [
                {"subset": "example_vqa", "index": 0, "prediction": "It is A circle"},
                {"subset": "example_vqa", "index": 1, "prediction": "Blue"},
            ],
            "subsets": ["example_vqa"],
            "limit": 2,
            "judge": {"strategy": "llm_recall"},
        }
        estimate = client.post("/v1/runs/estimate", json=body).json()
        final = wait_run(api, client, start(client, body)["id"])
        # The first prediction contains its reference: the rule keeps it, no judge call.
        assert estimate["calls"] == final["usage"]["calls"] == len(judge.requests) == 1
        assert estimate["candidate"] is None

    def test_the_same_problem_as_a_run(self, api: Api) -> None:
        client = api.tenant_client()
        body = {"dataset_id": "ds_missing", "model_id": "mdl_missing", "limit": 0}
        estimated = client.post("/v1/runs/estimate", json=body)
        started = client.post("/v1/runs", json=body)
        assert estimated.status_code == started.status_code == 422
        assert estimated.json()["errors"] == started.json()["errors"]
        assert len(estimated.json()["errors"]) >= 2

    def test_a_refused_judge_still_has_its_model_ids_looked_up(self, api: Api) -> None:
        client = api.tenant_client()
        body = {
            "dataset_id": "ds_missing",
            "predictions": [{"index": 0, "prediction": "A"}],
            "judge": {"strategy": "vote", "model_id": "model_missing"},
            "metrics": [
                {"type": "g_eval", "criteria": "Right?", "judge": {"model_id": "model_gone"}},
                {"type": "faithfulness", "threshold": 2},
            ],
        }
        for path in ("/v1/runs/estimate", "/v1/runs"):
            response = client.post(path, json=body)
            assert response.status_code == 422, response.text
            locs = [error["loc"] for error in response.json()["errors"]]
            assert set(locs) >= {
                "judge.strategy",
                "judge.model_id",
                "metrics[0].evaluation_params",
                "metrics[0].judge.model_id",
                "metrics[1].threshold",
                "dataset_id",
            }, locs
            assert len(locs) == len(set(locs))
