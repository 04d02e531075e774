"""text_to_image: does the generated image follow its prompt, and does it look right? (VIEScore)

Two judge calls at once: semantic consistency (one 0-10 score: the image against the prompt) and
perceptual quality (naturalness, artifacts). Score = sqrt(min SC × min PQ) / 10. actual_output
must hold exactly one image (checked at submit); the prompt is the input's text, its images
ignored as in deepeval.
"""

from typing import Any, ClassVar, Literal

from app.metrics import _render as render
from app.metrics import _viescore
from app.metrics._judged import JudgedSpecBase
from app.metrics._plan import PlannedCall
from app.metrics._types import (
    MetricContext,
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


def _parts(case: MetricTestCase) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    output = render.images(case.actual_output)[0]
    prompt = render.text(f"Text prompt:\n{prompt_text(case.input)}\nThe generated image:")
    return [prompt, output], output


def plan(spec: TextToImageSpec, case: MetricTestCase) -> list[PlannedCall]:
    """The semantic and perceptual calls."""
    return _viescore.plan(spec, case, (SEMANTIC_PROMPT, "text_to_image_semantic"), _parts)


async def measure(spec: TextToImageSpec, case: MetricTestCase, ctx: MetricContext) -> MetricResult:
    """Semantic and perceptual judge calls, concurrently."""
    return await _viescore.measure(
        spec, case, ctx, (SEMANTIC_PROMPT, _viescore.SEMANTIC_T2I), _parts
    )
