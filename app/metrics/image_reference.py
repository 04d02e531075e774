"""image_reference: is each image of actual_output referred to and explained by the text?

Mean over images of the judge's 0-10 score / 10 (engine: `_image_in_text`).
"""

from typing import Literal

from app.metrics._image_in_text import ImageInTextSpecBase, measure_images, plan_images
from app.metrics._plan import PlannedCall
from app.metrics._types import MetricContext, MetricResult, MetricTestCase

RUBRIC = (
    "An AI wrote a document that mixes text and images. You see one of its images with the "
    "text just before and just after it. Score whether that text refers to the image and "
    "explains it: 0 the text never mentions the image; 1-3 it alludes to it only indirectly "
    "and unhelpfully; 4-6 it mentions it directly but poorly, or indirectly but usefully; 7-9 "
    "it mentions it directly and explains it well; 10 it mentions it directly, at the right "
    "place, and explains it fully."
)


class ImageReferenceSpec(ImageInTextSpecBase):
    type: Literal["image_reference"]


def plan(spec: ImageReferenceSpec, case: MetricTestCase) -> list[PlannedCall]:
    """One call per image."""
    return plan_images(spec, case, "image_reference", RUBRIC)


async def measure(
    spec: ImageReferenceSpec, case: MetricTestCase, ctx: MetricContext
) -> MetricResult:
    """One judge call per image."""
    return await measure_images(spec, case, ctx, "image_reference", RUBRIC)
