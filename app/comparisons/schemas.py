"""Comparison request and response bodies."""

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from app.evaluations.schemas import Interval, IntervalMethod
from app.schemas import ListPage

Verdict = Literal["improved", "regressed", "no_detectable_change", "undecided"]
Direction = Literal["regressed", "improved"]
# What a comparison does with fragile items (results whose judgments straddle the threshold).
FragileHandling = Literal["include", "exclude"]


class ComparisonCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    baseline_id: str = Field(min_length=1, max_length=40, description="An evaluation or run id.")
    candidate_id: str = Field(
        min_length=1, max_length=40, description="Of the same kind as the baseline."
    )
    metrics: list[str] | None = Field(
        default=None,
        min_length=1,
        max_length=20,
        description="Metric names to compare; default every metric both sides have. An OpenAI "
        "eval run's criteria may be named by their name or by their id (`<name>-<uuid>`).",
    )
    alpha: float = Field(
        default=0.05,
        gt=0,
        lt=1,
        strict=True,
        description="Family-wise error rate (Holm) for the verdicts.",
    )
    fragile: FragileHandling = Field(
        default="include",
        description="`include` (the default): fragile items (results of a metric judged more "
        "than once whose judgments straddle the threshold) are compared like the others. "
        "`exclude`: a matched item fragile on either side is set aside from its metric's "
        "paired comparison and its items. Either way each metric's `fragile` counts them.",
    )


class ErroredCounts(BaseModel):
    baseline: int
    candidate: int


class FragileCounts(BaseModel):
    """A metric's matched items whose judgments straddle the threshold, per side."""

    baseline: int = Field(default=0, description="Matched items fragile on the baseline.")
    candidate: int = Field(default=0, description="Matched items fragile on the candidate.")
    set_aside: int = Field(
        default=0,
        description="Items left out of the comparison as fragile on either side (with "
        "`fragile: exclude`; 0 with `include`).",
    )
    candidate_unmatched: int = Field(
        default=0,
        description="Fragile items of the candidate that the baseline lacks: not compared (so "
        "never set aside), but counted by a gate failing on fragile items.",
    )


class MetricComparison(BaseModel):
    """One metric, item by item: candidate − baseline over items scored on both sides."""

    metric: str
    label: str | None = Field(
        default=None,
        description="What people call the metric where its name is an id: an OpenAI eval "
        "run's criterion name (its `metric` is `<name>-<uuid>`); `metrics` in the request and "
        "`--metric` in `loupe-client compare` take either. Null for other kinds.",
    )
    type: str = Field(description="Both sides' metric type (metrics match by name and type).")
    baseline_threshold: float | None = Field(
        default=None, description="The baseline spec's threshold (null: the type has none)."
    )
    candidate_threshold: float | None = Field(
        default=None,
        description="The candidate spec's threshold. When it differs from the baseline's, the "
        "pass-rate figures are null (a note says so): equal scores can pass on one side only.",
    )
    n: int = Field(description="Matched items with a score on both sides.")
    baseline_mean: float | None
    candidate_mean: float | None
    mean_difference: float | None = Field(description="candidate − baseline.")
    ci95: Interval | None = Field(
        description="95% interval of the mean difference, inside ±(the score range's width): "
        "Newcombe's paired interval when every score on both sides sits at a bound of the "
        "range (a pass/fail score), else a BCa paired bootstrap (pairs resampled together); "
        "null below 10 pairs (`notes` says so). With `cluster_by`, a BCa bootstrap of whole "
        "clusters of pairs, never narrower than the per-item one; null below 10 clusters."
    )
    ci_method: IntervalMethod | None = Field(
        default=None,
        description="How `ci95` was made: `paired_newcombe` (binary scores), else "
        "`paired_bootstrap_bca` (`paired_bootstrap_percentile` past 1,000 pairs); with "
        "`cluster_by`, `cluster_bootstrap_bca` (`_percentile` past 1,000 clusters).",
    )
    p_value: float | None = Field(
        description="Paired t test, two-sided; with `cluster_by`, over clusters (cluster-robust "
        "standard error, t with clusters − 1 df)."
    )
    cluster_by: str | None = Field(
        default=None,
        description="The metadata key that clusters the items (the baseline's `cluster_by`, "
        "else the candidate's): `p_value`, `ci95` and `minimum_detectable_effect` then count "
        "clusters, not items, since a cluster's items move together. Null: items counted alone.",
    )
    clusters: int | None = Field(
        default=None, description="With `cluster_by`: the clusters the pairs fall in."
    )
    wilcoxon_p_value: float | None = Field(description="Wilcoxon signed-rank (zeros dropped).")
    adjusted_p_value: float | None = Field(description="p_value, Holm-adjusted across metrics.")
    minimum_detectable_effect: float | None = Field(
        description="The smallest |mean difference| a paired t test at `alpha` detects with "
        "80% power, for this n and the observed spread of the differences; null below 2 pairs "
        "and where none exists (`notes` says why): differences without spread (identical "
        "evaluations), alpha ≥ 0.8, an alpha too small for n."
    )
    notes: list[str] = Field(
        default_factory=list,
        description="Why a figure is null or should be read with care, one sentence each.",
    )
    settings_differ: list[str] = Field(
        default_factory=list,
        description="The spec settings (other than `name`, `type` and `threshold`) whose values "
        "differ between the sides, sorted (e.g. `criteria`): the scores may not measure the same "
        "thing. `notes` says so in words; `loupe-client compare` refuses to decide on it unless "
        "given --accept-settings-change.",
    )
    verdict: Verdict = Field(
        description="improved / regressed when adjusted_p_value < alpha (by the sign of "
        "mean_difference); else undecided when there is no `ci95` (no item scored on both "
        "sides, or too few pairs for an interval: no change can be told from noise; `notes` "
        "says why), else no_detectable_change."
    )
    baseline_pass_rate: float | None = Field(
        description="Only for metrics with a threshold, the same on both sides."
    )
    candidate_pass_rate: float | None
    pass_rate_difference: float | None
    improved_items: int | None = Field(description="Failed on the baseline, passed now.")
    regressed_items: int | None = Field(description="Passed on the baseline, failed now.")
    mcnemar_p_value: float | None = Field(
        description="Exact McNemar: two-sided binomial test on the discordant pairs."
    )
    errored: ErroredCounts = Field(description="Matched items whose result errored, per side.")
    fragile: FragileCounts = Field(
        default_factory=FragileCounts,
        description="Matched items whose judgments straddle the threshold, per side, and how "
        "many were set aside (`fragile: exclude`); all 0 for a metric judged once (and in "
        "comparisons stored before fragile items were counted).",
    )


