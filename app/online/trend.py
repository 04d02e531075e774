"""A rule's metrics over time, read from its hourly rollups (`online_rollup`, added to as results
are stored: app/online/tasks.py), never from its results: per UTC hour or day, the mean score
and the pass rate, each with its 95% interval inside its range."""

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.orm import Session

from app.db import utcnow
from app.evaluations.intervals import metric_bounds, no_scores_note
from app.models import OnlineRule, Tenant
from app.online.repository import OnlineRuleRepository
from app.online.schemas import moment_at
from app.online.trend_schemas import MetricTrend, OnlineRuleTrend, TrendPoint
from app.problems import FieldError, field_error, invalid_request
from app.stats import (
    MIN_BOOTSTRAP_N,
    MIN_WILSON_N,
    Bounds,
    at_bounds,
    spread_from_sums,
    wilson_interval,
)

BUCKETS = {"hour": timedelta(hours=1), "day": timedelta(days=1)}
# What a trend covers when `since` is not given, and at most.
DEFAULT_SPAN = {"hour": timedelta(days=2), "day": timedelta(days=30)}
MAX_SPAN = {"hour": timedelta(days=31), "day": timedelta(days=731)}


@dataclass(frozen=True)
class Query:
    """A trend's parameters, checked."""

    metric: str | None
    bucket: str
    since: datetime
    until: datetime


@dataclass
class _Sums:
    count: int = 0
    scored: int = 0
    passed: int = 0
    failed: int = 0
    errored: int = 0
    score_sum: float = 0.0
    score_sq_sum: float = 0.0


def parse(
    rule: OnlineRule,
    metric: str | None,
    bucket: str | None,
    since: str | None,
    until: str | None,
    now: datetime | None = None,
) -> Query:
    """The trend's parameters, or one 422 naming each that is wrong."""
    errors: list[FieldError] = []
    names = [_name(spec) for spec in rule.metrics]
    if metric is not None and metric not in names:
        errors.append(
            field_error(
                ["query", "metric"],
                f"{metric[:80]!r} is not a metric of this rule (it has: {', '.join(names)})",
                "unknown_metric",
            )
        )
    if bucket is not None and bucket not in BUCKETS:
        errors.append(field_error(["query", "bucket"], "must be `hour` or `day`", "invalid_bucket"))
    width = bucket if bucket in BUCKETS else "hour"
    start, start_error = moment_at(["query", "since"], since)
    end, end_error = moment_at(["query", "until"], until)
    errors += [error for error in (start_error, end_error) if error]
    # By default up to the end of the current bucket: the same answer all through the bucket.
    end = end or _floor(now or utcnow(), width) + BUCKETS[width]
    try:
        start = start or end - DEFAULT_SPAN[width]
        _ceil(end, width)
    except OverflowError:
        # An `until` in the first days of year 1 or the last hour of 9999 (it was a 500).
        errors.append(
            field_error(
                ["query", "until"],
                f"{end.isoformat()} leaves no room for a trend's buckets before or after it",
                "datetime_out_of_range",
            )
        )
        end_error = errors[-1]
    if not (start_error or end_error):
        if start >= end:
            errors.append(
                field_error(
                    ["query", "since"],
                    f"{start.isoformat()} is not before until ({end.isoformat()})",
                    "empty_range",
                )
            )
        elif end - start > MAX_SPAN[width]:
            errors.append(
                field_error(
                    ["query", "since"],
                    f"a trend by {width} covers at most {MAX_SPAN[width].days} days",
                    "range_too_long",
                )
            )
    if errors:
        raise invalid_request(errors)
    # Buckets are rollups, whole or not at all: the range covered runs from the bucket holding
    # `since` to the end of the bucket holding the instant before `until`, and is echoed so.
    return Query(metric, width, _floor(start, width), _ceil(end, width))


