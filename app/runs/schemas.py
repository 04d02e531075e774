"""Run request and response bodies."""

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    ValidatorFunctionWrapHandler,
    field_validator,
)

from app.evaluations.schemas import (
    ErrorBars,
    ErrorInfo,
    EvaluationStatus,
    MetadataKey,
    MetadataValue,
    Recovery,
    ResultCounts,
    UsageTotals,
)
from app.metrics import MetricSpec
from app.schemas import ListPage


class GenerationConfig(BaseModel):
    """Sampling options sent with every candidate request (OpenAI Chat Completions names)."""

    model_config = ConfigDict(extra="forbid")

    temperature: float | None = Field(default=None, ge=0, le=2)
    top_p: float | None = Field(default=None, gt=0, le=1)
    max_tokens: int | None = Field(default=None, ge=1)
    max_completion_tokens: int | None = Field(default=None, ge=1)
    seed: int | None = None
    stop: list[str] | None = Field(default=None, max_length=4)
    frequency_penalty: float | None = Field(default=None, ge=-2, le=2)
    presence_penalty: float | None = Field(default=None, ge=-2, le=2)


class RunJudge(BaseModel):
    model_config = ConfigDict(extra="forbid")

    strategy: Literal["rule", "llm", "llm_recall"] = Field(
        default="rule",
        description="`rule`: BLEU/ROUGE (VQA) or answer extraction (MCQ). `llm`: also a judge's "
        "A/B verdict (`acc`). `llm_recall`: `acc` is the rule score (ROUGE-L recall for VQA, "
        "the extracted answer's accuracy for MCQ) when above 0.99, else the judge is asked "
        "and `acc` is the better of the two.",
    )
    model: str | None = Field(default=None, min_length=1, max_length=256)
    model_id: str | None = Field(
        default=None,
        min_length=1,
        max_length=40,
        description="A model registered with POST /v1/models to call as the judge (its own "
        "endpoint and key); without it, the server's judge (LOUPE_JUDGE_*).",
    )


class Prediction(BaseModel):
    model_config = ConfigDict(extra="forbid")

    subset: str | None = Field(
        default=None, description="The sample's subset; may be left out if the dataset has one."
    )
    index: int = Field(ge=0, description="The sample's row index within its subset.")
    prediction: str


class RunCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    dataset_id: str = Field(min_length=1)
    model_id: str | None = Field(default=None, description="A model from POST /v1/models.")
    predictions: list[Prediction] | None = Field(
        default=None,
        max_length=100_000,
        description="Score these answers instead of calling a model (one per selected sample).",
    )
    subsets: list[str] | None = Field(default=None, min_length=1)
    limit: (
        Annotated[int, Field(ge=1, strict=True)]
        | Annotated[float, Field(gt=0, le=1, strict=True)]
        | None
    ) = Field(
        default=None,
        description="Per subset, as EvalScope: an integer N takes the first N samples; a "
        "number written with a decimal point is a fraction f in (0, 1] and takes the first "
        "int(N × f) (so `1.0` takes every sample, `1` only the first).",
    )
    generation: GenerationConfig = Field(default_factory=GenerationConfig)
    judge: RunJudge = Field(default_factory=RunJudge)

    @field_validator("limit", mode="wrap")
    @classmethod
    def _one_limit_error(cls, value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        # One error for the field, not one per member of its union (`limit` named twice).
        try:
            return handler(value)
        except ValidationError:
            raise ValueError(
                "a whole number from 1 (samples per subset) or a number with a decimal point "
                "in (0, 1] (a fraction of them)"
            ) from None

    metrics: list[MetricSpec] | None = Field(  # type: ignore[valid-type]
        default=None,
        min_length=1,
        description="Evaluation metric specs scored besides the run's EvalScope scorers "
        "(`g_eval`, `answer_relevancy`, …): each sample is a test case with `input` (the "
        "question, images in place), `actual_output` (the answer) and `expected_output` (the "
        "dataset's answer). The report gets a row per metric (its name, at most 32 "
        "characters) and subset.",
    )
    name: Annotated[str, StringConstraints(max_length=256)] | None = None
    metadata: dict[MetadataKey, MetadataValue] | None = Field(default=None, max_length=16)
    webhook_url: str | None = None
    cache: bool = Field(default=True, strict=True)
    cluster_by: str | None = Field(
        default=None,
        min_length=1,
        max_length=64,
        description="A dataset column grouping correlated samples (e.g. an image id the "
        "dataset's rows carry, or `subset`): the report then also gives cluster-robust "
        "standard errors and intervals.",
    )

    # Exactly one of model_id and predictions: checked with the rest (`runs.checks.check`), so
    # a field the schema refuses does not hide it, and it is named at `model_id`, not `body`.


class ReportRow(ErrorBars):
    metric: str = Field(description="EvalScope's per-sample key: `bleu-1`, `Rouge-L-R`, `acc`…")
    subset: str = Field(description="A subset name, or `OVERALL` for every selected sample.")
    num: int = Field(description="Samples that carry this metric.")
    score: float | None = Field(
        description="Mean over those samples, rounded to 4 decimals as EvalScope rounds it (the "
        "row's interval bounds alike, so the score lies inside them); null when every result "
        "of the metric errored (num 0, an OVERALL row whose `interval_note` says so)."
    )


class Run(BaseModel):
    object: Literal["run"] = "run"
    id: str
    name: str | None
    metadata: dict[str, str]
    status: EvaluationStatus
    completed_with_errors: bool = Field(
        default=False,
        description="`completed`, but some results errored (`result_counts.errored` > 0): the "
        "report covers only the rest.",
    )
    dataset_id: str
    model_id: str | None
    subsets: list[str]
    limit: int | float | None
    generation: dict[str, Any]
    judge: RunJudge
    webhook_url: str | None
    cluster_by: str | None
    sample_count: int
    result_counts: ResultCounts
    report: list[ReportRow]
    usage: UsageTotals = Field(description="The judge's calls, tokens and cost.")
    candidate_usage: UsageTotals = Field(
        default_factory=UsageTotals, description="The candidate model's calls, tokens and cost."
    )
    cost_usd: float | None = Field(
        default=0.0, description="Judge plus candidate cost; null when either is unknown."
    )
    error: ErrorInfo | None
    created_at: datetime
    started_at: datetime | None
    completed_at: datetime | None
    recovery: Recovery | None = Field(
        default=None, description="Set while a running run waits on or runs in recovery."
    )


class SampleError(BaseModel):
    metric: str
    type: str
    message: str


class Sample(BaseModel):
    object: Literal["run.sample"] = "run.sample"
    id: str
    index: int
    subset: str
    row_index: int
    prediction: str | None
    reference: str | None
    extracted_answer: str | None
    scores: dict[str, float]
    verdict: str | None
    reasoning: str | None
    errors: list[SampleError]
    candidate: dict[str, Any] | None
    status: Literal["scored", "pending", "canceled", "skipped"] = Field(
        description="scored: every scorer stored its result (errored ones included); else "
        "pending while the run goes on, canceled or skipped (never to come: the run was "
        "canceled or failed)."
    )


class RunList(ListPage[Run]):
    pass


class SampleList(ListPage[Sample]):
    pass
