"""Label bodies: what a person says of a judged item, and what the judge had said."""

import math
from datetime import datetime
from typing import Annotated, Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, PlainValidator, WithJsonSchema, model_validator

from app.schemas import ListPage


def _label_value(value: object) -> bool | float:
    # One check for both forms, so a bad value is one error naming `value` (a union would
    # answer once per member).
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float) and math.isfinite(value):
        return float(value)
    raise ValueError("must be a number on the metric's scale, or true / false for pass / fail")


LabelValue = Annotated[
    bool | float,
    PlainValidator(_label_value),
    WithJsonSchema({"anyOf": [{"type": "boolean"}, {"type": "number"}]}),
    Field(
        description="On the metric's own scale (its score range: [0, 1] for most metrics, a "
        "score_model's `range`), or `true` / `false` for pass / fail."
    ),
]


BOTH_TARGETS = (
    "name the result either by result_id or by evaluation_id, test_case_id and metric, not both"
)


class LabelCreate(BaseModel):
    """A label for one judged result: named by `result_id`, or by `evaluation_id`,
    `test_case_id` and `metric` (the metric's name) together."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {"result_id": "res_0193c4aa5b0c1d2e3f405162", "value": 0.8, "rationale": "Close."}
            ]
        },
    )

    result_id: str | None = Field(None, min_length=1, max_length=40)
    evaluation_id: str | None = Field(None, min_length=1, max_length=40)
    test_case_id: str | None = Field(
        None, min_length=1, max_length=256, description="The test case's id given at submission."
    )
    metric: str | None = Field(None, min_length=1, max_length=128, description="The metric's name.")
    value: LabelValue
    rationale: str | None = Field(
        None, max_length=10_000, description="Why, in the person's words."
    )

    @model_validator(mode="after")
    def _one_target(self) -> Self:
        by_case = (self.evaluation_id, self.test_case_id, self.metric)
        if self.result_id is not None and any(part is not None for part in by_case):
            raise ValueError(BOTH_TARGETS)
        if self.result_id is None and any(part is None for part in by_case):
            raise ValueError(
                "name the result: result_id, or evaluation_id, test_case_id and metric"
            )
        return self


class Label(BaseModel):
    object: Literal["label"] = "label"
    id: str
    metric_version: str = Field(description="The metric version the label is bound to.")
    item_key: str = Field(
        description="sha256 of the judged test case's content: the same content in another "
        "evaluation (a re-run) has the same key, and shows this label."
    )
    result_id: str | None = Field(description="The result it was given on (may since be gone).")
    evaluation_id: str | None
    test_case_id: str | None
    metric: str
    value: float | None = Field(description="The person's value; null for a pass/fail label.")
    passed: bool | None = Field(
        description="The person's pass/fail: given, or the value against the threshold."
    )
    rationale: str | None
    judge_score: float | None = Field(
        description="The judge's score when the label was given (null in POST /v1/labels' "
        "answer to a caller without `read`)."
    )
    judge_passed: bool | None = Field(
        description="The judge's pass / fail when the label was given (null as judge_score)."
    )
    threshold: float | None
    selection: Literal["direct", "random", "routed"] = Field(
        description="How the item came to be labelled: `direct` (posted or imported), `random` "
        "(a review queue's audit share) or `routed` (a queue picked it near the threshold, "
        "fragile or among the lowest: not a random sample, so calibrated means leave it out)."
    )
    queue_id: str | None = Field(description="The review queue it was labelled in, if any.")
    actor: str = Field(description="Who gave it: `person:<id>` or `key:<id>`.")
    actor_name: str | None = Field(description="The person's email, or the API key's name.")
    created_at: datetime
    updated_at: datetime


# What an export holds beyond a POST /v1/labels body: an import takes them, so an export goes
# back in as it stands (`actor`, `selection` and `queue_id` say whose label it is and how it was
# given: app/labels/importing.py; the others are ignored).
EXPORT_ONLY_FIELDS = tuple(
    name for name in Label.model_fields if name not in LabelCreate.model_fields
)


def passed_as_value(data: Any) -> Any:
    """An import line with an exported pass/fail label's `passed` as its `value` (an export
    has `value` null and `passed` true/false for those)."""
    if isinstance(data, dict) and data.get("value") is None:
        passed = data.get("passed")
        if isinstance(passed, bool):
            return {**data, "value": passed}
    return data


class LabelImportLine(LabelCreate):
    """One import line: a POST /v1/labels body, or an exported label as it stands (its `actor`
    says whose label it is, an admin's import keeps its `selection` and `queue_id`, its other
    export-only fields are ignored, a pass/fail label's `passed` is read as its value)."""

    model_config = ConfigDict(extra="forbid")

    # Export-only: actor, selection and queue_id are read (importing.py), the others ignored,
    # but an exported line's metric_version, evaluation_id, test_case_id and metric must agree
    # with the result its result_id names (importing.import_labels).
    object: Any = None
    id: Any = None
    metric_version: Any = None
    item_key: Any = None
    passed: Any = None
    judge_score: Any = None
    judge_passed: Any = None
    threshold: Any = None
    selection: Any = None
    queue_id: Any = None
    actor: Any = None
    actor_name: Any = None
    created_at: Any = None
    updated_at: Any = None

    @model_validator(mode="before")
    @classmethod
    def _passed_as_value(cls, data: Any) -> Any:
        return passed_as_value(data)

    @model_validator(mode="after")
    def _one_target(self) -> Self:
        # An exported line names its result both ways: result_id wins (the rest is checked);
        # one whose result is gone is bound by its version and item (app/labels/unbound.py).
        by_version = self.metric_version is not None and (
            self.item_key is not None or self.test_case_id is not None
        )
        if not self.names_result() and not by_version:
            raise ValueError(
                "name the result: result_id, or evaluation_id, test_case_id and metric, or "
                "(a label whose result is gone) metric_version with item_key or test_case_id"
            )
        return self

    def names_result(self) -> bool:
        """Whether it names a result: by result_id, or by evaluation, test case and metric."""
        return self.result_id is not None or None not in (
            self.evaluation_id,
            self.test_case_id,
            self.metric,
        )

    def body(self) -> LabelCreate:
        """The POST /v1/labels body it stands for (naming no result when it names its version
        and item alone: only its value and rationale are read then)."""
        if self.result_id is not None:
            return LabelCreate(result_id=self.result_id, value=self.value, rationale=self.rationale)
        if not self.names_result():
            return LabelCreate.model_construct(
                result_id=None,
                evaluation_id=None,
                test_case_id=None,
                metric=None,
                value=self.value,
                rationale=self.rationale,
            )
        return LabelCreate(
            evaluation_id=self.evaluation_id,
            test_case_id=self.test_case_id,
            metric=self.metric,
            value=self.value,
            rationale=self.rationale,
        )


class LabelList(ListPage[Label]):
    pass


class LabelImport(BaseModel):
    object: Literal["label.import"] = "label.import"
    created: int = Field(description="Labels stored new.")
    updated: int = Field(description="Labels of the same item, version and caller replaced.")


class LabelSummary(BaseModel):
    """What people's labels say about a result's item for its metric version (labels given on
    any evaluation's result of the same content and version)."""

    item_key: str = Field(
        description="The result's item: GET /v1/labels?metric_version=…&item_key=… lists "
        "the labels counted here."
    )
    count: int
    mean_value: float | None = Field(description="The mean of the labels with a value.")
    passed: int = Field(description="Labels saying pass.")
    failed: int = Field(description="Labels saying fail.")
