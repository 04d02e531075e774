"""label_model (OpenAI Evals): a judge labels the rendered messages; passing labels score 1.

OpenAI does not document its prompt or how it reads the reply. Loupe asks for a JSON-schema
answer mirroring score_model's documented one: `{"steps": [{"description", "conclusion"}],
"result": <one of labels>}`, steps first so the label comes after the reasoning. A reply that
stays unparseable, or names a label outside the set, after the judge client's one repair
request is an errored result. `sampling_params` (score_model's, either token spelling) go to
the judge call.
"""

import json
from functools import lru_cache
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    create_model,
    field_validator,
    model_validator,
)

from app.metrics import _model_graders as model_graders
from app.metrics._graders import GraderInput, GraderSpecBase, SamplingParams, Step, reason_of
from app.metrics._plan import PlannedCall
from app.metrics._types import MetricContext, MetricResult, MetricTestCase


class LabelModelSpec(GraderSpecBase):
    type: Literal["label_model"]
    model: str = Field(min_length=1, description="The judge model.")
    input: GraderInput
    labels: list[str] = Field(min_length=1)
    passing_labels: list[str] = Field(min_length=1)
    # OpenAI echoes `"sampling_params": null` on label graders; given, they reach the judge.
    sampling_params: SamplingParams | None = None

    # Field validators, not a model validator: an error then names the field
    # (`testing_criteria[0].passing_labels`), not the grader.
    @field_validator("labels")
    @classmethod
    def _distinct(cls, labels: list[str]) -> list[str]:
        if len(set(labels)) != len(labels):
            raise ValueError("labels must be distinct")
        return labels

    @field_validator("passing_labels")
    @classmethod
    def _subset(cls, passing: list[str], info: ValidationInfo) -> list[str]:
        labels = info.data.get("labels")
        outside = [label for label in passing if labels is not None and label not in labels]
        if outside:
            raise ValueError(f"passing_labels must be a subset of labels; not in labels: {outside}")
        return passing

    @model_validator(mode="after")
    def _threshold(self) -> "LabelModelSpec":
        self.threshold = 1.0
        return self


@lru_cache(maxsize=256)
def label_schema(labels: tuple[str, ...]) -> type[BaseModel]:
    """The answer's schema for one label set (classes cached: the client caches their schema)."""
    return create_model(
        "LabelGrade",
        __config__=ConfigDict(title="label_model"),
        steps=(list[Step], ...),
        result=(Literal[labels], ...),  # type: ignore[valid-type]
    )


def instructions(labels: list[str]) -> str:
    return (
        "Loupe task: label_model\n"
        "You are a grader. The messages after this one are the grading task: follow them and "
        "classify what they ask about with exactly one of these labels: "
        f"{json.dumps(labels, ensure_ascii=False)}.\n"
        "Work in steps; for each, say what you checked (description) and what you found "
        "(conclusion). Then give the label.\n"
        'Answer with JSON only: {"steps": [{"description": "...", "conclusion": "..."}], '
        '"result": "<one of the labels, exactly as written>"}'
    )


def plan(spec: LabelModelSpec, case: MetricTestCase) -> list[PlannedCall]:
    """One call (none when the row does not render)."""
    return model_graders.plan(spec, case, "label_model", instructions(spec.labels))


async def measure(spec: LabelModelSpec, case: MetricTestCase, ctx: MetricContext) -> MetricResult:
    """1.0 when the judge's label is a passing label, else 0.0; the label is in the logs."""

    def read(answer: dict[str, Any]) -> tuple[float, str, dict[str, Any]]:
        label, steps = answer["result"], answer["steps"]
        logs: dict[str, Any] = {
            "label": label,
            "steps": steps,
            "passing_labels": spec.passing_labels,
        }
        reason = reason_of(steps) or f"the judge chose the label {label!r}"
        return (1.0 if label in spec.passing_labels else 0.0), reason, logs

    return await model_graders.measure(
        spec,
        case,
        ctx,
        call="label",
        instructions=instructions(spec.labels),
        schema=label_schema(tuple(spec.labels)),
        read=read,
    )
