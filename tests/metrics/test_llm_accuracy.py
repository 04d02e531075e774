"""llm_accuracy against the scripted judge: verdicts, images, failures, rule_first."""

import asyncio

import pytest
from pydantic import ValidationError

from app.metrics import MetricContext, measure, parse_spec
from app.metrics._lcs import MAX_SCORED_TOKENS
from tests.fixtures.judge import Reply, ScriptedJudge, image_parts
from tests.fixtures.metrics import case, run_metric, user_text

SPEC = {"type": "llm_accuracy"}
PNG = "data:image/png;base64,iVBORw0KGgo="
JPEG = "data:image/jpeg;base64,/9j/4AAQSkZJRg=="


def grade(verdict: str, reasoning: str = "It names the same city.") -> dict:
    return {"reasoning": reasoning, "verdict": verdict}


def qa_case(**fields):
    values = {
        "input": "What is the capital of France?",
        "expected_output": "Paris",
        "actual_output": "I believe it is Paris.",
    }
    return case(**{**values, **fields})


class TestSpec:
    def test_defaults_and_required_fields(self) -> None:
        spec = parse_spec(SPEC)
        assert (spec.threshold, spec.rule_first, spec.model) == (0.5, False, None)
        assert (spec.rule, spec.labels) == ("rouge", ["A", "B", "C", "D"])
        assert spec.required_test_case_fields() == ("input", "actual_output", "expected_output")

    def test_unknown_option_is_refused(self) -> None:
        with pytest.raises(ValidationError):
            parse_spec({**SPEC, "strategy": "llm_recall"})
        with pytest.raises(ValidationError):
            parse_spec({**SPEC, "rule": "bleu"})
        with pytest.raises(ValidationError):
            parse_spec({**SPEC, "labels": ["A", "a"]})


class TestVerdict:
    def test_a_is_correct(self, judge: ScriptedJudge) -> None:
        judge.sequence(grade("A"))
        result = run_metric(judge, SPEC, qa_case())
        assert result.error is None
        assert (result.score, result.passed) == (1.0, True)
        assert result.reason == "It names the same city."
        assert result.logs["verdict"] == "A" and result.logs["acc"] == 1.0
        assert result.logs["reasoning"] == "It names the same city."
        assert result.logs["decided_by"] == "judge"
        assert result.logs["judge_json"] == {"grade": grade("A")}
        assert result.usage.calls == 1 and result.usage.prompt_tokens == 10
        assert result.usage.completion_tokens == 5

    def test_b_is_incorrect(self, judge: ScriptedJudge) -> None:
        judge.sequence(grade("B", "It names Lyon, not Paris."))
        result = run_metric(judge, SPEC, qa_case(actual_output="Lyon"))
        assert (result.score, result.passed) == (0.0, False)
        assert result.reason == "It names Lyon, not Paris."
        assert (result.logs["verdict"], result.logs["acc"]) == ("B", 0.0)

    def test_request_shape(self, judge: ScriptedJudge) -> None:
        judge.sequence(grade("A"))
        run_metric(judge, {**SPEC, "model": "grader"}, qa_case())
        request = judge.requests[0]
        assert request["model"] == "grader"
        schema = request["response_format"]["json_schema"]
        assert schema["name"] == "llm_accuracy"
        assert schema["schema"]["properties"]["verdict"]["enum"] == ["A", "B"]
        system, user = request["messages"]
        assert system["role"] == "system" and "A = CORRECT" in system["content"]
        assert "B = INCORRECT" in system["content"]
        # Question, reference and prediction, each in its own section and in that order.
        text = user["content"]
        sections = [
            "<question>\nWhat is the capital of France?\n</question>",
            "<reference_answer>\nParis\n</reference_answer>",
            "<prediction>\nI believe it is Paris.\n</prediction>",
        ]
        positions = [text.index(section) for section in sections]
        assert positions == sorted(positions)

    def test_empty_prediction_is_shown_as_empty(self, judge: ScriptedJudge) -> None:
        judge.sequence(grade("B", "No answer."))
        result = run_metric(judge, SPEC, qa_case(actual_output=" "))
        assert result.score == 0.0
        assert "<prediction>\n(empty)\n</prediction>" in user_text(judge.requests[0])

    def test_question_images_reach_the_judge_in_order(self, judge: ScriptedJudge) -> None:
        judge.sequence(grade("A"))
        question = [
            "Which shape is red?",
            {"type": "image_url", "image_url": {"url": PNG}},
            {"type": "text", "text": "Or in this one?"},
            {"type": "image_url", "image_url": {"url": JPEG}},
        ]
        result = run_metric(judge, SPEC, qa_case(input=question, expected_output="the circle"))
        assert result.score == 1.0
        request = judge.requests[0]
        assert image_parts(request) == [PNG, JPEG]
        parts = request["messages"][1]["content"]
        kinds = [part["type"] for part in parts]
        assert kinds == ["text", "image_url", "text", "image_url", "text"]
        assert parts[0]["text"] == "<question>\nWhich shape is red?"
        assert parts[2]["text"] == "Or in this one?"
        assert parts[4]["text"].startswith("</question>\n<reference_answer>\nthe circle")


