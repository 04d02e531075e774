"""The OpenAI Evals API contract (`/v1/evals`): what the official `openai` SDK sends and reads.

Shapes follow openai-python 3.x (`types/eval_*`, `types/evals/*`); timestamps are Unix seconds.
Requests are validated loosely where the SDK is (unknown keys kept), strictly where a wrong
value would change a grade.
"""

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.evaluations.schemas import Recovery
from app.schemas import ListPage

RunStatus = Literal["queued", "in_progress", "completed", "canceled", "failed"]


def _metadata(value: dict[str, str] | None) -> dict[str, str] | None:
    if value is None:
        return None
    if len(value) > 16:
        raise ValueError("at most 16 key-value pairs")
    for key, item in value.items():
        if not isinstance(item, str):
            raise ValueError(f"value of {key!r} must be a string")
        if len(key) > 64:
            raise ValueError(f"key {key[:20]!r}... is longer than 64 characters")
        if len(item) > 512:
            raise ValueError(f"value of {key!r} is longer than 512 characters")
    return value


Metadata = Annotated[dict[str, Any] | None, Field(description="At most 16 string pairs.")]


class _Lenient(BaseModel):
    # The SDK adds fields release by release; unknown keys are kept, never refused.
    model_config = ConfigDict(extra="allow")


class CustomDataSourceConfig(_Lenient):
    type: Literal["custom"]
    item_schema: dict[str, Any] = Field(description="JSON Schema each row's `item` must match.")
    include_sample_schema: bool = False


class StoredDataSourceConfig(_Lenient):
    """`logs` / `stored_completions`: rows hosted at OpenAI; refused with 400."""

    type: Literal["logs", "stored_completions"]
    metadata: dict[str, Any] | None = None


DataSourceConfig = Annotated[
    CustomDataSourceConfig | StoredDataSourceConfig, Field(discriminator="type")
]


class EvalCreate(_Lenient):
    data_source_config: DataSourceConfig
    testing_criteria: list[dict[str, Any]] = Field(min_length=1, max_length=50)
    name: str | None = Field(default=None, max_length=256)
    metadata: Metadata = None

    _check_metadata = field_validator("metadata")(_metadata)


class EvalUpdate(_Lenient):
    name: str | None = Field(default=None, max_length=256)
    metadata: Metadata = None

    _check_metadata = field_validator("metadata")(_metadata)


class Eval(_Lenient):
    object: Literal["eval"] = "eval"
    id: str
    name: str
    created_at: int
    metadata: dict[str, str] | None
    data_source_config: dict[str, Any]
    testing_criteria: list[dict[str, Any]]


class EvalDeleted(BaseModel):
    object: Literal["eval.deleted"] = "eval.deleted"
    deleted: bool = True
    eval_id: str


class EvalRunCreate(_Lenient):
    data_source: dict[str, Any] = Field(description="`jsonl` or `completions` (see the docs).")
    name: str | None = Field(default=None, max_length=256)
    metadata: Metadata = None

    _check_metadata = field_validator("metadata")(_metadata)


class EvalRunResultCounts(BaseModel):
    total: int = 0
    errored: int = 0
    failed: int = 0
    passed: int = 0


class EvalRunModelUsage(BaseModel):
    model_name: str
    invocation_count: int
    prompt_tokens: int
    completion_tokens: int
    total_tokens: int
    cached_tokens: int = 0


class EvalRunCriterionCounts(BaseModel):
    testing_criteria: str
    passed: int
    failed: int


class EvalRunError(BaseModel):
    code: str
    message: str


class EvalRunObject(_Lenient):
    object: Literal["eval.run"] = "eval.run"
    id: str
    eval_id: str
    name: str
    model: str | None
    status: RunStatus
    created_at: int
    data_source: dict[str, Any]
    metadata: dict[str, str] | None
    report_url: str
    result_counts: EvalRunResultCounts
    per_model_usage: list[EvalRunModelUsage]
    per_testing_criteria_results: list[EvalRunCriterionCounts]
    error: EvalRunError | None
    # Loupe's own, not OpenAI's: the SDK keeps unknown keys (`run.model_extra`), never refuses.
    recovery: Recovery | None = Field(
        default=None, description="Set while a running run waits on or runs in recovery."
    )


class EvalRunDeleted(BaseModel):
    object: Literal["eval.run.deleted"] = "eval.run.deleted"
    deleted: bool = True
    run_id: str


class OutputItem(_Lenient):
    object: Literal["eval.run.output_item"] = "eval.run.output_item"
    id: str
    eval_id: str
    run_id: str
    created_at: int
    status: Literal["pass", "fail", "error"]
    datasource_item_id: int
    datasource_item: dict[str, Any]
    results: list[dict[str, Any]]
    sample: dict[str, Any]


EvalList = ListPage[Eval]
EvalRunList = ListPage[EvalRunObject]
OutputItemList = ListPage[OutputItem]
