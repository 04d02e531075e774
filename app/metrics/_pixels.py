"""What psnr and ssim share: the two images of a test case as same-sized RGB arrays."""

import asyncio
import io
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np
from PIL import Image

from app.media.images import ImageError, decode_data_url
from app.metrics import _render as render
from app.metrics._types import (
    MetricError,
    MetricResult,
    MetricSpecBase,
    MetricTestCase,
    TestCaseField,
)

# Images reach metrics normalised at submit (app.media), well under this.
_MAX_BYTES = 64 * 1024 * 1024


class PixelSpecBase(MetricSpecBase):
    required_fields: ClassVar[tuple[TestCaseField, ...]] = ("actual_output", "expected_output")

    def test_case_problems(self, case: Any) -> list[tuple[str, str]]:
        problems = []
        for field in ("actual_output", "expected_output"):
            count = render.count_images(getattr(case, field))
            if count != 1:
                problems.append((field, f"needs exactly one image, has {count}"))
        return problems


def _rgb(url: str) -> Image.Image:
    _, data = decode_data_url(url, _MAX_BYTES)
    with Image.open(io.BytesIO(data)) as image:
        image.seek(0)  # an animation's first frame
        # Transparent pixels count as white, as they show on a page.
        if image.mode in ("RGBA", "LA", "P", "PA"):
            image = image.convert("RGBA")
            background = Image.new("RGBA", image.size, "white")
            return Image.alpha_composite(background, image).convert("RGB")
        return image.convert("RGB")


def pair(case: MetricTestCase) -> tuple[np.ndarray, np.ndarray, dict[str, Any]]:
    """(actual, expected) as uint8 RGB arrays of the expected image's size, and what was done.

    The actual image is resized (bicubic) to the expected one's size when they differ: the
    reference sets the resolution a restoration or edit is judged at.
    """
    actual = _rgb(render.images(case.actual_output)[0]["image_url"]["url"])
    expected = _rgb(render.images(case.expected_output)[0]["image_url"]["url"])
    logs: dict[str, Any] = {"size": list(expected.size), "actual_size": list(actual.size)}
    if actual.size != expected.size:
        actual = actual.resize(expected.size, Image.Resampling.BICUBIC)
    logs["resized"] = logs["size"] != logs["actual_size"]
    return np.asarray(actual), np.asarray(expected), logs


def resizing(logs: dict[str, Any]) -> str:
    """How the two images were compared, as the reason says it."""
    width, height = logs["size"]
    if not logs["resized"]:
        return f"both images {width}x{height}"
    actual_width, actual_height = logs["actual_size"]
    return (
        f"the actual image resized from {actual_width}x{actual_height} to the expected "
        f"image's {width}x{height}"
    )


async def measure_pixels(
    spec: PixelSpecBase,
    case: MetricTestCase,
    compare: Callable[[np.ndarray, np.ndarray], tuple[float, dict[str, Any]]],
    describe: Callable[[float, dict[str, Any]], str],
) -> MetricResult:
    """Run `compare(actual, expected)` off the event loop (it is CPU work) into a result whose
    reason is `describe(score, logs)`."""
    problems = spec.test_case_problems(case)
    if problems:
        field, message = problems[0]
        return MetricResult.failure(
            spec.threshold, MetricError("invalid_test_case", f"{field} {message}")
        )

    def work() -> tuple[float, dict[str, Any]]:
        actual, expected, logs = pair(case)
        score, more = compare(actual, expected)
        return score, {**logs, **more}

    try:
        score, logs = await asyncio.to_thread(work)
    except (ImageError, OSError, ValueError) as exc:
        return MetricResult.failure(spec.threshold, MetricError("invalid_image", str(exc)))
    return MetricResult.scored(score, spec.threshold, describe(score, logs), logs)
