"""psnr: peak signal-to-noise ratio, in dB, of actual_output's image against expected_output's.

scikit-image's `peak_signal_noise_ratio` on 8-bit RGB (data range 255), the actual image resized
to the expected one's size. Identical images have an infinite PSNR; the score is capped at
`max_db` (JSON has no infinity).
"""

from typing import Any, Literal

import numpy as np
from pydantic import Field, ValidationError, model_validator
from pydantic_core import InitErrorDetails, PydanticCustomError
from skimage.metrics import peak_signal_noise_ratio

from app.metrics._pixels import PixelSpecBase, measure_pixels, resizing
from app.metrics._types import MetricContext, MetricResult, MetricTestCase


class PsnrSpec(PixelSpecBase):
    type: Literal["psnr"]
    threshold: float = Field(
        default=30.0, ge=0, strict=True, description="In dB: `passed = psnr >= threshold`."
    )
    max_db: float = Field(default=100.0, gt=0, description="The score of identical images.")

    def score_bounds(self) -> tuple[float, float]:
        # 8-bit images: the MSE is at most 255², so the PSNR is at least 0 dB.
        return (0.0, self.max_db)

    @model_validator(mode="wrap")
    @classmethod
    def _max_db_reaches_threshold(cls, data: Any, handler: Any) -> Any:
        """A `max_db` under the default threshold (30 dB) failed every result, identical
        images included; a threshold sent is checked against `max_db` by the base spec."""
        spec = handler(data)
        if isinstance(data, dict) and "threshold" not in data and spec.max_db < spec.threshold:
            raise ValidationError.from_exception_data(
                cls.__name__,
                [
                    InitErrorDetails(
                        type=PydanticCustomError(
                            "max_db_under_threshold",
                            "is under the default threshold of {threshold} dB, so no image "
                            "could pass; send a threshold of at most max_db",
                            {"threshold": f"{spec.threshold:g}"},
                        ),
                        loc=("max_db",),
                        input=data.get("max_db"),
                    )
                ],
            )
        return spec


async def measure(spec: PsnrSpec, case: MetricTestCase, ctx: MetricContext) -> MetricResult:
    """PSNR in dB (higher is closer), capped at `max_db`."""

    def compare(actual: np.ndarray, expected: np.ndarray) -> tuple[float, dict[str, Any]]:
        mse = float(np.mean((actual.astype(np.float64) - expected.astype(np.float64)) ** 2))
        if mse == 0:
            return spec.max_db, {"mse": 0.0}
        db = float(peak_signal_noise_ratio(expected, actual, data_range=255))
        return min(db, spec.max_db), {"mse": mse}

    def describe(score: float, logs: dict[str, Any]) -> str:
        if logs["mse"] == 0:
            return (
                f"The images are identical ({resizing(logs)}): PSNR is infinite, stored as "
                f"max_db, {score:g} dB."
            )
        capped = f", capped at max_db {spec.max_db:g}" if score == spec.max_db else ""
        side = "at or above" if score >= spec.threshold else "under"
        return (
            f"PSNR is {score:.2f} dB{capped} (mean squared error {logs['mse']:.4g} per 8-bit "
            f"channel value; {resizing(logs)}); {side} the threshold of {spec.threshold:g} dB."
        )

    return await measure_pixels(spec, case, compare, describe)
