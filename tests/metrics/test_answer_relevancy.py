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

    def test_no_verdicts_score_one(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({"answer_relevancy_verdicts": answer(["maybe?"])}))
        result = run_metric(judge, SPEC, case(actual_output="x"))
        assert (result.score, result.passed) == (1.0, True)
        assert [v["verdict"] for v in result.logs["dropped_verdicts"]] == ["maybe?"]

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
        assert "[2]" in result.error.message and result.usage.calls == 1

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
