"""label_model against the scripted judge: labels, images, templates, failures."""

import json

import pytest
from pydantic import ValidationError

from app.metrics import parse_spec
from tests.fixtures.judge import Reply, ScriptedJudge, image_parts
from tests.fixtures.metrics import case, run_metric

PNG = "data:image/png;base64,iVBORw0KGgo="
CHART = "https://charts.example.test/q1.png"
SPEC = {
    "type": "label_model",
    "name": "chart check-6b1d",
    "model": "judge-model",
    "input": [
        {"role": "developer", "content": "Does the answer match the chart?"},
        {
            "role": "user",
            "content": [
                {"type": "input_text", "text": "Question: {{ item.question }}"},
                {"type": "input_image", "image_url": "{{ item.chart_url }}", "detail": "high"},
                {"type": "input_text", "text": "Answer: {{ sample.output_text }}"},
            ],
        },
    ],
    "labels": ["correct", "partly", "wrong"],
    "passing_labels": ["correct"],
}
ITEM = {"question": "Which quarter peaks?", "chart_url": CHART}


def chart_case(output: str = "Q3", **metadata):
    values = {
        "item": ITEM,
        "sample": {"output_text": output},
        "image_urls": [CHART],
    }
    values.update(metadata)
    return case(input=[{"type": "image_url", "image_url": {"url": PNG}}], metadata=values)


def grade(label: str, *conclusions: str) -> dict:
    steps = [{"description": f"check {i}", "conclusion": c} for i, c in enumerate(conclusions)]
    return {"steps": steps, "result": label}


class TestLabels:
    def test_passing_label_scores_one(self, judge: ScriptedJudge) -> None:
        judge.sequence(grade("correct", "The chart peaks in Q3.", "The answer says Q3."))
        result = run_metric(judge, SPEC, chart_case())
        assert result.error is None
        assert (result.score, result.passed, result.threshold) == (1.0, True, 1.0)
        assert result.reason == "The chart peaks in Q3. The answer says Q3."
        assert result.logs["label"] == "correct"
        assert result.logs["judge_json"] == {
            "label": grade("correct", "The chart peaks in Q3.", "The answer says Q3.")
        }
        assert result.logs["model"] == "judge-model"
        sample = result.logs["grader_sample"]
        assert sample["model"] == "judge-model"
        assert json.loads(sample["output"][0]["content"])["result"] == "correct"
        assert sample["output"][0]["role"] == "assistant"
        assert sample["usage"] == {
            "prompt_tokens": 10,
            "completion_tokens": 5,
            "total_tokens": 15,
            "cached_tokens": 0,
        }
        assert sample["input"][1] == {
            "role": "user",
            "content": "Question: Which quarter peaks?\n<image_url>\nAnswer: Q3",
        }
        assert result.usage.calls == 1

    @pytest.mark.parametrize("label", ["partly", "wrong"])
    def test_other_labels_score_zero(self, judge: ScriptedJudge, label: str) -> None:
        judge.sequence(grade(label, "Not Q3."))
        result = run_metric(judge, SPEC, chart_case("Q1"))
        assert (result.score, result.passed) == (0.0, False)
        assert result.logs["label"] == label

    def test_several_passing_labels(self, judge: ScriptedJudge) -> None:
        judge.sequence(grade("partly", "Close."))
        result = run_metric(judge, {**SPEC, "passing_labels": ["correct", "partly"]}, chart_case())
        assert result.passed is True and result.score == 1.0


