"""text_to_image: does the generated image follow its prompt, and does it look right? (VIEScore)

Two judge calls at once: semantic consistency (one 0-10 score: the image against the prompt) and
perceptual quality (naturalness, artifacts). Score = sqrt(min SC × min PQ) / 10. actual_output
must hold exactly one image (checked at submit); the prompt is the input's text, its images
ignored as in deepeval.
"""

from typing import Any, ClassVar, Literal

from app.metrics import _render as render
from app.metrics import _verdicts, _viescore
from app.metrics._judged import JudgedSpecBase, JudgeSession, passed, run_judged
from app.metrics._types import (
    MetricContext,
    MetricError,
    MetricResult,
    MetricTestCase,
    TestCaseField,
)


class TextToImageSpec(JudgedSpecBase):
    required_fields: ClassVar[tuple[TestCaseField, ...]] = ("input", "actual_output")

    type: Literal["text_to_image"]

    def test_case_problems(self, case: Any) -> list[tuple[str, str]]:
        count = render.count_images(case.actual_output)
        if count != 1:
            return [("actual_output", f"needs exactly one image (the generated one), has {count}")]
        return []


SEMANTIC_PROMPT = (
    "Loupe task: text_to_image_semantic\n" + _viescore.PREAMBLE + "Give one score for how well "
    "the image follows the text prompt: 0 = it shows nothing the prompt asks for, 10 = it shows "
    "everything the prompt asks for and nothing that contradicts it.\n"
    'Answer with JSON only: {"reasoning": "...", "score": [consistency]}'
)


def prompt_text(content: Any) -> str:
    """The text of a content value, its parts joined by newlines."""
    return "\n".join(
        part["text"] for part in render.content_parts(content) if part.get("type") == "text"
    )


async def measure(spec: TextToImageSpec, case: MetricTestCase, ctx: MetricContext) -> MetricResult:
    """Semantic and perceptual judge calls, concurrently."""

    problems = spec.test_case_problems(case)
    if problems:
        # Submit refuses such cases; this guards cases that reach the metric another way.
        field, message = problems[0]
        return MetricResult.failure(
            spec.threshold, MetricError("invalid_test_case", f"{field} {message}")
        )

    async def body(judge: JudgeSession) -> MetricResult:
        output = render.images(case.actual_output)[0]
        semantic_parts = [
            render.text(f"Text prompt:\n{prompt_text(case.input)}\nThe generated image:"),
            output,
        ]
        score, logs = await _viescore.judge_both(
            judge, (SEMANTIC_PROMPT, semantic_parts, _viescore.SEMANTIC_T2I), output
        )
        score = _verdicts.strict_clamp(score, spec.threshold, spec.strict_mode)
        reason = _viescore.reason(score, logs) if spec.include_reason else None
        return MetricResult(score, passed(score, spec.threshold), spec.threshold, reason, logs=logs)

    return await run_judged(spec, ctx, body)
