"""One metric's spread: mean, SD, standard error and intervals, plain and clustered."""

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
from scipy import special
from statsmodels.regression.linear_model import OLS

from app.stats._bounded import (
    LEVEL,
    BoundedInterval,
    Bounds,
    at_bounds,
    cluster_interval,
    wilson_bounds,
    wilson_interval,
)

__all__ = [
    "LEVEL",
    "ClusteredSpread",
    "Spread",
    "clustered_spread",
    "spread_from_sums",
    "wilson_interval",
]


@dataclass(frozen=True)
class Spread:
    """n scored results; std (n-1), stderr and a t interval (n-1 df), None below 2 results."""

    n: int
    mean: float | None
    std: float | None
    stderr: float | None
    ci95: tuple[float, float] | None


@dataclass(frozen=True)
class ClusteredSpread:
    """Cluster-robust standard error of the mean, and an interval inside the score's range:
    Wilson's with a clustered effective n for a binary score, else a cluster bootstrap (null,
    with `interval_note`, below MIN_BOOTSTRAP_N clusters)."""

    clusters: int
    stderr: float
    ci95: tuple[float, float] | None
    # (clustered SE / plain SE)²; None when the plain SE is 0 (every score equal), 0 when the
    # clusters' means are all the overall mean.
    design_effect: float | None
    ci_method: str | None = None
    interval_note: str | None = None


@lru_cache(maxsize=4096)
def _t_critical(df: int) -> float:
    # The special function `t.ppf` wraps, without the distribution machinery around it (80 µs a
    # call against 2 µs; the same value): a cold list page needs one per metric and count.
    return float(special.stdtrit(df, (1 + LEVEL) / 2))


def t_interval(mean: float, stderr: float, df: int) -> tuple[float, float]:
    """mean ± t(0.975, df)·stderr; a zero-width interval when the SE is 0."""
    if stderr == 0:
        return (mean, mean)
    half = _t_critical(df) * stderr
    return (mean - half, mean + half)


def _no_variance(variance: float, mean_square: float) -> bool:
    """Whether a variance is below the rounding noise of scores whose mean square is this: then
    every score is (nearly) equal and the spread is zero, not a tiny positive number."""
    return variance <= 1e-12 * max(1.0, mean_square)


def spread_from_sums(n: int, total: float, total_sq: float) -> Spread:
    """The spread of n scores from their running sum and sum of squares."""
    if n == 0:
        return Spread(0, None, None, None, None)
    mean = total / n
    if n < 2:
        return Spread(n, mean, None, None, None)
    # Σx² − n·x̄² loses digits to cancellation when every score is (nearly) equal: a variance
    # below that rounding noise is zero, not a tiny positive number.
    variance = (total_sq - n * mean * mean) / (n - 1)
    if _no_variance(variance, total_sq / n):
        variance = 0.0
    std = math.sqrt(variance)
    stderr = std / math.sqrt(n)
    return Spread(n, mean, std, stderr, t_interval(mean, stderr, n - 1))


def _json_number(value: Any) -> Any:
    """The value with integral floats as ints, inside lists and objects too: JSON has one
    number type, so 1 and 1.0 are one value (PostgreSQL's jsonb compares them equal)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [_json_number(item) for item in value]
    if isinstance(value, dict):
        return {key: _json_number(item) for key, item in value.items()}
    return value


def _cluster_label(value: Any) -> str:
    """A cluster's identity: its JSON value with its type, so 1, "1" and true are three
    clusters (str() made 1 and "1" one, and Python's == makes 1 and true one)."""
    return json.dumps(_json_number(value), sort_keys=True, ensure_ascii=False, default=str)


CLUSTER_WILSON = "cluster_wilson"
# A clustered SE this small beside the plain one is the OLS fit's rounding (7.8e-17 when two
# clusters have equal means), not a measurement: it is 0.
_NOISE = 1e-9


def clustered_wilson(
    at_high: int, n: int, stderr: float, sizes: Sequence[int], bounds: Bounds
) -> BoundedInterval:
    """Wilson's 95% interval of a binary score's mean under clustering (Korn and Graubard, as
    inspect's `ci_wilson(cluster=...)`): over the effective n = min(n, p(1−p)/SE²), with t's
    critical value at C−1 df in place of z. A smaller n and a larger critical value only
    widen Wilson's interval, so it holds the plain one.

    Args:
        at_high: scores at the range's upper bound; the other n − at_high are at its lower.
        stderr: the cluster-robust SE of the mean, in the score's units.
        sizes: each cluster's number of scores.
    """
    low, high = bounds
    width = high - low
    p = at_high / n
    if p in (0.0, 1.0):
        # Every score equal: the data cannot say how much a cluster's scores move together,
        # so assume they move as one (Kish's n²/Σ size², the number of clusters when they are
        # of a size): a cluster bootstrap gave [1, 1] here, narrower than plain Wilson.
        effective = n * n / sum(size * size for size in sizes)
    elif stderr == 0:
        effective = float(n)
    else:
        effective = min(float(n), p * (1 - p) / (stderr / width) ** 2)
    proportion = wilson_bounds(p, effective, _t_critical(len(sizes) - 1))
    return BoundedInterval(
        (low + width * proportion[0], low + width * proportion[1]), CLUSTER_WILSON
    )


def clustered_spread(
    scores: Sequence[float],
    groups: Sequence[Any],
    bounds: Bounds = (0.0, 1.0),
    cache_key: object = None,
) -> ClusteredSpread | None:
    """Clustered SE of the mean (intercept-only OLS, cluster-robust covariance with the
    G/(G-1) correction) and an interval inside `bounds` that holds the plain one: Wilson's
    with a clustered effective n when every score is at a bound (`clustered_wilson`), else a
    BCa cluster bootstrap; None below 2 clusters.

    Args:
        groups: each score's cluster label, a JSON value (compared with its type:
            `_cluster_label`).
        bounds: the score's range (lowest, highest).
        cache_key: whose scores these are (the bootstrap interval is kept per process, as
            `mean_interval` keeps it).
    """
    labels = [_cluster_label(group) for group in groups]
    codes = {label: code for code, label in enumerate(dict.fromkeys(labels))}
    if len(codes) < 2 or len(scores) < 2:
        return None
    values = np.asarray(scores, dtype=float)
    groups_coded = [codes[label] for label in labels]
    variance = float(np.var(values, ddof=1))
    stderr = plain = 0.0
    if not _no_variance(variance, float(np.mean(values * values))):
        fit = OLS(values, np.ones(len(values))).fit(
            cov_type="cluster", cov_kwds={"groups": np.asarray(groups_coded)}, use_t=True
        )
        plain = math.sqrt(variance / len(values))
        stderr = float(fit.bse[0])
        if not math.isfinite(stderr) or stderr <= _NOISE * plain:
            stderr = 0.0
    # Equal scores: the plain error is 0 (spread_from_sums), and so is the clustered one; the
    # OLS fit would return rounding noise (7e-16) and a design effect of noise/noise.
    at_high = at_bounds(len(values), float(values.sum()), float(values @ values), bounds)
    if at_high is not None:
        sizes = np.bincount(np.asarray(groups_coded)).tolist()
        interval = clustered_wilson(at_high, len(values), stderr, sizes, bounds)
    else:
        interval = cluster_interval(values, groups_coded, bounds, cache_key)
    return ClusteredSpread(
        clusters=len(codes),
        stderr=stderr,
        ci95=interval.ci95,
        design_effect=(stderr / plain) ** 2 if plain > 0 else None,
        ci_method=interval.method,
        interval_note=interval.note,
    )
