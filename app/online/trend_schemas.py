"""What a rule's trend answers: each metric's hourly or daily mean and pass rate with their
intervals (app/online/trend.py)."""

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

Bucket = Literal["hour", "day"]


class TrendPoint(BaseModel):
    """One metric's results of one bucket (a UTC hour or day), read from the rule's rollups."""

    bucket_start: datetime = Field(description="The bucket's first instant (UTC).")
    count: int = Field(description="Results stored in the bucket.")
    scored: int = Field(description="Of them, results with a score.")
    errored: int = Field(description="Of them, results with an error (no score).")
    mean: float | None = Field(description="The mean score; null without a scored result.")
    mean_ci95: tuple[float, float] | None = Field(
        description="95% interval of the mean, inside the metric's score range; null with "
        "`mean_note` when there is too little to tell."
    )
    mean_method: str | None = Field(
        description="`wilson` when every score is at a bound of the range (from 2 scores), else "
        "`t` (Student's t from the bucket's sums, clipped to the range, from 10 scores; of no "
        "width with `mean_note` when they are all equal); null below that, with `mean_note`."
    )
    mean_note: str | None = None
    passed: int
    failed: int
    pass_rate: float | None = Field(description="passed / (passed + failed); null without one.")
    pass_rate_ci95: tuple[float, float] | None = Field(
        description="Wilson 95% interval of the pass rate; null below two verdicts."
    )


class MetricTrend(BaseModel):
    metric: str = Field(description="The metric's name in the rule.")
    type: str
    bounds: tuple[float, float] = Field(description="The lowest and highest score it gives.")
    points: list[TrendPoint] = Field(
        description="Buckets holding at least one result, oldest first."
    )


class OnlineRuleTrend(BaseModel):
    """Each metric of a rule over time: hourly or daily mean and pass rate with intervals."""

    object: Literal["online_rule_trend"] = "online_rule_trend"
    rule_id: str
    bucket: Bucket
    since: datetime = Field(
        description="The first instant covered: the asked `since` floored to its bucket."
    )
    until: datetime = Field(
        description="The end of the range covered (excluded): the asked `until` ceiled to its "
        "bucket (buckets are rollups, counted whole: `until` 20:10 by hour covers up to 21:00)."
    )
    metrics: list[MetricTrend]
