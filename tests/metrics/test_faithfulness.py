"""faithfulness against the scripted judge: formula, edge cases, sharing, images."""

import pytest

from tests.fixtures.judge import ScriptedJudge, image_parts, task_of
from tests.fixtures.metrics import by_task, case, run_metric, run_metrics, user_text

SPEC = {"type": "faithfulness"}
PNG = "data:image/png;base64,iVBORw0KGgo="
TRUTHS = {"truths": ["Paris is the capital of France."]}


def claims(*values: str, reason: str = "overall fine") -> dict:
    """The claims-with-verdicts answer: one claim per verdict value."""
    items = [
        {"claim": f"claim {i}", "verdict": v, "reason": f"because {v}"}
        for i, v in enumerate(values)
    ]
    return {"claims": items, "reason": reason}


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
            by_task({"faithfulness_truths": TRUTHS, "faithfulness_verdicts": claims(*values)})
        )
        result = run_metric(judge, {**SPEC, "penalize_ambiguous_claims": penalize}, rag_case())
        assert result.error is None
        assert result.score == pytest.approx(expected)
        assert result.passed is (expected >= 0.5)
        assert result.reason == "overall fine"
        assert result.usage.calls == 2
        assert [v["verdict"] for v in result.logs["verdicts"]] == normalised
        assert result.logs["claims"] == [f"claim {i}" for i in range(len(values))]
        assert result.logs["judge_json"]["truths"] == TRUTHS

    def test_no_claims_scores_one(self, judge: ScriptedJudge) -> None:
        judge.script(
            by_task(
                {
                    "faithfulness_truths": TRUTHS,
                    "faithfulness_verdicts": {"claims": [], "reason": ""},
                }
            )
        )
        result = run_metric(judge, SPEC, rag_case())
        assert (result.score, result.passed) == (1.0, True)
        assert "no factual claims" in result.reason

    def test_verdicts_with_an_empty_reason_are_asked_again(self, judge: ScriptedJudge) -> None:
        # Verdicts to explain and no reason: asked again (stored with the score, a reason
        # must say something); with no claims the metric says why itself (above).
        replies = iter([claims("yes", "no", reason=" "), claims("yes", "no", reason="half")])
        judge.script(
            lambda request: TRUTHS if task_of(request) == "faithfulness_truths" else next(replies)
        )
        result = run_metric(judge, SPEC, rag_case())
        assert result.error is None and result.reason == "half"
        assert result.usage.calls == 3  # truths, the reply and one repair request

    def test_unusable_verdicts_are_a_judge_error(self, judge: ScriptedJudge) -> None:
        # Once dropped, leaving no verdict: scored 1 and passed.
        judge.script(
            by_task(
                {"faithfulness_truths": TRUTHS, "faithfulness_verdicts": claims("maybe", "perhaps")}
            )
        )
        result = run_metric(judge, SPEC, rag_case())
        assert (result.score, result.passed, result.error.type) == (None, None, "judge_malformed")
        assert "'maybe', 'perhaps'" in result.error.message
        assert result.usage.calls == 3  # truths, the reply and one repair request

    def test_strict_mode_clamps_below_one(self, judge: ScriptedJudge) -> None:
        judge.script(
            by_task({"faithfulness_truths": TRUTHS, "faithfulness_verdicts": claims("yes", "no")})
        )
        result = run_metric(judge, {**SPEC, "strict_mode": True, "threshold": 0.2}, rag_case())
        assert (result.score, result.threshold, result.passed) == (0.0, 1.0, False)

    def test_without_reason(self, judge: ScriptedJudge) -> None:
        answer = {"claims": [{"claim": "a", "verdict": "yes"}]}
        judge.script(by_task({"faithfulness_truths": TRUTHS, "faithfulness_verdicts": answer}))
        result = run_metric(judge, {**SPEC, "include_reason": False}, rag_case())
        assert (result.score, result.reason) == (1.0, None)
        schema = judge.calls_for("faithfulness_verdicts")[0]["response_format"]["json_schema"]
        assert "reason" not in schema["schema"]["properties"]

    def test_claims_see_the_output_and_its_images(self, judge: ScriptedJudge) -> None:
        judge.script(
            by_task({"faithfulness_truths": TRUTHS, "faithfulness_verdicts": claims("yes")})
        )
        output = ["The picture shows", {"type": "image_url", "image_url": {"url": PNG}}]
        run_metric(judge, SPEC, rag_case(actual_output=output))
        request = judge.calls_for("faithfulness_verdicts")[0]
        assert image_parts(request) == [PNG]
        assert "The picture shows" in user_text(request)
        assert "Paris is the capital of France." in user_text(request)

    @pytest.mark.parametrize("where", ["actual_output", "retrieval_context", "input"])
    def test_image_cases_judge_absent_data_as_no(self, judge: ScriptedJudge, where) -> None:
        # deepeval's multimodal verdict prompt: what the context lacks altogether is `no`.
        judge.script(
            by_task({"faithfulness_truths": TRUTHS, "faithfulness_verdicts": claims("yes")})
        )
        image = {"type": "image_url", "image_url": {"url": PNG}}
        value = {"input": ["Which city?", image], "actual_output": ["Paris", image]}.get(
            where, [["Paris is the capital of France.", image]]
        )
        run_metric(judge, SPEC, rag_case(**{where: value}))
        with_images = user_text(judge.calls_for("faithfulness_verdicts")[0])
        judge.reset()
        judge.script(
            by_task({"faithfulness_truths": TRUTHS, "faithfulness_verdicts": claims("yes")})
        )
        run_metric(judge, SPEC, rag_case())
        text_only = user_text(judge.calls_for("faithfulness_verdicts")[0])
        rule = "do not mention at all gets `no`"
        assert rule in with_images and rule not in text_only


class TestTruths:
    def test_limit_is_enforced_not_only_asked(self, judge: ScriptedJudge) -> None:
        judge.script(
            by_task(
                {
                    "faithfulness_truths": {"truths": ["first", "second", "third"]},
                    "faithfulness_verdicts": claims("yes"),
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
                {"faithfulness_truths": {"truths": ["t"]}, "faithfulness_verdicts": claims("yes")}
            )
        )
        cases = [rag_case(index=i, id=str(i)) for i in range(5)]
        cases.append(case(index=5, id="5", actual_output="x", retrieval_context=["other"]))
        results = run_metrics(judge, SPEC, cases)
        assert len(judge.calls_for("faithfulness_truths")) == 2
        assert sum(r.usage.calls for r in results) == 2 + 6
        assert sum(r.logs["truths_shared"] for r in results) == 4

    def test_empty_retrieval_context_needs_no_truths_call(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({"faithfulness_verdicts": claims("idk")}))
        result = run_metric(judge, SPEC, rag_case(retrieval_context=[]))
        assert result.logs["truths"] == [] and result.usage.calls == 1
        assert "(no truths were found)" in user_text(judge.requests[0])

    def test_each_image_in_retrieval_context_is_a_node(self, judge: ScriptedJudge) -> None:
        judge.script(
            by_task(
                {
                    "faithfulness_truths": {"truths": ["a red circle"]},
                    "faithfulness_verdicts": claims("yes"),
                }
            )
        )
        image = {"type": "image_url", "image_url": {"url": PNG}}
        run_metric(judge, SPEC, rag_case(retrieval_context=[["before", image, "after"], "plain"]))
        request = judge.calls_for("faithfulness_truths")[0]
        assert image_parts(request) == [PNG]
        text = user_text(request)
        assert "Node 1: before" in text and "Node 2 (image):" in text
        assert "Node 3: after" in text and "Node 4: plain" in text
