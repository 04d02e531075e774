"""text_to_image and image_editing (VIEScore) against the scripted judge."""

import math
import threading

import pytest

from app.metrics import parse_spec
from tests.fixtures.judge import Reply, ScriptedJudge, image_parts, task_of
from tests.fixtures.metrics import by_task, case, run_metric, user_text

ORIGINAL = "data:image/png;base64,iVBORw0KGgo="
EDITED = "data:image/gif;base64,R0lGODlh"


def image(url: str) -> dict:
    return {"type": "image_url", "image_url": {"url": url}}


def scores(*values: float, reasoning: str = "why") -> dict:
    return {"reasoning": reasoning, "score": list(values)}


def t2i_case(**fields):
    return case(**{"input": "A red fox in snow", "actual_output": [image(EDITED)], **fields})


def edit_case(**fields):
    values = {"input": ["Make the sky purple", image(ORIGINAL)], "actual_output": [image(EDITED)]}
    return case(**{**values, **fields})


class TestTextToImage:
    def test_formula_on_the_minima(self, judge: ScriptedJudge) -> None:
        judge.script(
            by_task(
                {
                    "text_to_image_semantic": scores(8, reasoning="fox ok"),
                    "image_perceptual": scores(9, 4, reasoning="blurry"),
                }
            )
        )
        result = run_metric(judge, {"type": "text_to_image"}, t2i_case())
        assert result.score == pytest.approx(math.sqrt(8 * 4) / 10)  # 0.566, the reference's
        assert result.passed is True and result.usage.calls == 2
        assert result.logs["semantic_scores"] == [8.0]
        assert result.logs["perceptual_scores"] == [9.0, 4.0]
        assert "fox ok" in result.reason and "blurry" in result.reason and "0.57" in result.reason
        semantic = judge.calls_for("text_to_image_semantic")[0]
        assert image_parts(semantic) == [EDITED] and "A red fox in snow" in user_text(semantic)
        # The perceptual call sees the image only.
        perceptual = judge.calls_for("image_perceptual")[0]
        assert image_parts(perceptual) == [EDITED] and "fox" not in user_text(perceptual)

    def test_the_two_calls_are_in_flight_together(self, judge: ScriptedJudge) -> None:
        judge.script(
            by_task({"text_to_image_semantic": scores(5), "image_perceptual": scores(5, 5)})
        )
        judge.hold()
        done = threading.Event()

        def release_when_both_arrive() -> None:
            while len(judge.requests) < 2 and not done.wait(0.01):
                pass
            judge.release()

        watcher = threading.Thread(target=release_when_both_arrive, daemon=True)
        watcher.start()
        result = run_metric(judge, {"type": "text_to_image"}, t2i_case())
        done.set()
        watcher.join()
        # One call after the other, the held first call would time out and the metric fail.
        assert result.score == 0.5 and judge.max_in_flight == 2

    def test_judge_scores_off_the_scale_are_an_invalid_answer(self, judge: ScriptedJudge) -> None:
        # deepeval uses 12 as returned: sqrt(12·12)/10 = 1.2; Loupe clamped it to 1.0 and passed.
        judge.script(
            by_task({"text_to_image_semantic": scores(12), "image_perceptual": scores(9, 9)})
        )
        result = run_metric(judge, {"type": "text_to_image"}, t2i_case())
        assert (result.score, result.error.type) == (None, "invalid_answer")
        assert "score 12 is outside the asked range 0 to 10" in result.error.message
        judge.script(
            by_task({"text_to_image_semantic": scores(3), "image_perceptual": scores(9, 9, 9)})
        )
        result = run_metric(judge, {"type": "text_to_image"}, t2i_case())
        assert (result.score, result.error.type) == (None, "invalid_answer")
        assert "3 score(s) where 2 were asked for" in result.error.message

    def test_an_empty_score_list_is_a_judge_error(self, judge: ScriptedJudge) -> None:
        # deepeval crashes on min() of an empty list.
        judge.script(
            by_task({"text_to_image_semantic": scores(), "image_perceptual": scores(9, 9)})
        )
        result = run_metric(judge, {"type": "text_to_image"}, t2i_case())
        assert result.score is None and result.error.type == "judge_malformed"
        # The perceptual call and the semantic call with its one repair request all count.
        assert result.usage.calls == 3

    def test_an_invalid_score_list_is_a_judge_error(self, judge: ScriptedJudge) -> None:
        judge.script(
            by_task(
                {
                    "text_to_image_semantic": {"reasoning": "r", "score": ["high"]},
                    "image_perceptual": scores(9, 9),
                }
            )
        )
        result = run_metric(judge, {"type": "text_to_image"}, t2i_case())
        assert result.score is None and result.error.type == "judge_malformed"

    @pytest.mark.parametrize("written", ["NaN", "Infinity", "-Infinity"])
    def test_a_non_finite_sub_score_is_a_judge_error(
        self, judge: ScriptedJudge, written: str
    ) -> None:
        # Python's JSON reader takes NaN and Infinity; neither is a 0..10 score (an infinity
        # is not clamped to 10), and a NaN score would poison the evaluation's sums.
        judge.script(
            by_task(
                {
                    "text_to_image_semantic": Reply(
                        content=f'{{"reasoning": "ok", "score": [{written}]}}'
                    ),
                    "image_perceptual": scores(9, 4),
                }
            )
        )
        result = run_metric(judge, {"type": "text_to_image"}, t2i_case())
        assert (result.score, result.passed) == (None, None)
        assert result.error.type == "judge_malformed"
        assert "score.0" in result.error.message and "finite" in result.error.message
        # The semantic call and its one repair request, plus the perceptual call.
        assert result.usage.calls == 3
        assert len(judge.calls_for("text_to_image_semantic")) == 2

    def test_input_images_are_ignored_and_its_text_joined(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({"text_to_image_semantic": scores(5), "image_perceptual": scores(5)}))
        prompt = ["A fox", image(ORIGINAL), "in snow"]
        run_metric(judge, {"type": "text_to_image"}, t2i_case(input=prompt))
        semantic = judge.calls_for("text_to_image_semantic")[0]
        assert image_parts(semantic) == [EDITED] and "A fox\nin snow" in user_text(semantic)

    def test_a_case_without_one_output_image_is_refused(self, judge: ScriptedJudge) -> None:
        result = run_metric(judge, {"type": "text_to_image"}, t2i_case(actual_output="no image"))
        assert result.error.type == "invalid_test_case" and judge.requests == []

    def test_submit_check_names_the_field(self) -> None:
        spec = parse_spec({"type": "text_to_image"})
        two = t2i_case(actual_output=[image(EDITED), image(ORIGINAL)])
        assert spec.test_case_problems(two) == [
            ("actual_output", "needs exactly one image (the generated one), has 2")
        ]
        assert spec.test_case_problems(t2i_case()) == []