class TestFailures:
    def test_broken_json_twice_is_an_error_not_zero(self, judge: ScriptedJudge) -> None:
        judge.sequence("I think it is correct.")
        result = run_metric(judge, SPEC, qa_case())
        assert (result.score, result.passed) == (None, None)
        assert result.error.type == "judge_malformed"
        assert result.usage.calls == 2 and len(judge.requests) == 2

    def test_unknown_verdict_is_repaired(self, judge: ScriptedJudge) -> None:
        judge.sequence(grade("C"), grade("A"))
        result = run_metric(judge, SPEC, qa_case())
        assert result.score == 1.0 and result.usage.calls == 2
        assert "verdict" in judge.requests[1]["messages"][-1]["content"]

    def test_unknown_verdict_twice_is_an_error(self, judge: ScriptedJudge) -> None:
        judge.sequence(grade("CORRECT"))
        result = run_metric(judge, SPEC, qa_case())
        assert result.score is None and result.error.type == "judge_malformed"
        assert result.usage.calls == 2

    def test_transport_failure_is_an_error(self, judge: ScriptedJudge) -> None:
        judge.sequence(Reply(status=500))
        result = run_metric(judge, SPEC, qa_case(), max_attempts=2)
        assert result.score is None and result.error.type == "judge_server_error"
        assert len(judge.requests) == 2


