"""contextual_precision and contextual_recall against the scripted judge."""

import pytest

from app.metrics.contextual_precision import weighted_cumulative_precision
from tests.fixtures.judge import ScriptedJudge, image_parts
from tests.fixtures.metrics import by_task, case, run_metric, user_text

PNG = "data:image/png;base64,iVBORw0KGgo="


def verdicts(*values: str) -> dict:
    return {"verdicts": [{"verdict": v, "reason": "r"} for v in values], "reason": "summary"}


def rag_case(**fields):
    values = {
        "input": "What is shown?",
        "expected_output": "A red circle. On white.",
        "retrieval_context": ["node one", "node two", "node three"],
    }
    return case(**{**values, **fields})


class TestWeightedCumulativePrecision:
    @pytest.mark.parametrize(
        ("relevant", "expected"),
        [
            ([True, False, True], (1 / 1 + 2 / 3) / 2),
            ([False, True], (1 / 2) / 1),
            ([True, True, False], 1.0),
            ([False, False], 0.0),
            ([], 0.0),
        ],
    )
    def test_formula(self, relevant, expected) -> None:
        assert weighted_cumulative_precision(relevant) == pytest.approx(expected)


class TestContextualPrecision:
    def test_score_and_reason_in_one_call(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({"contextual_precision_verdicts": verdicts("yes", "no", "yes")}))
        result = run_metric(judge, {"type": "contextual_precision"}, rag_case())
        assert result.score == pytest.approx(5 / 6)
        assert (result.passed, result.reason, result.usage.calls) == (True, "summary", 1)
        assert "(3 nodes)" in user_text(judge.requests[0])

    def test_no_relevant_node_scores_zero(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({"contextual_precision_verdicts": verdicts("no", "no", "no")}))
        result = run_metric(judge, {"type": "contextual_precision"}, rag_case())
        assert (result.score, result.passed) == (0.0, False)

    def test_no_verdicts_for_three_nodes_is_an_invalid_answer(self, judge: ScriptedJudge) -> None:
        # Once scored 0 as "no verdicts": the judge answered none of the nodes asked about.
        judge.script(by_task({"contextual_precision_verdicts": verdicts()}))
        result = run_metric(judge, {"type": "contextual_precision"}, rag_case())
        assert (result.score, result.error.type, result.usage.calls) == (None, "invalid_answer", 2)
        assert "0 verdict(s) for 3 retrieval-context node(s)" in result.error.message

    def test_image_nodes_reach_the_judge(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({"contextual_precision_verdicts": verdicts("yes", "no")}))
        image = {"type": "image_url", "image_url": {"url": PNG}}
        result = run_metric(
            judge, {"type": "contextual_precision"}, rag_case(retrieval_context=[[image], "text"])
        )
        assert image_parts(judge.requests[0]) == [PNG]
        assert result.logs["nodes"] == 2 and result.score == 1.0

    def test_strict_mode(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({"contextual_precision_verdicts": verdicts("no", "yes", "no")}))
        result = run_metric(
            judge, {"type": "contextual_precision", "strict_mode": True}, rag_case()
        )
        assert (result.score, result.threshold, result.passed) == (0.0, 1.0, False)


class TestContextualRecall:
    def test_attributable_over_total(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({"contextual_recall_verdicts": verdicts("yes", "no", "yes")}))
        result = run_metric(judge, {"type": "contextual_recall", "threshold": 0.7}, rag_case())
        assert result.score == pytest.approx(2 / 3)
        assert result.passed is False
        assert result.usage.calls == 1
        assert [v["verdict"] for v in result.logs["verdicts"]] == ["yes", "no", "yes"]

    def test_no_verdicts_scores_zero(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({"contextual_recall_verdicts": verdicts()}))
        assert run_metric(judge, {"type": "contextual_recall"}, rag_case()).score == 0.0

    def test_without_reason(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({"contextual_recall_verdicts": {"verdicts": [{"verdict": "yes"}]}}))
        result = run_metric(
            judge, {"type": "contextual_recall", "include_reason": False}, rag_case()
        )
        assert (result.score, result.reason) == (1.0, None)

    def test_strict_mode(self, judge: ScriptedJudge) -> None:
        spec = {"type": "contextual_recall", "strict_mode": True, "threshold": 0.2}
        judge.script(by_task({"contextual_recall_verdicts": verdicts("yes", "yes", "no")}))
        result = run_metric(judge, spec, rag_case())
        assert (result.score, result.threshold, result.passed) == (0.0, 1.0, False)
        judge.script(by_task({"contextual_recall_verdicts": verdicts("yes", "yes")}))
        result = run_metric(judge, spec, rag_case())
        assert (result.score, result.threshold, result.passed) == (1.0, 1.0, True)

    def test_passed_when_the_score_equals_the_threshold(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({"contextual_recall_verdicts": verdicts("yes", "no")}))
        result = run_metric(judge, {"type": "contextual_recall", "threshold": 0.5}, rag_case())
        assert (result.score, result.passed) == (0.5, True)

    def test_an_image_in_expected_output_reaches_the_judge(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({"contextual_recall_verdicts": verdicts("yes", "no")}))
        image = {"type": "image_url", "image_url": {"url": PNG}}
        expected = ["A red circle, as in", image]
        result = run_metric(
            judge, {"type": "contextual_recall"}, rag_case(expected_output=expected)
        )
        request = judge.requests[0]
        assert image_parts(request) == [PNG]
        text = user_text(request)
        assert "Expected Output:" in text and "A red circle, as in" in text
        assert "an image in it counts as one unit" in text
        assert result.score == 0.5
