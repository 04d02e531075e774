"""Evaluation request and response bodies."""

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from app.evaluations.case_schemas import TestCase, TestCaseCreate
from app.evaluations.judge_schemas import (  # noqa: F401 - JudgeConfig re-exported
    JudgeConfig,
    JudgeUsed,
    MetricJudgeUsed,
)
from app.evaluations.stability import Stability, StabilitySummary
from app.labels.schemas import LabelSummary
from app.metric_versions.schemas import AgreementBrief, CalibratedMean
from app.metrics import MetricSpec
from app.schemas import ListPage
from app.usage.schemas import UsageTotals, add_costs  # noqa: F401 - re-exported

EvaluationStatus = Literal["queued", "in_progress", "completed", "failed", "canceled"]
TERMINAL_STATUSES = ("completed", "failed", "canceled")

MetadataKey = Annotated[str, StringConstraints(min_length=1, max_length=64)]
MetadataValue = Annotated[str, StringConstraints(max_length=512)]


class EvaluationCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Annotated[str, StringConstraints(max_length=256)] | None = None
    metadata: dict[MetadataKey, MetadataValue] | None = Field(default=None, max_length=16)
    # The operator's caps, LOUPE_MAX_TEST_CASES and LOUPE_MAX_METRICS, are checked on submit
    # (422 naming the setting): a fixed cap here would override a raised setting.
    # At least one unless `open` (checks.py names it in the 422 with everything else).
    test_cases: list[TestCaseCreate] = Field(
        default_factory=list,
        description="At most LOUPE_MAX_TEST_CASES (default 10,000) per evaluation, or per "
        "batch of an open one; at least one unless `open`.",
    )
    metrics: list[MetricSpec] = Field(  # type: ignore[valid-type]
        min_length=1, description="At most LOUPE_MAX_METRICS (default 20) per evaluation."
    )
    judge: JudgeConfig | None = None
    webhook_url: str | None = Field(
        default=None, description="A registered webhook endpoint's URL; gets the terminal event."
    )
    cache: bool = Field(
        default=True,
        strict=True,
        description="Reuse judge answers to identical requests from this tenant's earlier "
        "evaluations; false keeps this evaluation's answers to itself.",
    )
    cluster_by: MetadataKey | None = Field(
        default=None,
        description="A test-case metadata key every case has (e.g. the image or source "
        "document id when several questions share one): summaries then also report the "
        "cluster-robust standard error and interval.",
    )
    open: bool = Field(
        default=False,
        strict=True,
        description="Take more test cases in batches (`POST /v1/evaluations/{id}/test_cases`) "
        "until `POST /v1/evaluations/{id}/close`: never completed while open. `test_cases` "
        "may then be empty.",
    )


class TestCaseBatch(BaseModel):
    """One batch of test cases for an open evaluation, checked as a submit's are."""

    model_config = ConfigDict(extra="forbid")

    test_cases: list[TestCaseCreate] = Field(
        min_length=1,
        description="At most LOUPE_MAX_TEST_CASES (default 10,000) per batch, and "
        "LOUPE_MAX_EVALUATION_TEST_CASES (default 1,000,000) in all; ids unique across "
        "batches.",
    )


class TestCaseBatchAppended(BaseModel):
    """Where an appended batch went: its cases' indices and the evaluation's count after it."""

    object: Literal["test_case_batch"] = "test_case_batch"
    evaluation_id: str
    first_index: int = Field(description="The index of the batch's first test case.")
    count: int = Field(description="Test cases in the batch.")
    test_case_count: int = Field(description="The evaluation's test cases, this batch included.")


class ResultCounts(BaseModel):
    """Counts of results, one per test case × metric: passed + failed + errored + pending +
    canceled + skipped = total."""

    total: int = Field(description="Test cases × metrics (a run: samples × scorers).")
    passed: int
    failed: int
    errored: int = Field(description="Results whose metric could not score (see `error`).")
    pending: int = Field(description="Not scored yet (queued or in progress).")
    canceled: int = Field(default=0, description="Never scored: the evaluation was canceled.")
    skipped: int = Field(default=0, description="Never scored: the evaluation failed.")


Interval = Annotated[list[float], Field(min_length=2, max_length=2)]
# How an interval was made (app/stats/_bounded.py).
IntervalMethod = Literal[
    "wilson",
    "bootstrap_bca",
    "bootstrap_percentile",
    "paired_bootstrap_bca",
    "paired_bootstrap_percentile",
    "paired_newcombe",
    "cluster_bootstrap_bca",
    "cluster_bootstrap_percentile",
    "cluster_wilson",
]


