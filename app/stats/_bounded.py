"""Intervals that stay inside a score's range: Wilson for scores at the bounds, BCa bootstrap
(scipy.stats.bootstrap) for scores between them, paired and clustered alike.

A t interval (mean ± t·SE) ignores the range: two exact_match results (0 and 1) gave
[-5.85, 6.85]. Bowyer, Aitchison and Ivanova (ICML 2025, arXiv 2503.01747) show CLT intervals
under-cover at the sizes evaluations have and recommend Wilson for binary scores and BCa for
bounded continuous ones; a bootstrap of the mean resamples observed scores, so its interval lies
within [min, max] of them and so within the range. Past BCA_MAX_N scores the percentile
bootstrap stands in for BCa (cost; its corrections fade with n); the method name says which.
"""

import math
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from threading import Lock

import numpy as np
from scipy import stats as scipy_stats

LEVEL = 0.95
_Z = float(scipy_stats.norm.ppf((1 + LEVEL) / 2))

WILSON = "wilson"

# Below this many scores (pairs, clusters) a bootstrap interval is not honest: the resamples
# take few distinct values and BCa's bias and acceleration estimates are noise, so the interval
# is null with a note rather than a narrow band claiming more than a handful of results know.
MIN_BOOTSTRAP_N = 10
# Wilson's interval is defined from one result, but Loupe states none below two (as for the
# pass rate): one result says nothing about spread.
MIN_WILSON_N = 2
RESAMPLES = 9999
# Past this many scores (pairs, clusters) the percentile interval of fewer resamples is made
# instead of BCa: 0.1 s at 10,000 scores against 0.9 s (docs/benchmarks.md).
BCA_MAX_N = 1000
PERCENTILE_RESAMPLES = 1999
# A fixed seed: a summary polled twice shows the same interval for the same scores.
SEED = 20_241_126
# While results still arrive, a bootstrap of more scores than this waits for the last of them:
# a bootstrap of 10,000 scores costs about 0.1 s (docs/benchmarks.md), and each new batch of
# results would pay it again on the next poll.
RUNNING_BOOTSTRAP_MAX_N = 1000

Bounds = tuple[float, float]


@dataclass(frozen=True)
class BoundedInterval:
    """A 95% interval inside the score's range, the method that made it, or why there is none."""

    ci95: tuple[float, float] | None
    method: str | None
    note: str | None = None


def wilson_interval(passed: int, n: int) -> tuple[float, float] | None:
    """Wilson 95% interval of passed/n; None below 2 results.

    Wilson's closed form, the numbers of statsmodels' `proportion_confint(passed, n,
    method="wilson")` (tests/stats checks it); that call costs ~1 ms, once per metric per poll.
    """
    if n < 2:
        return None
    return wilson_bounds(passed / n, n, _Z)


def wilson_bounds(p: float, n: float, critical: float) -> tuple[float, float]:
    """Wilson's interval of a proportion p over n (an effective n may be fractional), with
    `critical` in place of the normal quantile (t's, for clustered scores)."""
    z2 = critical * critical
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = critical * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # At 0/n the lower bound is exactly 0 and at n/n the upper exactly 1 (centre = half-width
    # in exact arithmetic); rounding leaves 2.8e-17 or 0.9999999999999999 (statsmodels too).
    lower = 0.0 if p == 0 else max(0.0, centre - half)
    upper = 1.0 if p == 1 else min(1.0, centre + half)
    return (lower, upper)


def at_bounds(n: int, total: float, total_sq: float, bounds: Bounds) -> int | None:
    """How many of n scores sit at the upper bound when every one sits at a bound (a binary
    score); None when some lie between or outside, or the range is not a finite one.
    Σ(x − lo)(hi − x) is 0 exactly then, positive for scores between the bounds and negative
    for scores outside them, and it needs only the running sums (an online trend's bucket
    has nothing else)."""
    low, high = bounds
    if not (math.isfinite(low) and math.isfinite(high)) or high <= low:
        return None
    width = high - low
    inside = (low + high) * total - total_sq - n * low * high
    if abs(inside) > 1e-9 * max(n * width * width, abs(total_sq), abs(n * low * high)):
        return None
    at_high = (total - n * low) / width
    rounded = round(at_high)
    if not 0 <= rounded <= n:
        return None
    return rounded if abs(at_high - rounded) < 1e-6 * max(1, n) else None


def _too_few(n: int, minimum: int, what: str) -> BoundedInterval:
    """Null with a note: `what` is the singular noun counted ("score", "pair", "cluster")."""
    counted = what if n == 1 else what + "s"
    return BoundedInterval(
        None,
        None,
        f"no interval from {n} {counted}: at least {minimum} are needed for an honest 95% "
        "interval of a bounded score",
    )


