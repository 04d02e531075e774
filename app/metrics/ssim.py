"""ssim: structural similarity of actual_output's image to expected_output's (-1..1, 1 = same).

scikit-image's `structural_similarity` over the RGB channels (data range 255, 7×7 window; a
smaller odd window for images under 7 pixels on a side), the actual image resized to the
expected one's size.
"""

from typing import Any, Literal

import numpy as np
from pydantic import Field
from skimage.metrics import structural_similarity

from app.metrics._pixels import PixelSpecBase, measure_pixels, resizing
from app.metrics._types import MetricContext, MetricResult, MetricTestCase


class SsimSpec(PixelSpecBase):
    type: Literal["ssim"]
    threshold: float = Field(default=0.9, ge=-1, le=1, strict=True)

    def score_bounds(self) -> tuple[float, float]:
        return (-1.0, 1.0)


def window(height: int, width: int) -> int:
    """The SSIM window: 7, or the largest odd size that fits a smaller image."""
    side = min(7, height, width)
    if side % 2 == 0:
        side -= 1
    if side < 3:
        raise ValueError(f"a {width}x{height} image is too small for SSIM (3 pixels a side)")
    return side


async def measure(spec: SsimSpec, case: MetricTestCase, ctx: MetricContext) -> MetricResult:
    """Mean SSIM over the image and its channels."""

    def compare(actual: np.ndarray, expected: np.ndarray) -> tuple[float, dict[str, Any]]:
        win = window(*expected.shape[:2])
        value = structural_similarity(
            expected, actual, win_size=win, channel_axis=2, data_range=255
        )
        return float(value), {"win_size": win}

    def describe(score: float, logs: dict[str, Any]) -> str:
        side = logs["win_size"]
        return (
            f"SSIM is {score:.4f} (1 is identical, -1 inverted; mean over {side}x{side} windows "
            f"and the RGB channels; {resizing(logs)}); "
            f"{'at or above' if score >= spec.threshold else 'under'} the threshold of "
            f"{spec.threshold:g}."
        )

    return await measure_pixels(spec, case, compare, describe)