class ClusteredError(BaseModel):
    """The mean's error when cases in one cluster are correlated (computed on each read)."""

    cluster_by: str
    clusters: int = Field(description="Distinct values of `cluster_by` among scored cases.")
    stderr: float | None = Field(description="Cluster-robust SE (G/(G-1) correction).")
    ci95: Interval | None = Field(
        description="95% interval of the mean in the score's range, never narrower than the "
        "plain `ci95`: Wilson's over the clustered effective n for scores at the bounds, else "
        "a BCa cluster bootstrap (whole clusters; null below 10 clusters, `interval_note`)."
    )
    ci_method: IntervalMethod | None = Field(
        default=None, description="`cluster_wilson`, `cluster_bootstrap_bca` or `_percentile`."
    )
    interval_note: str | None = Field(
        default=None, description="Why `ci95` is null, has no width or was widened, in words."
    )
    design_effect: float | None = Field(description="(clustered stderr / stderr)².")


class ErrorBars(BaseModel):
    """How sure a mean is: over `n` scored results (errored results excluded)."""

    n: int = Field(description="Results with a score.")
    std: float | None = Field(description="Sample standard deviation (n − 1); null below 2.")
    stderr: float | None = Field(description="std / √n; null below 2 scored results.")
    ci95: Interval | None = Field(
        description="[lower, upper]: a 95% interval of the mean inside the score's range "
        "(`ci_method`): Wilson when every score is at one of the range's bounds (exact_match), "
        "else a BCa bootstrap of the scores; null with `interval_note` when n is too small "
        "(Wilson below 2 scores, the bootstrap below 10), or, while results still arrive, for "
        "a bootstrap of more than 1,000 scores."
    )
    ci_method: IntervalMethod | None = Field(
        default=None,
        description="How `ci95` was made: `wilson`, `bootstrap_bca`, or past 1,000 scores "
        "`bootstrap_percentile` (1,999 resamples; BCa's jackknife costs n²).",
    )
    interval_note: str | None = Field(
        default=None, description="Why `ci95` is null or has no width, in words."
    )
    pass_rate_ci95: Interval | None = Field(
        description="Wilson 95% interval of the pass rate; null without a threshold or below 2."
    )
    clustered: ClusteredError | None = Field(
        default=None, description="Only with `cluster_by`, once two clusters have scores."
    )


class MetricSummary(ErrorBars):
    metric: str = Field(
        description="The metric's name: what `?metric=` and each result's `metric` use (an eval "
        "run's criterion id, `<name>-<uuid>`)."
    )
    label: str = Field(
        description="What to call the metric: an eval run's testing criterion's name; else "
        "`metric`."
    )
    type: str
    mean_score: float | None = Field(description="Mean over results that have a score.")
    pass_rate: float | None = Field(description="passed / (passed + failed).")
    passed: int
    failed: int
    errored: int
    pending: int = Field(description="Not scored yet (queued or in progress).")
    canceled: int = Field(default=0, description="Never scored: the evaluation was canceled.")
    skipped: int = Field(default=0, description="Never scored: the evaluation failed.")
    position_inconsistent: int | None = Field(
        default=None,
        description="`pairwise` only: results whose two judge orders disagreed (position bias).",
    )

    judge: MetricJudgeUsed | None = Field(
        default=None, description="The judge this metric calls (judged metrics only)."
    )
    metric_version: str | None = Field(
        default=None,
        description="The metric's version (GET /v1/metric_versions/{id}): a hash of what "
        "changes its verdicts; null for a metric with no judge.",
    )
    stability: StabilitySummary | None = Field(
        default=None,
        description="A metric judged more than once (`judge.samples`, `judge.panel`): fragile "
        "results, pass^k and the panel's agreement; null for a metric judged once.",
    )
    agreement: AgreementBrief | None = Field(
        default=None,
        description="Whether the metric version agrees with people: Cohen's κ with its 95% "
        "interval and the labels it rests on (GET /v1/metric_versions/{id}/agreement has the "
        "rest); null: not checked against people (the version has no labels, or no judge).",
    )
    calibrated: CalibratedMean | None = Field(
        default=None,
        description="The judge's mean corrected by people's labels on this evaluation's "
        "results (PPI++: labelled results against the others); null when no label of the "
        "version is on any of its items.",
    )
    usage: UsageTotals = Field(
        default_factory=UsageTotals, description="Judge usage of this metric."
    )


class EvalRunOrigin(BaseModel):
    """The OpenAI eval run an evaluation of kind `eval_run` is (`/v1/evals/{eval_id}/runs`)."""

    eval_id: str = Field(description="The eval the run belongs to (`GET /v1/evals/{eval_id}`).")
    eval_name: str = Field(description="The eval's name (empty when it was created without one).")
    run_name: str | None = Field(description="The run's name (also the evaluation's `name`).")


class ErrorInfo(BaseModel):
    type: str
    message: str


