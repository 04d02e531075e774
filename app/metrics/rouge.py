"""rouge: EvalScope's ROUGE (rouge_chinese semantics) of actual_output against expected_output.

`variant` (`1`, `2`, `l`) and `statistic` (`r`, `p`, `f`) pick the score; the default, ROUGE-L
recall, is EvalScope's main General-VQA score. The logs carry all nine ROUGE values and
bleu-1..4, as EvalScope's sample does.
"""

from typing import ClassVar, Literal

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

_STATISTICS = {"r": "recall", "p": "precision", "f": "F1"}


class RougeSpec(MetricSpecBase):
    required_fields: ClassVar[tuple[TestCaseField, ...]] = ("actual_output", "expected_output")

    type: Literal["rouge"]
    variant: Literal["1", "2", "l"] = "l"
    statistic: Literal["r", "p", "f"] = "r"


async def measure(spec: RougeSpec, case: MetricTestCase, ctx: MetricContext) -> MetricResult:
    """One ROUGE value, with every EvalScope per-sample key in the logs."""
    scores = await shared_text_scores(
        ctx.shared, text_of(case.actual_output), text_of(case.expected_output)
    )
    if isinstance(scores, MetricError):
        return MetricResult.failure(spec.threshold, scores)
    key = f"Rouge-{spec.variant.upper()}-{spec.statistic.upper()}"
    score = scores[key]
    return MetricResult.scored(
        score,
        spec.threshold,
        f"ROUGE-{spec.variant.upper()} {_STATISTICS[spec.statistic]} is {score:.4f}",
        dict(scores),
    )
