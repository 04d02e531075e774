"""image_coherence: does each image of actual_output fit the text around it?

Mean over images of the judge's 0-10 score / 10 (engine: `_image_in_text`).
"""

from typing import Literal

from app.metrics._image_in_text import ImageInTextSpecBase, measure_images, plan_images
from app.metrics._plan import PlannedCall
from app.metrics._types import MetricContext, MetricResult, MetricTestCase

RUBRIC = (
    "An AI wrote a document that mixes text and images. You see one of its images with the "
    "text just before and just after it. Score how well the image and that text belong "
    "together: 0-3 the image has little or nothing to do with the text; 4-6 it is related but "
    "only loosely or partly matches; 7-9 it matches the text well with small gaps; 10 image "
    "and text match completely."
)


class ImageCoherenceSpec(ImageInTextSpecBase):
    type: Literal["image_coherence"]


def plan(spec: ImageCoherenceSpec, case: MetricTestCase) -> list[PlannedCall]:
    """One call per image."""
    return plan_images(spec, case, "image_coherence", RUBRIC)


async def measure(
    spec: ImageCoherenceSpec, case: MetricTestCase, ctx: MetricContext
) -> MetricResult:
    """One judge call per image."""
    return await measure_images(spec, case, ctx, "image_coherence", RUBRIC)
