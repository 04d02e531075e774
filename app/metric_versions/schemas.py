"""Metric version bodies."""

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from app.schemas import ListPage


class MetricVersion(BaseModel):
    object: Literal["metric_version"] = "metric_version"
    id: str = Field(
        description="`mv_` and 24 hex digits of sha256(tenant id, canonical `definition`)."
    )
    type: str = Field(description="The metric's type, e.g. `g_eval`.")
    name: str = Field(description="The metric's name when the version was first seen.")
    definition: dict[str, Any] = Field(
        description="Exactly what was hashed: `type`, `options` (what the prompt and scoring "
        "read, defaults left out) and `judge` (model or panel, and samples, aggregate and "
        "temperature when judged more than once). The threshold is not part of it."
    )
    status: Literal["active", "candidate", "declined"]
    parent_id: str | None = Field(
        description="The version an alignment derived this one from; null for one a "
        "submission made."
    )
    created_at: datetime


class MetricVersionList(ListPage[MetricVersion]):
    pass


Interval = Annotated[list[float], Field(min_length=2, max_length=2)]


class AgreementStatistic(BaseModel):
    """A statistic of agreement with people and its 95% interval; null with `note` saying why
    when it is undefined (one class only, too few items) or has no honest interval."""

    value: float | None
    ci95: Interval | None = Field(description="[lower, upper], percentile bootstrap over items.")
    note: str | None = None


class AgreementStatisticBrief(BaseModel):
    value: float | None
    ci95: Interval | None
    note: str | None = Field(
        default=None,
        description="Why `value` is null or `ci95` has no width (the judge or the people gave "
        "one verdict to every item), as the agreement's own note says it.",
    )


class AgreementBrief(BaseModel):
    """The one-line verdict of a metric version against people: Cohen's κ on pass/fail and how
    many labels it rests on (GET /v1/metric_versions/{id}/agreement has the rest)."""

    metric_version: str
    cohen_kappa: AgreementStatisticBrief
    n_labels: int = Field(description="People's labels on items the judge scored.")
    superseded_by: str | None = Field(
        None,
        description="The version an activated alignment made from this one (newest first): "
        "submit that alignment's `candidate_metric` to judge with it; null while none is.",
    )


class PersonLabel(BaseModel):
    """One person's label of a disagreement's item."""

    actor: str
    actor_name: str | None
    value: float | None = Field(description="On the metric's scale; null for a pass/fail label.")
    passed: bool | None
    rationale: str | None
    selection: str = Field(description="`direct`, `random` (a queue's audit share) or `routed`.")


class AgreementDisagreement(BaseModel):
    """An item where the judge and the people differ."""

    item_key: str
    score: float = Field(description="The judge's score (the labels' snapshot of it).")
    people: float = Field(
        description="The people's mean label (pass/fail labels: the share passing it)."
    )
    gap: float = Field(description="|score − people|, on the scale (or in share).")
    judge_passed: bool
    people_passed: bool = Field(description="The people's majority (a tie passes).")
    result_id: str | None = Field(description="The result the newest label was given on.")
    evaluation_id: str | None
    test_case_id: str | None
    test_case_index: int | None = Field(
        default=None,
        description="The test case's position in its evaluation; null once the evaluation is "
        "deleted (the labels stay).",
    )
    labels: list[PersonLabel]


class ConfusionMatrix(BaseModel):
    """Rows the people's verdict, columns the judge's, each [fail, pass] (scikit-learn's
    layout): `matrix[1][0]` are items people pass and the judge fails."""

    labels: list[str] = Field(default=["fail", "pass"])
    matrix: list[list[int]]


class MetricVersionAgreement(BaseModel):
    """How far a metric version's judge agrees with the people who labelled its items: each
    statistic the named library's number (scikit-learn, `krippendorff`, scipy) with a percentile
    bootstrap interval over items."""

    object: Literal["metric_version.agreement"] = "metric_version.agreement"
    metric_version: str
    n: int = Field(description="Items (distinct content) with a judge score and a label.")
    n_labels: int = Field(description="People's labels on those items.")
    people: int = Field(description="Distinct people (or API keys) who labelled.")
    label_kind: Literal["score", "pass_fail", "mixed"] = Field(
        description="`score`: labels on the metric's scale; `pass_fail`: true/false labels; "
        "`mixed`: both, the statistics on the scale (weighted κ, α, ρ, mean bias) then reading "
        "the score labels only and κ, TPR, TNR and the confusion matrix every label (scores "
        "cut at the threshold), as each one's note and `notes` say."
    )
    threshold: float = Field(description="`passed = score >= threshold`, for judge and people.")
    threshold_source: Literal["labels", "query", "scale"] = Field(
        description="`labels`: the threshold the labelled results had (the most common, when "
        "they differ: `thresholds` lists them); `query`: `?threshold=`; `scale`: the middle of "
        "the scale, the labelled results having none."
    )
    thresholds: list[float] = Field(description="Every threshold the labelled results had.")
    scale: Interval = Field(description="The metric's score range.")
    cohen_kappa: AgreementStatistic = Field(description="Cohen's κ of pass/fail (scikit-learn).")
    weighted_kappa: AgreementStatistic = Field(
        description="Quadratic weighted κ on 5 equal bins of the scale (scikit-learn); labels "
        "on the scale only."
    )
    krippendorff_alpha: AgreementStatistic = Field(
        description="Krippendorff's α of the judge and every person as raters (`krippendorff`; "
        "interval level for scores, nominal for pass/fail)."
    )
    krippendorff_alpha_people: AgreementStatistic = Field(
        description="Krippendorff's α of the people alone: the ceiling the judge can reach."
    )
    spearman: AgreementStatistic = Field(
        description="Spearman's ρ of judge score and mean label (scipy)."
    )
    tpr: AgreementStatistic = Field(
        description="Of the items people pass, the share the judge passes."
    )
    tnr: AgreementStatistic = Field(
        description="Of the items people fail, the share the judge fails."
    )
    mean_bias: AgreementStatistic = Field(
        description="Mean of judge − people (pass/fail labels: in pass rate); positive: lenient."
    )
    confusion_matrix: ConfusionMatrix
    disagreements: list[AgreementDisagreement] = Field(description="Worst first (largest gap).")
    interval_method: str
    resamples: int
    seed: int
    notes: list[str]


class CalibratedMean(BaseModel):
    """The judge's mean corrected by people's labels: the prediction-powered (PPI++) estimate
    of what people would give on average, as `ppi_py` computes it."""

    mean: float | None
    ci95: Interval | None
    n_labels: int = Field(
        description="The evaluation's items (distinct judged content) with usable labels: an "
        "item held by two results is one labelled unit, its judge scores averaged."
    )
    n_unlabelled: int = Field(description="Its other scored items, counted the same way.")
    estimand: Literal["mean", "pass_rate"] = Field(
        description="`mean` (labels on the scale; with mixed labels, when most are on the "
        "scale, only those, `note` saying so) or `pass_rate` (when most labels are pass/fail, "
        "scores then cut at the threshold)."
    )
    method: str | None = Field(
        description="`ppi++` (λ tuned), `ppi` (λ = 1), `classical` (every result labelled)."
    )
    note: str | None = Field(
        description="Why `mean` or `ci95` is null (fewer than 2 labelled results; for `ci95`, "
        "fewer than 10, labels that do not vary, or an interval wholly off the scale), and how "
        "many labels were set aside (routed by a review queue: not a random sample)."
    )