def _equal(value: float, method: str, what: str) -> BoundedInterval:
    return BoundedInterval(
        (value, value),
        method,
        f"every {what} is {value:g}: the resamples do not vary, so the interval has no width",
    )


def _bootstrap(
    data: tuple[np.ndarray, ...], statistic: Callable[..., np.ndarray], kind: str
) -> tuple[tuple[float, float], str]:
    """scipy's bootstrap interval and its method name (`<kind>_bca` or `<kind>_percentile`).

    BCa's jackknife costs n² (0.4 s at 10,000 scores) and its corrections fade as n grows, so
    past BCA_MAX_N the percentile interval of PERCENTILE_RESAMPLES resamples is taken.
    """
    bca = len(data[0]) <= BCA_MAX_N
    result = scipy_stats.bootstrap(
        data,
        statistic,
        n_resamples=RESAMPLES if bca else PERCENTILE_RESAMPLES,
        vectorized=True,
        paired=len(data) > 1,
        confidence_level=LEVEL,
        method="BCa" if bca else "percentile",
        # Resample in slices of about 2 million values: 9,999 × 10,000 at once is 800 MB.
        batch=max(1, 2_000_000 // len(data[0])),
        rng=np.random.default_rng(SEED),
    )
    interval = result.confidence_interval
    return (float(interval.low), float(interval.high)), f"{kind}_{'bca' if bca else 'percentile'}"


def _mean(values: np.ndarray, axis: int) -> np.ndarray:
    return np.mean(values, axis=axis)


def _ratio_of_sums(sums: np.ndarray, counts: np.ndarray, axis: int) -> np.ndarray:
    return np.sum(sums, axis=axis) / np.sum(counts, axis=axis)


def _in_bounds(interval: tuple[float, float], bounds: Bounds) -> tuple[float, float]:
    # A percentile of resampled means lies within the observed scores; only rounding in
    # np.mean can step a last bit past a bound.
    low, high = bounds
    return max(low, interval[0]), min(high, interval[1])


def bootstrap_mean(scores: Sequence[float], bounds: Bounds) -> BoundedInterval:
    """BCa bootstrap 95% interval of the mean of scores in `bounds` (scipy.stats.bootstrap,
    9,999 resamples, fixed seed); null with a note below MIN_BOOTSTRAP_N scores."""
    # Sorted: with a fixed seed the resamples depend on the order, which a read need not keep.
    values = np.sort(np.asarray(scores, dtype=float))
    if len(values) < MIN_BOOTSTRAP_N:
        return _too_few(len(values), MIN_BOOTSTRAP_N, "score")
    if _constant(values):
        return _equal(float(values[0]), "bootstrap_bca", "score")
    interval, method = _bootstrap((values,), _mean, "bootstrap")
    return BoundedInterval(_in_bounds(interval, bounds), method)


def _constant(values: np.ndarray) -> bool:
    return float(np.ptp(values)) <= 1e-12 * max(1.0, float(np.abs(values).max()))


def mean_interval(
    n: int,
    total: float,
    total_sq: float,
    bounds: Bounds,
    scores: Callable[[], Sequence[float]],
    complete: bool = True,
    cache_key: object = None,
) -> BoundedInterval:
    """The 95% interval of the mean of n scores in `bounds`, from their running sums: Wilson
    when every score is at a bound, else a BCa bootstrap of the scores (`scores()` is called
    only then).

    Args:
        complete: False while more results may arrive; a bootstrap of more than
            RUNNING_BOOTSTRAP_MAX_N scores then waits for them (null with a note).
        cache_key: whose scores these are (an evaluation and metric): the interval is kept
            per process for the key and the sums, so a poll with no new score reuses it.
    """
    low, high = bounds
    if n == 0:
        return BoundedInterval(None, None, None)
    at_high = at_bounds(n, total, total_sq, bounds)
    if at_high is not None:
        if n < MIN_WILSON_N:
            return _too_few(n, MIN_WILSON_N, "score")
        proportion = wilson_interval(at_high, n)
        assert proportion is not None
        interval = (low + (high - low) * proportion[0], low + (high - low) * proportion[1])
        return BoundedInterval(interval, WILSON)
    if n < MIN_BOOTSTRAP_N:
        return _too_few(n, MIN_BOOTSTRAP_N, "score")
    if not complete and n > RUNNING_BOOTSTRAP_MAX_N:
        return BoundedInterval(
            None,
            None,
            f"the bootstrap interval of {n:,} scores is computed once every result is in",
        )
    if cache_key is None:
        return bootstrap_mean(scores(), bounds)
    return _cached(
        (cache_key, n, total, total_sq, bounds), lambda: bootstrap_mean(scores(), bounds)
    )


_CACHE: "OrderedDict[tuple[object, ...], BoundedInterval]" = OrderedDict()
_CACHE_SIZE = 4096
_LOCK = Lock()


def _cached(key: tuple[object, ...], make: Callable[[], BoundedInterval]) -> BoundedInterval:
    """The interval for this key and these sums, made once per process: summaries are polled,
    and until a result is added the same scores give the same sums."""
    with _LOCK:
        if key in _CACHE:
            _CACHE.move_to_end(key)
            return _CACHE[key]
    interval = make()
    with _LOCK:
        _CACHE[key] = interval
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return interval


def paired_interval(differences: Sequence[float], bounds: Bounds) -> BoundedInterval:
    """BCa paired bootstrap 95% interval of the mean difference (candidate − baseline) of
    scores in `bounds`: pairs are resampled together, so it stays within ±(hi − lo)."""
    values = np.sort(np.asarray(differences, dtype=float))
    if len(values) < MIN_BOOTSTRAP_N:
        return _too_few(len(values), MIN_BOOTSTRAP_N, "pair")
    if _constant(values):
        return _equal(float(values.mean()), "paired_bootstrap_bca", "difference")
    interval, method = _bootstrap((values,), _mean, "paired_bootstrap")
    width = bounds[1] - bounds[0]
    return BoundedInterval(_in_bounds(interval, (-width, width)), method)


def cluster_interval(
    scores: Sequence[float], codes: Sequence[int], bounds: Bounds, cache_key: object = None
) -> BoundedInterval:
    """BCa cluster bootstrap 95% interval of the mean: whole clusters resampled (each as its
    sum and count, resampled together), the mean being Σ sums / Σ counts.

    Args:
        codes: each score's cluster as an integer code.
        cache_key: whose scores these are: the interval is kept per process for the key and
            the scores' sums (polls of a clustered summary read the scores, but need not
            resample them again).
    """
    values = np.asarray(scores, dtype=float)
    if cache_key is None:
        return _cluster_bootstrap(values, np.asarray(codes), bounds)
    key = ("clustered", cache_key, len(values), float(values.sum()), float(values @ values), bounds)
    return _cached(key, lambda: _cluster_bootstrap(values, np.asarray(codes), bounds))


def _cluster_bootstrap(values: np.ndarray, groups: np.ndarray, bounds: Bounds) -> BoundedInterval:
    clusters = np.unique(groups)
    if len(clusters) < MIN_BOOTSTRAP_N:
        return _too_few(len(clusters), MIN_BOOTSTRAP_N, "cluster")
    if _constant(values):
        return _equal(float(values[0]), "cluster_bootstrap_bca", "score")
    index = np.searchsorted(clusters, groups)
    sums = np.bincount(index, weights=values)
    counts = np.bincount(index).astype(float)
    order = np.lexsort((counts, sums))
    sums, counts = sums[order], counts[order]
    interval, method = _bootstrap((sums, counts), _ratio_of_sums, "cluster_bootstrap")
    low, high = _in_bounds(interval, bounds)
    # Clustering only adds uncertainty: resampled clusters can still give a narrower band than
    # resampled scores by chance (or by a negative intra-cluster correlation, which a 95%
    # claim should not bank on), so the clustered interval holds the plain one.
    plain = bootstrap_mean(values, bounds).ci95
    if plain is None or (low <= plain[0] and plain[1] <= high):
        return BoundedInterval((low, high), method)
    return BoundedInterval(
        (min(low, plain[0]), max(high, plain[1])),
        method,
        f"widened to hold the plain interval [{plain[0]:.4g}, {plain[1]:.4g}]: the clusters' "
        "resamples gave a narrower one, and clustering never makes a mean surer",
    )


def snap_into(value: float | None, interval: tuple[float, float] | None) -> float | None:
    """`value` moved onto the nearer end of `interval` when it lies outside by rounding alone.

    A mean read from running sums (twelve 0.8s sum to 9.600000000000001) can miss the interval
    computed from the exact scores by the last bit, and a client checking lower <= mean <=
    upper would fail on it. A value outside by more than rounding is left as it is.
    """
    if value is None or interval is None:
        return value
    low, high = interval
    tolerance = 1e-9 * max(1.0, abs(low), abs(high))
    if low - tolerance <= value < low:
        return low
    if high < value <= high + tolerance:
        return high
    return value