class UnmatchedItem(BaseModel):
    side: Literal["baseline", "candidate"]
    test_case_id: str = Field(description="The test-case id, or `subset/row_index` for runs.")
    reason: Literal["one_side", "duplicate_id"] = Field(
        default="one_side",
        description="`one_side`: the other side has no case with this id. `duplicate_id`: this "
        "side has several cases with this id (evaluations stored before that was refused), so "
        "none of them can be paired; listed on each side that has the id.",
    )


class MetricMismatch(BaseModel):
    """A name both sides give to metrics of different types: not compared."""

    metric: str
    baseline_type: str
    candidate_type: str
    reason: str


class Unmatched(BaseModel):
    """Items never compared (on one side only, or with an id a side repeats), and metrics
    never compared (on one side only, or of another type on the other side)."""

    baseline_only: int
    candidate_only: int
    duplicate_ids: int = Field(
        default=0,
        description="Test-case ids that name several cases on a side: their items are left out "
        "on both sides.",
    )
    items: list[UnmatchedItem] = Field(description="The first 100 of them.")
    metrics: list[str] = Field(
        description="Metric names not compared: only one side has them, or the sides' metrics "
        "of that name differ in type (`mismatched_metrics`)."
    )
    mismatched_metrics: list[MetricMismatch] = Field(
        default_factory=list,
        description="Names both sides use for metrics of different types, with the reason.",
    )
    missing_metrics: list[str] = Field(
        default_factory=list,
        description="The baseline's metrics the candidate has no metric of the same name and "
        "type for (dropped, or of another type: `mismatched_metrics`): no verdict covers them. "
        "`loupe-client compare` fails on them unless given --allow-missing-metrics (or "
        "--metric names what to gate on). Empty in comparisons stored before it was kept.",
    )


class Comparison(BaseModel):
    object: Literal["comparison"] = "comparison"
    id: str
    # One of the registered kinds (app/kinds.py); the OpenAPI document lists them as its enum.
    kind: str = Field(
        description="What was compared: evaluations, runs, or OpenAI Evals runs (`evalrun_` ids)."
    )
    baseline_id: str
    candidate_id: str
    alpha: float
    fragile: FragileHandling = Field(
        default="include", description="What was done with fragile items, as asked."
    )
    metrics: list[MetricComparison]
    unmatched: Unmatched
    created_at: datetime


class ComparisonList(ListPage[Comparison]):
    pass


class ItemSide(BaseModel):
    score: float | None
    passed: bool | None
    reason: str | None


class ComparisonItem(BaseModel):
    """One matched item whose score or pass/fail moved."""

    object: Literal["comparison.item"] = "comparison.item"
    id: str = Field(description="A cursor for `after`.")
    metric: str
    test_case_id: str
    difference: float = Field(description="candidate − baseline score.")
    baseline: ItemSide
    candidate: ItemSide


class ComparisonItemList(ListPage[ComparisonItem]):
    pass
