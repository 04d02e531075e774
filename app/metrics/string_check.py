"""string_check (OpenAI Evals): compare two templated strings; 1 when the operation holds.

`eq` / `ne`: equality, case-sensitive; `like`: `reference` is a substring of `input`;
`ilike`: the same, caseless (Unicode case folding). No trimming or other normalisation.
"""

from typing import Any, Literal

from pydantic import model_validator

from app.metrics._graders import GraderSpecBase, Template, render_failure, rendered_pair
from app.metrics._templates import RenderError
from app.metrics._types import MetricContext, MetricResult, MetricTestCase

Operation = Literal["eq", "ne", "like", "ilike"]
_DESCRIPTIONS = {
    "eq": "equals",
    "ne": "differs from",
    "like": "contains",
    "ilike": "contains (ignoring case)",
}


class StringCheckSpec(GraderSpecBase):
    type: Literal["string_check"]
    input: Template
    reference: Template
    operation: Operation

    @model_validator(mode="after")
    def _passing_score(self) -> "StringCheckSpec":
        self.threshold = 1.0
        return self


def check(operation: Operation, text: str, reference: str) -> bool:
    """Whether `operation` holds between the rendered input and reference."""
    if operation == "eq":
        return text == reference
    if operation == "ne":
        return text != reference
    if operation == "like":
        return reference in text
    return reference.casefold() in text.casefold()


async def measure(spec: StringCheckSpec, case: MetricTestCase, ctx: MetricContext) -> MetricResult:
    """1.0 when the operation holds on the rendered strings, else 0.0."""
    try:
        text, reference = rendered_pair(spec.input, spec.reference, case)
    except RenderError as error:
        return render_failure(spec.threshold, error)
    holds = check(spec.operation, text, reference)
    verb = _DESCRIPTIONS[spec.operation]
    reason = f"input {verb} reference" if holds else f"not true that input {verb} reference"
    logs: dict[str, Any] = {"input": text, "reference": reference, "operation": spec.operation}
    return MetricResult.scored(1.0 if holds else 0.0, spec.threshold, reason, logs)
