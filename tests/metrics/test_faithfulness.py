"""faithfulness against the scripted judge: formula, edge cases, sharing, images."""

import pytest

from tests.fixtures.judge import ScriptedJudge, image_parts
from tests.fixtures.metrics import by_task, case, run_metric, run_metrics, user_text

SPEC = {"type": "faithfulness"}
PNG = "data:image/png;base64,iVBORw0KGgo="


def verdicts(*values: str, reason: str = "overall fine") -> dict:
    return {
        "verdicts": [{"verdict": v, "reason": f"because {v}"} for v in values],
        "reason": reason,
    }


def rag_case(**fields):
    values = {
        "actual_output": "Paris is the capital. It has 2M people.",
        "retrieval_context": ["Paris is the capital of France."],
    }
    return case(**{**values, **fields})


class TestScore:
    @pytest.mark.parametrize(
        ("values", "penalize", "expected", "normalised"),
        [
            (("yes", "no", "idk", "borderline"), False, 3 / 4, ["yes", "no", "idk", "idk"]),
            (("yes", "no", "idk", "borderline"), True, 1 / 4, ["yes", "no", "idk", "idk"]),
            (("yes", "yes"), False, 1.0, ["yes", "yes"]),
            (("no", "no"), False, 0.0, ["no", "no"]),
            (("Yes.", "No, it contradicts", " IDK"), False, 2 / 3, ["yes", "no", "idk"]),
        ],
    )
    def test_formula(self, judge: ScriptedJudge, values, penalize, expected, normalised) -> None:
        judge.script(
            by_task(
                {
                    "faithfulness_truths": {"truths": ["Paris is the capital of France."]},
                    "faithfulness_claims": {"claims": [f"c{i}" for i in range(len(values))]},
                    "faithfulness_verdicts": verdicts(*values),
                }
            )
        )
        result = run_metric(judge, {**SPEC, "penalize_ambiguous_claims": penalize}, rag_case())
        assert result.error is None
        assert result.score == pytest.approx(expected)
        assert result.passed is (expected >= 0.5)
        assert result.reason == "overall fine"
        assert result.usage.calls == 3
        assert [v["verdict"] for v in result.logs["verdicts"]] == normalised

    def test_no_claims_scores_one_without_a_verdict_call(self, judge: ScriptedJudge) -> None:
        judge.script(
            by_task(
                {
                    "faithfulness_truths": {"truths": ["t"]},
                    "faithfulness_claims": {"claims": []},
                }
            )
        )
        result = run_metric(judge, SPEC, rag_case())
        assert (result.score, result.passed) == (1.0, True)
        assert result.usage.calls == 2 and judge.calls_for("faithfulness_verdicts") == []
        assert "no factual claims" in result.reason

    def test_unusable_verdicts_are_dropped_and_score_one(self, judge: ScriptedJudge) -> None:
        judge.script(
            by_task(
                {
                    "faithfulness_truths": {"truths": ["t"]},
                    "faithfulness_claims": {"claims": ["a", "b"]},
                    "faithfulness_verdicts": verdicts("maybe", "perhaps"),
                }
            )
        )
        result = run_metric(judge, SPEC, rag_case())
        assert result.score == 1.0
        assert len(result.logs["dropped_verdicts"]) == 2

    def test_strict_mode_clamps_below_one(self, judge: ScriptedJudge) -> None:
        judge.script(
            by_task(
                {
                    "faithfulness_truths": {"truths": ["t"]},
                    "faithfulness_claims": {"claims": ["a", "b"]},
                    "faithfulness_verdicts": verdicts("yes", "no"),
                }
            )
        )
        result = run_metric(judge, {**SPEC, "strict_mode": True, "threshold": 0.2}, rag_case())
        assert (result.score, result.threshold, result.passed) == (0.0, 1.0, False)

    def test_without_reason(self, judge: ScriptedJudge) -> None:
        judge.script(
            by_task(
                {
                    "faithfulness_truths": {"truths": ["t"]},
                    "faithfulness_claims": {"claims": ["a"]},
                    "faithfulness_verdicts": {"verdicts": [{"verdict": "yes"}]},
                }
            )
        )
        result = run_metric(judge, {**SPEC, "include_reason": False}, rag_case())
        assert (result.score, result.reason) == (1.0, None)
        schema = judge.calls_for("faithfulness_verdicts")[0]["response_format"]["json_schema"]
        assert "reason" not in schema["schema"]["properties"]


class TestTruths:
    def test_limit_is_enforced_not_only_asked(self, judge: ScriptedJudge) -> None:
        judge.script(
            by_task(
                {
                    "faithfulness_truths": {"truths": ["first", "second", "third"]},
                    "faithfulness_claims": {"claims": ["a"]},
                    "faithfulness_verdicts": verdicts("yes"),
                }
            )
        )
        result = run_metric(judge, {**SPEC, "truths_extraction_limit": 2}, rag_case())
        assert result.logs["truths"] == ["first", "second"]
        sent = user_text(judge.calls_for("faithfulness_verdicts")[0])
        assert "second" in sent and "third" not in sent
        assert "at most 2" in user_text(judge.calls_for("faithfulness_truths")[0])

    def test_truths_are_extracted_once_per_retrieval_context(self, judge: ScriptedJudge) -> None:
        judge.script(
            by_task(
                {
                    "faithfulness_truths": {"truths": ["t"]},
                    "faithfulness_claims": {"claims": ["a"]},
                    "faithfulness_verdicts": verdicts("yes"),
                }
            )
        )
        cases = [rag_case(index=i, id=str(i)) for i in range(5)]
        cases.append(case(index=5, id="5", actual_output="x", retrieval_context=["other"]))
        results = run_metrics(judge, SPEC, cases)
        assert len(judge.calls_for("faithfulness_truths")) == 2
        assert sum(r.usage.calls for r in results) == 2 + 6 + 6
        assert sum(r.logs["truths_shared"] for r in results) == 4

    def test_each_image_in_retrieval_context_is_a_node(self, judge: ScriptedJudge) -> None:
        judge.script(
            by_task(
                {
                    "faithfulness_truths": {"truths": ["a red circle"]},
                    "faithfulness_claims": {"claims": ["a"]},
                    "faithfulness_verdicts": verdicts("yes"),
                }
            )
        )
        image = {"type": "image_url", "image_url": {"url": PNG}}
        test_case = rag_case(retrieval_context=[["before", image, "after"], "plain"])
        run_metric(judge, SPEC, test_case)
        request = judge.calls_for("faithfulness_truths")[0]
        assert image_parts(request) == [PNG]
        text = user_text(request)
        assert "Node 1: before" in text and "Node 2 (image):" in text
        assert "Node 3: after" in text and "Node 4: plain" in text
