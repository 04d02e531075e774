"""image_helpfulness: does each image of actual_output help a reader understand the text?

Mean over images of the judge's 0-10 score / 10 (engine: `_image_in_text`).
"""

from typing import Literal

from app.metrics._image_in_text import ImageInTextSpecBase, measure_images, plan_images
from app.metrics._plan import PlannedCall
from app.metrics._types import MetricContext, MetricResult, MetricTestCase

RUBRIC = (
    "An AI wrote a document that mixes text and images. You see one of its images with the "
    "text just before and just after it. Score how much the image helps a reader understand "
    "that text: 0-3 it adds nothing or confuses; 4-6 it helps somewhat but leaves out or "
    "muddles key points; 7-9 it clearly helps, with minor shortcomings; 10 it makes the text "
    "markedly easier to understand."
)


class ImageHelpfulnessSpec(ImageInTextSpecBase):
    type: Literal["image_helpfulness"]


def plan(spec: ImageHelpfulnessSpec, case: MetricTestCase) -> list[PlannedCall]:
    """One call per image."""
    return plan_images(spec, case, "image_helpfulness", RUBRIC)


async def measure(
    spec: ImageHelpfulnessSpec, case: MetricTestCase, ctx: MetricContext
) -> MetricResult:
    """One judge call per image."""
    return await measure_images(spec, case, ctx, "image_helpfulness", RUBRIC)
