"""exact_match: the actual output's text equals the expected output's text."""

from typing import ClassVar, Literal

from pydantic import Field

from app.media.parts import text_of
from app.metrics._types import (
    MetricContext,
    MetricResult,
    MetricSpecBase,
    MetricTestCase,
    TestCaseField,
)


class ExactMatchSpec(MetricSpecBase):
    required_fields: ClassVar[tuple[TestCaseField, ...]] = ("actual_output", "expected_output")

    type: Literal["exact_match"]
    case_sensitive: bool = Field(default=True, strict=True)
    strip: bool = Field(
        default=True, strict=True, description="Ignore leading and trailing whitespace."
    )
    threshold: float = Field(default=1.0, ge=0, le=1, strict=True)


def _normalise(text: str, spec: ExactMatchSpec) -> str:
    if spec.strip:
        text = text.strip()
    if not spec.case_sensitive:
        text = text.casefold()
    return text


async def measure(spec: ExactMatchSpec, case: MetricTestCase, ctx: MetricContext) -> MetricResult:
    """1 when the normalised texts are equal, else 0; the reason names the first difference."""
    actual = _normalise(text_of(case.actual_output), spec)
    expected = _normalise(text_of(case.expected_output), spec)
    score = 1.0 if actual == expected else 0.0
    if score:
        reason = "actual_output matches expected_output"
    else:
        at = next(
            (i for i, (a, b) in enumerate(zip(actual, expected, strict=False)) if a != b),
            min(len(actual), len(expected)),
        )
        reason = (
            f"actual_output differs from expected_output at character {at} "
            f"(lengths {len(actual)} and {len(expected)})"
        )
    return MetricResult.scored(
        score,
        spec.threshold,
        reason,
        {
            "actual": actual,
            "expected": expected,
            "case_sensitive": spec.case_sensitive,
            "strip": spec.strip,
        },
    )