class Recovery(BaseModel):
    """A running evaluation whose jobs went quiet, or that runs again after they did."""

    state: Literal["stalled", "recovering"] = Field(
        description="`stalled`: no job has reported for several heartbeats (its worker may have "
        "died); the ticker re-enqueues it once the heartbeat is LOUPE_STUCK_AFTER_SECONDS old. "
        "`recovering`: it was re-enqueued and runs again; stored results are kept and skipped."
    )
    last_heartbeat_at: datetime
    dispatch_attempts: int


class Evaluation(BaseModel):
    object: Literal["evaluation"] = "evaluation"
    id: str
    # One of the registered kinds (app/kinds.py); the OpenAPI document lists them as its enum.
    kind: str = Field(
        default="evaluation",
        description="What made it: `POST /v1/evaluations` (`evaluation`) or an OpenAI Evals run "
        "(`eval_run`, `POST /v1/evals/{eval_id}/runs`; its metrics are the eval's testing "
        "criteria, named by their ids).",
    )
    name: str | None
    metadata: dict[str, str]
    status: EvaluationStatus
    completed_with_errors: bool = Field(
        default=False,
        description="`completed`, but some results errored (`result_counts.errored` > 0; "
        "every one of them when the judge was down): the scores cover only the rest.",
    )
    metrics: list[dict[str, Any]] = Field(
        description="The metric specs as submitted; an eval run's, made from its testing "
        "criteria, are named by the criteria's ids and carry `label`, the criterion's name."
    )
    eval_run: EvalRunOrigin | None = Field(
        default=None,
        description="For `kind` `eval_run`: its eval's id and name and the run's name; null "
        "for other kinds.",
    )
    judge: JudgeUsed | None = Field(
        description="The judge resolved at submit (null when no metric is judged)."
    )
    webhook_url: str | None
    cache: bool
    cluster_by: str | None
    open: bool = Field(
        description="Still taking batches of test cases (submitted with `open: true`, not "
        "closed yet); `test_case_count` says how many were appended so far.",
    )
    test_case_count: int
    result_counts: ResultCounts
    per_metric: list[MetricSummary]
    usage: UsageTotals = Field(description="The judge's calls, tokens and cost.")
    candidate_usage: UsageTotals = Field(
        default_factory=UsageTotals,
        description="A candidate model's calls, tokens and cost (runs; zero otherwise).",
    )
    cost_usd: float | None = Field(
        default=0.0, description="Judge plus candidate cost; null when either is unknown."
    )
    error: ErrorInfo | None
    created_at: datetime
    started_at: datetime | None
    completed_at: datetime | None
    recovery: Recovery | None = Field(
        default=None, description="Set while a running evaluation waits on or runs in recovery."
    )


class EvaluationResult(BaseModel):
    object: Literal["evaluation.result"] = "evaluation.result"
    id: str
    test_case_id: str
    test_case_index: int
    metric: str
    type: str
    score: float | None
    passed: bool | None
    threshold: float | None
    reason: str | None
    error: ErrorInfo | None
    usage: UsageTotals = Field(description="The judge's calls, tokens and cost.")
    candidate_usage: UsageTotals = Field(
        default_factory=UsageTotals,
        description="A run's candidate call for the case, on the first of its results stored "
        "(the others show it in `logs.candidate` without counting it again).",
    )
    cost_usd: float | None = Field(
        description="Judge plus candidate cost in USD; null when a model used has no price."
    )
    logs: dict[str, Any]
    stability: Stability | None = Field(
        default=None,
        description="A metric judged more than once: every judgment with its reason, their "
        "spread, and `fragile`; null for a metric judged once.",
    )
    fragile: bool | None = Field(
        default=None,
        description="The judgments straddle the threshold (`?fragile=true` lists these); null "
        "for a metric judged once.",
    )
    metric_version: str | None = Field(
        default=None,
        description="The version of the judged metric that scored it (GET "
        "/v1/metric_versions/{id}); null for a metric with no judge.",
    )
    agreement: AgreementBrief | None = Field(
        default=None,
        description="Whether the result's metric version agrees with people (Cohen's κ, its "
        "interval, how many labels); null: not checked against people. Filled on GET "
        "/v1/evaluations/{id}/results.",
    )
    labels: LabelSummary | None = Field(
        default=None,
        description="What people's labels (POST /v1/labels) say about this item for this "
        "metric version, given on this result or on any other of the same content and version "
        "(a re-run's); null when it has none. Filled on GET /v1/evaluations/{id}/results.",
    )
    created_at: datetime


ResultStatus = Literal["passed", "failed", "errored"]
ResultOrder = Literal["score_asc", "score_desc"]


class EvaluationList(ListPage[Evaluation]):
    pass


class EvaluationResultList(ListPage[EvaluationResult]):
    pass


class TestCaseList(ListPage[TestCase]):
    pass
