"""image_editing: was the edit instruction carried out, minimally, and does it look right?

VIEScore's editing variant: the semantic call sees the original image (the input's) then the
edited one (actual_output's) and gives editing success and over-editing scores; the perceptual
call is text_to_image's on the edited image. Score = sqrt(min SC × min PQ) / 10. Exactly one
image in input and one in actual_output, checked at submit.
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
from app.metrics.text_to_image import prompt_text


class ImageEditingSpec(JudgedSpecBase):
    required_fields: ClassVar[tuple[TestCaseField, ...]] = ("input", "actual_output")

    type: Literal["image_editing"]

    def test_case_problems(self, case: Any) -> list[tuple[str, str]]:
        problems = []
        for field, role in (("input", "the original"), ("actual_output", "the edited one")):
            count = render.count_images(getattr(case, field))
            if count != 1:
                problems.append((field, f"needs exactly one image ({role}), has {count}"))
        return problems


SEMANTIC_PROMPT = (
    "Loupe task: image_editing_semantic\n" + _viescore.PREAMBLE + "You get an editing "
    "instruction, the original image, then the edited image. Give two scores: first editing "
    "success (0 = the instruction was ignored, 10 = it was carried out fully), then "
    "over-editing (0 = the edited image is a different scene altogether, 10 = only what the "
    "instruction asks for changed).\n"
    'Answer with JSON only: {"reasoning": "...", "score": [success, over_editing]}'
)


def _parts(case: MetricTestCase) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    original = render.images(case.input)[0]
    edited = render.images(case.actual_output)[0]
    return [
        render.text(f"Editing instruction:\n{prompt_text(case.input)}\nThe original image:"),
        original,
        render.text("The edited image:"),
        edited,
    ], edited


def plan(spec: ImageEditingSpec, case: MetricTestCase) -> list[PlannedCall]:
    """The semantic and perceptual calls."""
    return _viescore.plan(spec, case, (SEMANTIC_PROMPT, "image_editing_semantic"), _parts)


async def measure(spec: ImageEditingSpec, case: MetricTestCase, ctx: MetricContext) -> MetricResult:
    """Semantic (both images) and perceptual (edited image) judge calls, concurrently."""
    return await _viescore.measure(
        spec, case, ctx, (SEMANTIC_PROMPT, _viescore.SEMANTIC_EDIT), _parts
    )
