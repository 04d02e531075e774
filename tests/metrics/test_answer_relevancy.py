"""answer_relevancy against the scripted judge."""

import pytest

from tests.fixtures.judge import ScriptedJudge, image_parts
from tests.fixtures.metrics import by_task, case, run_metric, user_text

PNG = "data:image/png;base64,iVBORw0KGgo="
GIF = "data:image/gif;base64,R0lGODlh"
SPEC = {"type": "answer_relevancy"}


def image(url: str) -> dict:
    return {"type": "image_url", "image_url": {"url": url}}


def answer(statements: list[str], images: list[str] = (), reason: str = "summary") -> dict:
    return {
        "statements": [{"statement": f"s{i}", "verdict": v} for i, v in enumerate(statements)],
        "images": [{"image": i, "verdict": v} for i, v in enumerate(images, start=1)],
        "reason": reason,
    }


class TestAnswerRelevancy:
    def test_yes_and_idk_over_all_verdicts(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({"answer_relevancy_verdicts": answer(["yes", "no", "idk", "no"])}))
        result = run_metric(judge, SPEC, case(actual_output="Paris. Nice weather."))
        assert result.score == pytest.approx(2 / 4)
        assert (result.passed, result.reason, result.usage.calls) == (True, "summary", 1)
        assert [v["verdict"] for v in result.logs["verdicts"]] == ["yes", "no", "idk", "no"]

    def test_borderline_is_read_as_idk(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({"answer_relevancy_verdicts": answer(["Borderline, maybe", "no"])}))
        result = run_metric(judge, SPEC, case(actual_output="x"))
        assert result.score == 0.5
        assert result.logs["verdicts"][0]["verdict"] == "idk"

    def test_no_statements_score_one(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({"answer_relevancy_verdicts": answer([])}))
        result = run_metric(judge, SPEC, case(actual_output="..."))
        assert (result.score, result.passed, result.error) == (1.0, True, None)

    @pytest.mark.parametrize("verdicts", [["partially", "unclear"], ["yes", "maybe?"]])
    def test_unreadable_verdicts_are_a_judge_error(
        self, judge: ScriptedJudge, verdicts: list[str]
    ) -> None:
        # Once dropped, which scored 1.0 (passed) when none could be read. deepeval's schema
        # refuses them too (its metric raises); here the judge is asked once to repair.
        judge.script(by_task({"answer_relevancy_verdicts": answer(verdicts)}))
        result = run_metric(judge, SPEC, case(actual_output="Paris is in Germany. Cheese."))
        assert (result.score, result.passed) == (None, None)
        assert result.error.type == "judge_malformed"
        assert "field statements" in result.error.message
        assert "not one of borderline, idk, no, yes" in result.error.message
        assert "'unclear'" in result.error.message or "'maybe?'" in result.error.message
        assert result.usage.calls == 2 and len(judge.requests) == 2

    def test_an_unreadable_image_verdict_is_a_judge_error(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({"answer_relevancy_verdicts": answer(["yes"], ["somewhat"])}))
        result = run_metric(judge, SPEC, case(actual_output=["A cat:", image(PNG)]))
        assert result.error.type == "judge_malformed" and "field images" in result.error.message

    def test_a_repaired_reply_is_scored(self, judge: ScriptedJudge) -> None:
        judge.sequence(answer(["partially", "no"]), answer(["yes", "no"]))
        result = run_metric(judge, SPEC, case(actual_output="a. b."))
        assert (result.score, result.error, result.usage.calls) == (0.5, None, 2)
        assert "not one of" in user_text(judge.requests[1])

    def test_output_images_are_statements_of_their_own(self, judge: ScriptedJudge) -> None:
        # deepeval 4.3.1 adds no image statements: its score here would be 1/1.
        judge.script(by_task({"answer_relevancy_verdicts": answer(["yes"], ["no", "yes"])}))
        output = ["A cat:", image(PNG), "and a dog:", image(GIF)]
        result = run_metric(judge, SPEC, case(input=["What pets?"], actual_output=output))
        assert result.score == pytest.approx(2 / 3)
        assert result.logs["images"] == 2
        request = judge.requests[0]
        assert image_parts(request) == [PNG, GIF]
        text = user_text(request)
        assert "[Image 1]" in text and "[Image 2]" in text and "2 image(s)" in text

    def test_an_unjudged_output_image_is_a_judge_error(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({"answer_relevancy_verdicts": answer(["yes"], ["yes"])}))
        output = [image(PNG), image(GIF)]
        result = run_metric(judge, SPEC, case(actual_output=output))
        assert result.score is None and result.error.type == "invalid_answer"
        assert "[1] but the output shows 2 image(s)" in result.error.message
        assert result.usage.calls == 2  # the reply and one repair request

    def test_strict_mode_and_no_reason(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({"answer_relevancy_verdicts": answer(["yes", "no"])}))
        spec = {**SPEC, "strict_mode": True, "include_reason": False}
        result = run_metric(judge, spec, case(actual_output="x"))
        assert (result.score, result.threshold, result.passed, result.reason) == (
            0.0,
            1.0,
            False,
            None,
        )
        assert 'Finally give "reason"' not in judge.requests[0]["messages"][0]["content"]
