"""score_model against the scripted judge: clamping, midpoint threshold, sampling params."""

import pytest
from pydantic import ValidationError

from app.metrics import parse_spec
from tests.fixtures.judge import ScriptedJudge
from tests.fixtures.metrics import case, run_metric

SPEC = {
    "type": "score_model",
    "name": "helpfulness-9a2e",
    "model": "judge-model",
    "input": [
        {"role": "system", "content": "Rate how helpful the answer is."},
        {"role": "user", "content": "Q: {{ item.question }}\nA: {{ sample.output_text }}"},
    ],
}


def qa_case(output: str = "Paris"):
    item = {"question": "Capital of France?"}
    return case(input=[], metadata={"item": item, "sample": {"output_text": output}})


def grade(result: float, conclusion: str = "It answers the question.") -> dict:
    return {"result": result, "steps": [{"description": "answer", "conclusion": conclusion}]}


class TestScore:
    def test_default_range_and_midpoint(self, judge: ScriptedJudge) -> None:
        judge.sequence(grade(0.8))
        result = run_metric(judge, SPEC, qa_case())
        assert (result.score, result.passed, result.threshold) == (0.8, True, 0.5)
        assert result.reason == "It answers the question."
        assert result.logs["result"] == 0.8 and result.logs["range"] == [0.0, 1.0]
        sample = result.logs["grader_sample"]
        assert sample["input"][1]["content"] == "Q: Capital of France?\nA: Paris"
        assert sample["usage"]["total_tokens"] == 15

    def test_a_result_in_the_range_is_the_score(self, judge: ScriptedJudge) -> None:
        judge.sequence(grade(7.5))
        result = run_metric(judge, {**SPEC, "range": [0, 10]}, qa_case())
        assert result.score == 7.5 and result.logs["result"] == 7.5
        assert result.threshold == 5.0

    @pytest.mark.parametrize("given", [12, -3])
    def test_a_result_outside_the_range_is_an_invalid_answer(
        self, judge: ScriptedJudge, given: float
    ) -> None:
        # Once clamped to the range: a 12 on [0, 10] scored 10 and passed.
        judge.sequence(grade(given))
        result = run_metric(judge, {**SPEC, "range": [0, 10]}, qa_case())
        assert (result.score, result.passed, result.error.type) == (None, None, "invalid_answer")
        assert f"result {given} is outside the asked range 0 to 10" in result.error.message
        assert result.usage.calls == 2

    @pytest.mark.parametrize(("given", "passed"), [(3.0, True), (2.99, False), (5, True)])
    def test_midpoint_threshold(self, judge: ScriptedJudge, given: float, passed: bool) -> None:
        judge.sequence(grade(given))
        result = run_metric(judge, {**SPEC, "range": [1, 5]}, qa_case())
        assert result.threshold == 3.0 and result.passed is passed

    def test_explicit_pass_threshold(self, judge: ScriptedJudge) -> None:
        judge.sequence(grade(0.8))
        result = run_metric(judge, {**SPEC, "pass_threshold": 0.9}, qa_case())
        assert (result.score, result.passed, result.threshold) == (0.8, False, 0.9)

    def test_non_numeric_twice_is_an_error_not_zero(self, judge: ScriptedJudge) -> None:
        judge.sequence({"result": "high", "steps": []})
        result = run_metric(judge, SPEC, qa_case())
        assert (result.score, result.passed) == (None, None)
        assert result.error.type == "judge_malformed" and result.usage.calls == 2


class TestRequest:
    def test_prompt_and_schema(self, judge: ScriptedJudge) -> None:
        judge.sequence(grade(4))
        run_metric(judge, {**SPEC, "range": [1, 5]}, qa_case())
        (request,) = judge.requests
        assert request["response_format"]["json_schema"]["name"] == "score_model"
        instructions, system, user = request["messages"]
        assert "from 1 to 5" in instructions["content"]
        assert system == {"role": "system", "content": "Rate how helpful the answer is."}
        assert user == {"role": "user", "content": "Q: Capital of France?\nA: Paris"}
        assert request["temperature"] == 0.0 and "seed" not in request

    @pytest.mark.parametrize("spelling", ["max_completions_tokens", "max_completion_tokens"])
    def test_sampling_params_reach_the_judge(self, judge: ScriptedJudge, spelling: str) -> None:
        judge.sequence(grade(1))
        params = {"temperature": 0.7, "top_p": 0.9, "seed": 42, spelling: 256}
        run_metric(judge, {**SPEC, "sampling_params": params}, qa_case())
        (request,) = judge.requests
        assert (request["temperature"], request["top_p"], request["seed"]) == (0.7, 0.9, 42)
        assert request["max_completion_tokens"] == 256
        assert "max_completions_tokens" not in request

    def test_sampling_params_echo_the_sdk_spelling(self) -> None:
        spec = parse_spec({**SPEC, "sampling_params": {"max_completion_tokens": 9}})
        dumped = spec.model_dump(exclude_none=True)
        assert dumped["sampling_params"] == {"max_completions_tokens": 9}
        assert parse_spec(dumped).sampling_params.max_completions_tokens == 9


class TestSpec:
    @pytest.mark.parametrize(
        "bad",
        [
            {"range": [1, 1]},
            {"range": [5, 1]},
            {"range": [0]},
            {"sampling_params": {"temperature": 3}},
            {"sampling_params": {"n": 2}},
            {"pass_threshold": float("nan")},
            {"threshold": 0.5},
        ],
    )
    def test_refused(self, bad: dict) -> None:
        with pytest.raises(ValidationError):
            parse_spec({**SPEC, **bad})