class TestRequest:
    def test_image_reaches_the_judge_as_an_image_part(self, judge: ScriptedJudge) -> None:
        judge.sequence(grade("correct", "ok"))
        run_metric(judge, SPEC, chart_case())
        (request,) = judge.requests
        assert image_parts(request) == [PNG]
        system, developer, user = request["messages"]
        assert system["role"] == "system" and '["correct", "partly", "wrong"]' in system["content"]
        assert developer == {"role": "system", "content": "Does the answer match the chart?"}
        assert user["content"] == [
            {"type": "text", "text": "Question: Which quarter peaks?"},
            {"type": "image_url", "image_url": {"url": PNG, "detail": "high"}},
            {"type": "text", "text": "Answer: Q3"},
        ]
        assert request["model"] == "judge-model"
        schema = request["response_format"]["json_schema"]
        assert schema["name"] == "label_model"
        assert schema["schema"]["properties"]["result"]["enum"] == ["correct", "partly", "wrong"]

    @pytest.mark.parametrize("spelling", ["max_completions_tokens", "max_completion_tokens"])
    def test_sampling_params_reach_the_judge(self, judge: ScriptedJudge, spelling: str) -> None:
        judge.sequence(grade("correct", "ok"))
        params = {"temperature": 0.7, "top_p": 0.9, "seed": 42, spelling: 256}
        run_metric(judge, {**SPEC, "sampling_params": params}, chart_case())
        (request,) = judge.requests
        assert (request["temperature"], request["top_p"], request["seed"]) == (0.7, 0.9, 42)
        assert request["max_completion_tokens"] == 256

    def test_null_sampling_params_as_openai_echoes_them(self, judge: ScriptedJudge) -> None:
        judge.sequence(grade("correct", "ok"))
        run_metric(judge, {**SPEC, "sampling_params": None}, chart_case())
        (request,) = judge.requests
        assert "seed" not in request and "top_p" not in request

    def test_image_not_ingested_is_an_error_without_a_call(self, judge: ScriptedJudge) -> None:
        test_case = chart_case(image_urls=["https://charts.example.test/other.png"])
        result = run_metric(judge, SPEC, test_case)
        assert result.score is None and result.error.type == "image_unavailable"
        assert judge.requests == []

    def test_missing_template_path_is_an_error_without_a_call(self, judge: ScriptedJudge) -> None:
        result = run_metric(judge, SPEC, chart_case(item={"chart_url": CHART}))
        assert result.error.type == "template_variable_missing"
        assert "item.question" in result.error.message and judge.requests == []


class TestFailures:
    def test_label_outside_the_set_is_repaired_once(self, judge: ScriptedJudge) -> None:
        judge.sequence(grade("maybe", "?"), grade("wrong", "No."))
        result = run_metric(judge, SPEC, chart_case())
        assert result.logs["label"] == "wrong" and result.usage.calls == 2

    def test_label_outside_the_set_twice_is_an_error(self, judge: ScriptedJudge) -> None:
        judge.sequence(grade("maybe", "?"))
        result = run_metric(judge, SPEC, chart_case())
        assert (result.score, result.passed) == (None, None)
        assert result.error.type == "judge_malformed" and result.usage.calls == 2
        assert result.logs["grader_sample"]["output"] == []
        assert result.logs["grader_sample"]["usage"]["prompt_tokens"] == 20

    def test_unparseable_reply_is_an_error(self, judge: ScriptedJudge) -> None:
        judge.sequence("It looks correct to me.")
        result = run_metric(judge, SPEC, chart_case())
        assert result.score is None and result.error.type == "judge_malformed"

    def test_transport_failure_is_an_error(self, judge: ScriptedJudge) -> None:
        judge.sequence(Reply(status=500))
        result = run_metric(judge, SPEC, chart_case(), max_attempts=2)
        assert result.error.type == "judge_server_error" and len(judge.requests) == 2


class TestSpec:
    def test_passing_labels_must_be_a_subset(self) -> None:
        with pytest.raises(ValidationError, match="subset"):
            parse_spec({**SPEC, "passing_labels": ["correct", "great"]})

    @pytest.mark.parametrize(
        "bad",
        [
            {"labels": ["a", "a"], "passing_labels": ["a"]},
            {"labels": []},
            {"model": ""},
            {"input": []},
            {"input": [{"role": "tool", "content": "x"}]},
            {"input": [{"role": "user", "content": {"type": "input_file", "file_id": "f"}}]},
        ],
    )
    def test_refused(self, bad: dict) -> None:
        with pytest.raises(ValidationError):
            parse_spec({**SPEC, **bad})

    def test_model_is_required(self) -> None:
        raw = dict(SPEC)
        del raw["model"]
        with pytest.raises(ValidationError):
            parse_spec(raw)
