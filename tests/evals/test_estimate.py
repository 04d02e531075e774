"""POST /v1/evals/{eval_id}/runs/estimate: an eval run's bill before it starts."""

from typing import Any

import openai

from tests.evals.helpers import CRITERIA, ROWS, create_eval, grading, wait
from tests.evals.test_runs import QUESTION, completions
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.runs.helpers import CANDIDATE, register_model

COSINE = {
    "type": "text_similarity",
    "name": "cosine",
    "evaluation_metric": "cosine",
    "pass_threshold": 0.5,
    "input": "{{ sample.output_text }}",
    "reference": "{{ item.answer }}",
}


def estimate_then_run(
    api: Api, client: openai.OpenAI, eval_id: str, data_source: dict[str, Any]
) -> tuple[dict, dict]:
    with api.client(client.api_key) as http:
        response = http.post(
            f"/v1/evals/{eval_id}/runs/estimate", json={"data_source": data_source}
        )
        assert response.status_code == 200, response.text
        assert http.get(f"/v1/evals/{eval_id}/runs").json()["data"] == []
        run = client.evals.runs.create(eval_id, data_source=data_source)  # type: ignore[arg-type]
        wait(api, client, eval_id, run.id)
        final = http.get(f"/v1/evaluations/{run.id}").json()
    return response.json(), final


def calls_by_metric(final: dict) -> dict[str, int]:
    return {summary["metric"]: summary["usage"]["calls"] for summary in final["per_metric"]}


class TestEvalRunEstimate:
    def test_rows_with_their_samples(
        self, api: Api, client: openai.OpenAI, judge: ScriptedJudge
    ) -> None:
        judge.script(grading)
        ev = create_eval(client, [*CRITERIA, COSINE])
        source = {"type": "file_content", "content": ROWS}
        estimate, final = estimate_then_run(api, client, ev.id, {"type": "jsonl", "source": source})
        assert judge.responder_errors == []
        planned = {metric["metric"]: metric["calls"] for metric in estimate["metrics"]}
        assert planned == calls_by_metric(final)
        # The two model graders ask once per row; cosine embeds once per row; the rest no one.
        assert sorted(planned.values()) == [0, 0, 5, 5, 5]
        assert estimate["calls"] == final["usage"]["calls"] == 15
        assert estimate["candidate"] is None

    def test_completions_count_the_models_calls(
        self, api: Api, client: openai.OpenAI, judge: ScriptedJudge
    ) -> None:
        judge.script(grading)
        with api.client(client.api_key) as http:
            register_model(http, judge.base_url)
        ev = create_eval(client, [CRITERIA[2]])
        estimate, final = estimate_then_run(api, client, ev.id, completions(QUESTION))
        assert estimate["candidate"]["calls"] == final["candidate_usage"]["calls"] == 2
        assert estimate["metrics"][0]["calls"] == final["usage"]["calls"] == 2
        assert len([r for r in judge.requests if r["model"] == CANDIDATE]) == 2
        assert any("answers are not known" in note for note in estimate["notes"])

    def test_the_same_problem_as_a_run(self, api: Api, client: openai.OpenAI) -> None:
        ev = create_eval(client, CRITERIA[:1])
        body = {"data_source": {"type": "csv", "source": {"type": "file_id", "id": "file-x"}}}
        with api.client(client.api_key) as http:
            estimated = http.post(f"/v1/evals/{ev.id}/runs/estimate", json=body)
            created = http.post(f"/v1/evals/{ev.id}/runs", json=body)
            missing = http.post("/v1/evals/eval_missing/runs/estimate", json=body)
        assert estimated.status_code == created.status_code == 400
        assert estimated.json()["errors"] == created.json()["errors"]
        assert missing.status_code == 404