class TestImageEditing:
    def test_both_images_in_order_and_the_formula(self, judge: ScriptedJudge) -> None:
        judge.script(
            by_task({"image_editing_semantic": scores(9, 3), "image_perceptual": scores(8, 7)})
        )
        result = run_metric(judge, {"type": "image_editing"}, edit_case())
        assert result.score == pytest.approx(math.sqrt(3 * 7) / 10)
        semantic = judge.calls_for("image_editing_semantic")[0]
        assert image_parts(semantic) == [ORIGINAL, EDITED]
        text = user_text(semantic)
        # Clean text, not deepeval's one-element list repr.
        assert "Make the sky purple" in text and "['" not in text
        assert image_parts(judge.calls_for("image_perceptual")[0]) == [EDITED]
        assert {task_of(r) for r in judge.requests} == {
            "image_editing_semantic",
            "image_perceptual",
        }

    def test_a_zero_sub_score_gives_zero(self, judge: ScriptedJudge) -> None:
        judge.script(
            by_task({"image_editing_semantic": scores(0, 10), "image_perceptual": scores(10, 10)})
        )
        result = run_metric(judge, {"type": "image_editing", "threshold": 0.1}, edit_case())
        assert (result.score, result.passed) == (0.0, False)

    def test_strict_mode(self, judge: ScriptedJudge) -> None:
        judge.script(
            by_task({"image_editing_semantic": scores(9, 9), "image_perceptual": scores(9, 9)})
        )
        result = run_metric(judge, {"type": "image_editing", "strict_mode": True}, edit_case())
        assert (result.score, result.threshold, result.passed) == (0.0, 1.0, False)

    def test_submit_check_names_each_field(self) -> None:
        spec = parse_spec({"type": "image_editing"})
        bad = case(input="Make the sky purple", actual_output=[image(EDITED), image(EDITED)])
        assert spec.test_case_problems(bad) == [
            ("input", "needs exactly one image (the original), has 0"),
            ("actual_output", "needs exactly one image (the edited one), has 2"),
        ]
