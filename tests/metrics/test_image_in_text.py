"""image_coherence, image_helpfulness and image_reference (one engine) against the judge."""

import pytest

from app.metrics import parse_spec
from app.metrics._image_in_text import NO_TEXT_AFTER, NO_TEXT_BEFORE, image_contexts
from tests.fixtures.judge import ScriptedJudge, image_parts
from tests.fixtures.metrics import by_task, case, run_metric, user_text

A = "data:image/png;base64,iVBORw0KGgo="
B = "data:image/gif;base64,R0lGODlh"
TYPES = ("image_coherence", "image_helpfulness", "image_reference")


def image(url: str) -> dict:
    return {"type": "image_url", "image_url": {"url": url}}


def by_image(scores: dict[str, float], task: str):
    """Score each call by the image it carries."""

    def respond(request: dict) -> dict:
        (url,) = image_parts(request)
        return {"reasoning": f"about {url[11:14]}", "score": scores[url]}

    return by_task({task: respond})


class TestImageContexts:
    def test_nearest_text_each_side_skipping_images(self) -> None:
        content = ["Intro. ", "Before A.", image(A), image(B), "After B.", "Tail."]
        found = image_contexts(content, None)
        # Adjacent text parts are one segment; B's text before is A's, past image A.
        assert [(before, after) for _, before, after in found] == [
            ("Intro. Before A.", "After B.Tail."),
            ("Intro. Before A.", "After B.Tail."),
        ]

    def test_max_context_size_keeps_the_near_end_in_characters(self) -> None:
        (found,) = image_contexts(["abcdefgh", image(A), "12345678"], 3)
        assert found[1:] == ("fgh", "123")

    def test_missing_and_blank_sides(self) -> None:
        # deepeval takes the blank between two images as their context; it is skipped here.
        found = image_contexts([image(A), "  ", image(B)], None)
        assert [(before, after) for _, before, after in found] == [(None, None), (None, None)]


class TestImageInText:
    @pytest.mark.parametrize("metric", TYPES)
    def test_mean_of_per_image_scores(self, judge: ScriptedJudge, metric: str) -> None:
        judge.script(by_image({A: 8, B: 3}, metric))
        output = ["Here is a fox.", image(A), "And a dog.", image(B)]
        result = run_metric(judge, {"type": metric}, case(actual_output=output))
        assert result.score == pytest.approx((0.8 + 0.3) / 2)
        assert result.usage.calls == 2
        assert [i["score"] for i in result.logs["images"]] == [0.8, 0.3]
        assert result.reason == "Image 1: about png\nImage 2: about gif"

    def test_the_judge_is_told_plainly_what_is_missing(self, judge: ScriptedJudge) -> None:
        judge.script(by_image({A: 5}, "image_coherence"))
        run_metric(judge, {"type": "image_coherence"}, case(actual_output=[image(A)]))
        text = user_text(judge.requests[0])
        assert NO_TEXT_BEFORE in text and NO_TEXT_AFTER in text
        assert "None" not in text  # deepeval writes the word None into the prompt

    def test_contexts_sent_are_truncated(self, judge: ScriptedJudge) -> None:
        judge.script(by_image({A: 5}, "image_reference"))
        output = ["x" * 50 + "near before", image(A), "near after" + "y" * 50]
        spec = {"type": "image_reference", "max_context_size": 11}
        run_metric(judge, spec, case(actual_output=output))
        text = user_text(judge.requests[0])
        assert "Text before the image:\nnear before\n" in text
        assert "Text after the image:\nnear aftery" in text
        assert "xnear" not in text and "aftery" + "y" not in text

    def test_scores_off_the_scale_are_an_invalid_answer(self, judge: ScriptedJudge) -> None:
        # deepeval gives 1.5 for a judge's 15; Loupe clamped it to 1.0.
        judge.script(by_image({A: 15, B: 5}, "image_helpfulness"))
        output = ["t", image(A), image(B)]
        result = run_metric(judge, {"type": "image_helpfulness"}, case(actual_output=output))
        assert (result.score, result.error.type) == (None, "invalid_answer")
        assert "score 15 is outside the asked range 0 to 10" in result.error.message

    def test_strict_mode(self, judge: ScriptedJudge) -> None:
        judge.script(by_image({A: 9}, "image_coherence"))
        spec = {"type": "image_coherence", "strict_mode": True}
        result = run_metric(judge, spec, case(actual_output=[image(A)]))
        assert (result.score, result.threshold, result.passed) == (0.0, 1.0, False)

    def test_one_failed_image_fails_the_metric(self, judge: ScriptedJudge) -> None:
        def respond(request: dict) -> dict:
            (url,) = image_parts(request)
            return {"reasoning": "r", "score": 5} if url == A else {"reasoning": "r"}

        judge.script(by_task({"image_coherence": respond}))
        output = [image(A), "t", image(B)]
        result = run_metric(judge, {"type": "image_coherence"}, case(actual_output=output))
        assert result.score is None and result.error.type == "judge_malformed"

    @pytest.mark.parametrize("metric", TYPES)
    def test_an_output_without_images_is_refused(self, judge: ScriptedJudge, metric: str) -> None:
        spec = parse_spec({"type": metric})
        assert spec.test_case_problems(case(actual_output="text only")) == [
            ("actual_output", "needs at least one image")
        ]
        result = run_metric(judge, {"type": metric}, case(actual_output="text only"))
        assert result.error.type == "invalid_test_case" and judge.requests == []


@pytest.mark.parametrize("metric", TYPES)
def test_input_is_not_required(metric: str) -> None:
    # deepeval requires input, then never reads it.
    assert parse_spec({"type": metric}).required_test_case_fields() == ("actual_output",)
