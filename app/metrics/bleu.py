"""bleu: EvalScope's individual BLEU-n of actual_output against expected_output.

`n` picks the n-gram order (1..4, default 1, EvalScope's headline `BLEU · n-gram 1`); the
result's logs carry all of bleu-1..4 and the nine ROUGE values, as EvalScope's sample does.
"""

from typing import ClassVar, Literal

from pydantic import Field

from app.media.parts import text_of
from app.metrics._text_scores import shared_text_scores
from app.metrics._types import (
    MetricContext,
    MetricError,
    MetricResult,
    MetricSpecBase,
    MetricTestCase,
    TestCaseField,
)


class BleuSpec(MetricSpecBase):
    required_fields: ClassVar[tuple[TestCaseField, ...]] = ("actual_output", "expected_output")

    type: Literal["bleu"]
    n: int = Field(default=1, ge=1, le=4, description="n-gram order of the individual BLEU.")


async def measure(spec: BleuSpec, case: MetricTestCase, ctx: MetricContext) -> MetricResult:
    """bleu-n, with every EvalScope per-sample key in the logs."""
    scores = await shared_text_scores(
        ctx.shared, text_of(case.actual_output), text_of(case.expected_output)
    )
    if isinstance(scores, MetricError):
        return MetricResult.failure(spec.threshold, scores)
    score = scores[f"bleu-{spec.n}"]
    return MetricResult.scored(
        score,
        spec.threshold,
        f"BLEU-{spec.n} (the {spec.n}-gram precision × brevity penalty) is {score:.4f}",
        dict(scores),
    )
