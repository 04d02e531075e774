"""Evaluation metric specs over a dataset run (`metrics` on POST /v1/runs): the shared example
VQA dataset answered by a loopback candidate, then g_eval and answer_relevancy besides the
EvalScope scorers; the report gains a row per metric and subset."""

import json
from collections import defaultdict

import pytest

from tests.fixtures.api import Api
from tests.fixtures.judge import Reply, ScriptedJudge, image_parts, task_of
from tests.runs.helpers import CANDIDATE, register_model, report, samples, wait_run
from tests.runs.test_endpoints import start, user_text, vqa_candidate, vqa_dataset


def names_a_circle(answer: str) -> bool:
    return "circle" in answer or "圆形" in answer


METRICS = [
    {
        "type": "g_eval",
        "name": "helpfulness",
        "criteria": "Does the answer address the question?",
        "evaluation_params": ["input", "actual_output"],
        "top_logprobs": 0,
    },
    {"type": "answer_relevancy"},
]


def judge_and_candidate(request: dict) -> Reply | dict:
    if request["model"] == CANDIDATE:
        return vqa_candidate(request)
    task = task_of(request)
    known = names_a_circle(user_text(request).split("Actual Output:")[-1])
    if task == "g_eval_steps":
        return {"steps": ["Read the question.", "Check the answer addresses it."]}
    if task == "g_eval_score":
        return {"reason": "judged", "score": 8 if known else 2}
    if task == "answer_relevancy_verdicts":
        return {
            "statements": [{"statement": "s", "verdict": "yes" if known else "no"}],
            "images": [],
            "reason": "judged",
        }
    raise AssertionError(f"unexpected task {task}")


class TestRunMetrics:
    def test_g_eval_and_answer_relevancy_over_the_vqa_examples(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(judge_and_candidate)
        client = api.tenant_client()
        run = start(
            client,
            {
                "dataset_id": vqa_dataset(client),
                "model_id": register_model(client, judge.base_url),
                "metrics": METRICS,
            },
        )
        final = wait_run(api, client, run["id"])
        assert final["status"] == "completed"
        assert final["result_counts"]["errored"] == 0
        rows = samples(client, run["id"])
        assert len(rows) == 7
        expected: dict[tuple[str, str], list[float]] = defaultdict(list)
        for row in rows:
            known = names_a_circle(row["prediction"])
            # The judged metrics' scores sit beside EvalScope's keys in each sample.
            assert row["scores"]["helpfulness"] == (0.8 if known else 0.2)
            assert row["scores"]["answer_relevancy"] == (1.0 if known else 0.0)
            assert "bleu-1" in row["scores"]
            for subset in (row["subset"], "OVERALL"):
                expected[("helpfulness", subset)].append(row["scores"]["helpfulness"])
                expected[("answer_relevancy", subset)].append(row["scores"]["answer_relevancy"])
        assert {v for values in expected.values() for v in values} >= {0.0, 1.0}
        table = report(final)
        for key, values in expected.items():
            assert table[key] == (len(values), round(sum(values) / len(values), 4))
        assert table[("Rouge-L-R", "OVERALL")][0] == 7
        # Report order: EvalScope's keys, then the run's metrics in the order given.
        order = list(dict.fromkeys(row["metric"] for row in final["report"]))
        assert order[-2:] == ["helpfulness", "answer_relevancy"]
        # Steps once per run; per sample at most one score and one relevancy call, images in
        # place. Two samples asking the judge the very same thing may share one answer (the
        # judge cache): whether the second asks before the first is answered is timing.
        assert len(judge.calls_for("g_eval_steps")) == 1
        relevancy = judge.calls_for("answer_relevancy_verdicts")
        for task in ("answer_relevancy_verdicts", "g_eval_score"):
            calls = judge.calls_for(task)
            distinct = {json.dumps(call["messages"], sort_keys=True) for call in calls}
            # Every sample was scored (above); no sample made a second call.
            assert len(distinct) <= len(calls) <= 7
        assert any(image_parts(call) for call in relevancy)
        csv_text = client.get(f"/v1/runs/{run['id']}/samples/export", params={"format": "csv"})
        assert "helpfulness" in csv_text.text.splitlines()[0]

    @pytest.mark.parametrize(
        ("metrics", "loc", "words"),
        [
            ([{"type": "answer_relevancy", "name": "acc"}], "metrics[0].name", "report key"),
            ([{"type": "answer_relevancy", "name": "x" * 33}], "metrics[0].name", "32"),
            (
                [{"type": "answer_relevancy"}, {"type": "answer_relevancy"}],
                "metrics[1].name",
                "report key",
            ),
            ([{"type": "faithfulness"}], "metrics[0]", "retrieval_context"),
            ([{"type": "text_to_image"}], "metrics[0]", "exactly one image"),
        ],
    )
    def test_metrics_a_run_cannot_score_are_422(
        self, api: Api, judge: ScriptedJudge, metrics: list, loc: str, words: str
    ) -> None:
        client = api.tenant_client()
        body = {
            "dataset_id": vqa_dataset(client),
            "model_id": register_model(client, judge.base_url),
            "metrics": metrics,
        }
        response = client.post("/v1/runs", json=body)
        assert response.status_code == 422, response.text
        errors = response.json()["errors"]
        assert (
            errors[0]["loc"] == ".".join(map(str, loc)).replace(".0", "[0]").replace(".1", "[1]")
            or errors[0]["loc"] == loc
        )
        assert words in errors[0]["msg"]
        assert client.get("/v1/runs").json()["data"] == []