class TestRuleFirst:
    SPEC = {**SPEC, "rule_first": True}

    def test_recall_above_cutoff_needs_no_judge(self, judge: ScriptedJudge) -> None:
        # Every reference token appears, in order: ROUGE-L recall 1.
        result = run_metric(judge, self.SPEC, qa_case(actual_output="It is Paris"))
        assert judge.requests == []
        assert (result.score, result.passed) == (1.0, True)
        assert result.logs["decided_by"] == "rule" and result.logs["Rouge-L-R"] == 1.0
        assert result.usage.calls == 0 and result.error is None

    def test_rule_needs_no_judge_endpoint(self) -> None:
        spec = parse_spec(self.SPEC)
        result = asyncio.run(
            measure(spec, qa_case(actual_output="Paris"), MetricContext(evaluation_id="e"))
        )
        assert result.score == 1.0 and result.logs["decided_by"] == "rule"

    @pytest.mark.parametrize(("verdict", "expected"), [("A", 1.0), ("B", 0.5)])
    def test_below_cutoff_keeps_the_better_of_rule_and_judge(
        self, judge: ScriptedJudge, verdict: str, expected: float
    ) -> None:
        judge.sequence(grade(verdict))
        # "red circle" of "a red circle on white": ROUGE-L recall 2/4 (the reference's tokens).
        test_case = qa_case(expected_output="red circle on white", actual_output="a red circle")
        result = run_metric(judge, self.SPEC, test_case)
        assert result.score == pytest.approx(expected)
        assert result.logs["Rouge-L-R"] == pytest.approx(0.5)
        assert result.logs["decided_by"] == "judge" and result.logs["verdict"] == verdict
        assert result.logs["acc"] == pytest.approx(expected)
        assert result.usage.calls == 1 and len(judge.requests) == 1

    def test_judge_failure_is_an_error_that_keeps_the_rule(self, judge: ScriptedJudge) -> None:
        judge.sequence("not json")
        test_case = qa_case(expected_output="red circle on white", actual_output="a red circle")
        result = run_metric(judge, self.SPEC, test_case)
        assert result.score is None and result.error.type == "judge_malformed"
        assert result.logs["Rouge-L-R"] == pytest.approx(0.5)
        assert result.usage.calls == 2

    def test_a_side_past_the_token_cap_is_an_error_without_a_call(
        self, judge: ScriptedJudge
    ) -> None:
        long_text = " ".join(["ab", "cd"] * (MAX_SCORED_TOKENS // 2 + 1))
        result = run_metric(judge, self.SPEC, qa_case(actual_output=long_text))
        assert result.score is None and result.error.type == "input_too_long"
        assert result.error.message.startswith(
            f"actual_output has {MAX_SCORED_TOKENS + 2:,} tokens, over the"
        )
        assert judge.requests == []


class TestRuleFirstWithChoiceAccuracy:
    """Multiple choice: the rule is the extracted answer's accuracy, not ROUGE-L recall of a
    one-letter reference (which any prediction mentioning that letter would reach)."""

    SPEC = {**SPEC, "rule_first": True, "rule": "choice_accuracy"}

    def mcq_case(self, prediction: str, **fields):
        values = {"input": "Which colour? A) red B) blue C) green", "expected_output": "B"}
        return qa_case(**{**values, "actual_output": prediction, **fields})

    def test_right_label_needs_no_judge(self, judge: ScriptedJudge) -> None:
        result = run_metric(judge, self.SPEC, self.mcq_case("It is blue.\nANSWER: B"))
        assert judge.requests == []
        assert (result.score, result.logs["decided_by"]) == (1.0, "rule")
        assert result.logs["accuracy"] == 1.0 and result.logs["extracted_prediction"] == "B"
        assert "accuracy 1.0000 > 0.99" in result.reason

    def test_wrong_label_mentioning_the_reference_asks_the_judge(
        self, judge: ScriptedJudge
    ) -> None:
        judge.sequence(grade("B", "It picks C."))
        prediction = "Option B is wrong, it is green.\nANSWER: C"
        result = run_metric(judge, self.SPEC, self.mcq_case(prediction))
        # ROUGE-L recall of the reference "B" in this prediction is 1: the old rule skipped
        # the judge and scored it right.
        assert len(judge.requests) == 1
        assert (result.score, result.logs["decided_by"]) == (0.0, "judge")
        assert result.logs["accuracy"] == 0.0 and result.logs["extracted_prediction"] == "C"
        assert "<prediction>\nOption B is wrong" in user_text(judge.requests[0])

    def test_judge_can_only_raise_the_rule_score(self, judge: ScriptedJudge) -> None:
        judge.sequence(grade("A", "Blue is option B."))
        result = run_metric(judge, self.SPEC, self.mcq_case("The answer is blue."))
        assert result.logs["extracted_prediction"] == ""
        assert (result.score, result.logs["acc"]) == (1.0, 1.0)

    def test_labels_from_the_case_metadata(self, judge: ScriptedJudge) -> None:
        test_case = self.mcq_case(
            "ANSWER: E", expected_output="E", metadata={"labels": list("ABCDE")}
        )
        result = run_metric(judge, self.SPEC, test_case)
        assert judge.requests == [] and result.score == 1.0