def trend(session: Session, tenant: Tenant, rule: OnlineRule, query: Query) -> OnlineRuleTrend:
    """Each metric's points (or the one asked for), from the rollups of the range."""
    rows = OnlineRuleRepository(session, tenant.id).rollups(
        rule, query.since, query.until, query.bucket, query.metric
    )
    buckets: dict[str, dict[datetime, _Sums]] = {}
    for metric, bucket_start, count, scored, passed, failed, errored, total, total_sq in rows:
        start = _floor(_utc(bucket_start), query.bucket)
        sums = buckets.setdefault(metric, {}).setdefault(start, _Sums())
        sums.count += count
        sums.scored += scored
        sums.passed += passed
        sums.failed += failed
        sums.errored += errored
        sums.score_sum += total
        sums.score_sq_sum += total_sq
    metrics = []
    for spec in rule.metrics:
        name = _name(spec)
        if query.metric is not None and name != query.metric:
            continue
        bounds = metric_bounds(spec)
        found = buckets.get(name, {})
        metrics.append(
            MetricTrend(
                metric=name,
                type=spec["type"],
                bounds=bounds,
                points=[point(start, found[start], bounds) for start in sorted(found)],
            )
        )
    return OnlineRuleTrend(
        rule_id=rule.id,
        bucket=query.bucket,  # type: ignore[arg-type]
        since=query.since,
        until=query.until,
        metrics=metrics,
    )


def point(start: datetime, sums: _Sums, bounds: Bounds) -> TrendPoint:
    mean, ci95, method, note = mean_interval_from_sums(
        sums.scored, sums.score_sum, sums.score_sq_sum, bounds, sums.errored
    )
    verdicts = sums.passed + sums.failed
    return TrendPoint(
        bucket_start=start,
        count=sums.count,
        scored=sums.scored,
        errored=sums.errored,
        mean=mean,
        mean_ci95=ci95,
        mean_method=method,
        mean_note=note,
        passed=sums.passed,
        failed=sums.failed,
        pass_rate=sums.passed / verdicts if verdicts else None,
        pass_rate_ci95=wilson_interval(sums.passed, verdicts),
    )


def mean_interval_from_sums(
    n: int, total: float, total_sq: float, bounds: Bounds, errored: int = 0
) -> tuple[float | None, tuple[float, float] | None, str | None, str | None]:
    """(mean, 95% interval, method, note) of n scores in `bounds` from their sums alone, by an
    evaluation summary's rules (app/stats/_bounded.py `mean_interval`): Wilson when every score
    is at a bound (a pass/fail metric) from MIN_WILSON_N scores; else none below
    MIN_BOOTSTRAP_N scores, and from there Student's t clipped to the range (a bootstrap needs
    the scores, and a trend point is a bucket's rollup: the results are never read). Equal
    scores give an interval of no width only from MIN_BOOTSTRAP_N on, with a note, as a
    summary's bootstrap does; two equal scores said nothing of the spread yet gave [x, x]."""
    if n == 0:
        return None, None, None, no_scores_note(errored, complete=False)
    low, high = bounds
    mean = min(high, max(low, total / n))
    at_high = at_bounds(n, total, total_sq, bounds)
    if at_high is not None:
        if n < MIN_WILSON_N:
            return mean, None, None, _too_few(n, MIN_WILSON_N)
        proportion = wilson_interval(at_high, n)
        assert proportion is not None
        width = high - low
        return mean, (low + width * proportion[0], low + width * proportion[1]), "wilson", None
    if n < MIN_BOOTSTRAP_N:
        return mean, None, None, _too_few(n, MIN_BOOTSTRAP_N)
    spread = spread_from_sums(n, total, total_sq)
    assert spread.ci95 is not None
    if spread.std == 0:
        return (
            mean,
            (mean, mean),
            "t",
            f"every score is {mean:g}: the scores do not vary, so the interval has no width",
        )
    return mean, (max(low, spread.ci95[0]), min(high, spread.ci95[1])), "t", None


def _too_few(n: int, minimum: int) -> str:
    """An evaluation summary's words for too few scores (app/stats/_bounded.py)."""
    return (
        f"no interval from {n} score{'' if n == 1 else 's'}: at least {minimum} are needed for "
        "an honest 95% interval of a bounded score"
    )


def _name(spec: Mapping[str, Any]) -> str:
    return str(spec.get("name") or spec["type"])


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _ceil(moment: datetime, bucket: str) -> datetime:
    floor = _floor(moment, bucket)
    return floor if floor == moment else floor + BUCKETS[bucket]


def _floor(moment: datetime, bucket: str) -> datetime:
    moment = moment.replace(minute=0, second=0, microsecond=0)
    return moment.replace(hour=0) if bucket == "day" else moment
