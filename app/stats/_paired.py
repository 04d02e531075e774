"""Two sets of scores on the same items: paired t, Wilcoxon, exact McNemar, Holm, power."""

import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from scipy import optimize
from scipy import stats as scipy_stats
from statsmodels.stats.contingency_tables import mcnemar

from app.stats._bounded import (
    LEVEL,
    MIN_BOOTSTRAP_N,
    BoundedInterval,
    Bounds,
    _too_few,
    at_bounds,
    paired_interval,
    snap_into,
    wilson_bounds,
)

POWER = 0.8
PAIRED_NEWCOMBE = "paired_newcombe"
_Z = float(scipy_stats.norm.ppf((1 + LEVEL) / 2))
# The smallest normal double: a p-value below it (scipy's t tail past |t| ≈ 150 at a few
# hundred pairs, 2 / 2ⁿ from n = 1,076) reads as 0.0, which no finite sample can show; it is
# given as this, "at most".
SMALLEST_P = sys.float_info.min
# Past this noncentrality scipy's noncentral t (Boost's series) stops converging and returns
# wrong numbers without failing (checked against the exact df = 1 power); only n = 2 or 3
# with alpha below ~1e-6 needs more.
_MAX_NONCENTRALITY = 1e5


@dataclass(frozen=True)
class PairedMetric:
    """One metric compared item by item (candidate − baseline)."""

    n: int
    baseline_mean: float | None
    candidate_mean: float | None
    mean_difference: float | None
    # Paired BCa bootstrap (inside ±(hi − lo)), or Newcombe's interval when both sides' scores
    # are binary; None below MIN_BOOTSTRAP_N pairs (a note says).
    ci95: tuple[float, float] | None
    p_value: float | None
    wilcoxon_p_value: float | None
    minimum_detectable_effect: float | None
    # Why a figure is null or should be read with care (e.g. no minimum detectable effect).
    notes: tuple[str, ...] = ()
    ci_method: str | None = None
    # Only for metrics with a threshold (both sides' passed known for every pair).
    baseline_pass_rate: float | None = None
    candidate_pass_rate: float | None = None
    pass_rate_difference: float | None = None
    improved_items: int | None = None
    regressed_items: int | None = None
    mcnemar_p_value: float | None = None
    # The clusters the pairs fall in, when the items come in clusters (app/stats/_clustered_paired).
    clusters: int | None = None


def _rounding(value: float, differences: np.ndarray) -> bool:
    """Whether `value` is below the rounding noise of these differences (12 digits): 0.2 − 0.1
    and 0.3 − 0.2 differ by 3e-17, not by a spread worth testing."""
    return value <= 1e-12 * max(1.0, float(np.abs(differences).max()))


def constant_difference_p(n: int) -> float:
    """The exact two-sided p of n equal, non-zero differences under the sign-flip permutation
    test (the exact test of a paired mean): of the 2ⁿ equally likely sign patterns, the observed
    one and its mirror are the most extreme, so p = 2 / 2ⁿ. Never 0: n pairs cannot show more."""
    return max(SMALLEST_P, min(1.0, 2.0 ** (1 - n)))


def _paired_t(differences: np.ndarray) -> float | None:
    """The paired t test's two-sided p."""
    if len(differences) < 2:
        return None
    if _rounding(float(np.ptp(differences)), differences):
        # The t statistic is undefined here (scipy answers NaN or noise): no difference is p 1;
        # a constant one takes the exact sign-flip test's p, not 0 (no test of n pairs is
        # certain).
        if _rounding(abs(float(differences.mean())), differences):
            return 1.0
        return constant_difference_p(len(differences))
    return max(SMALLEST_P, float(scipy_stats.ttest_1samp(differences, 0.0).pvalue))


def _wilcoxon(differences: np.ndarray) -> float | None:
    if len(differences) < 2:
        return None
    if not differences.any():
        return 1.0
    # zero_method="wilcox" drops zero differences (Wilcoxon's original test).
    return max(SMALLEST_P, float(scipy_stats.wilcoxon(differences, zero_method="wilcox").pvalue))


def t_test_power(effect_size: float, n: int, alpha: float) -> float:
    """Power of the two-sided one-sample (paired) t test at `alpha` with n items, for a true
    mean difference of `effect_size` standard deviations (noncentral t, df = n − 1)."""
    df = n - 1
    critical = float(scipy_stats.t.isf(alpha / 2, df))
    noncentrality = effect_size * math.sqrt(n)
    # The lower tail as the upper one of −noncentrality: scipy's (and statsmodels') cdf there
    # answers NaN for some (df, nc), its sf does not.
    return float(
        scipy_stats.nct.sf(critical, df, noncentrality)
        + scipy_stats.nct.sf(critical, df, -noncentrality)
    )


@lru_cache(maxsize=256)
def detectable_effect_size(n: int, alpha: float) -> float | None:
    """The effect size (in SDs of the differences) the test finds with 80% power; None when
    it cannot be computed reliably (alpha ≥ 0.8, or a tiny alpha with 2 or 3 items).

    Solves power(d) = 0.8 with brentq on a bracket established here: power(0) = alpha < 0.8
    and the upper end doubled until power reaches 0.8 (statsmodels' solve_power guesses its
    bracket and fails for many ordinary n, e.g. 73 or 1000–1200 at alpha 0.05).
    """
    if n < 2 or alpha >= POWER:
        return None
    upper = float(scipy_stats.norm.isf(alpha / 2) + scipy_stats.norm.ppf(POWER)) / math.sqrt(n)
    lower = 0.0
    while True:
        if upper * math.sqrt(n) > _MAX_NONCENTRALITY:
            return None
        power = t_test_power(upper, n, alpha)
        if not math.isfinite(power):
            return None
        if power >= POWER:
            break
        lower, upper = upper, upper * 2
    try:
        size = optimize.brentq(
            lambda d: t_test_power(d, n, alpha) - POWER, lower, upper, xtol=1e-14, rtol=1e-12
        )
    except ValueError:  # a NaN power inside the bracket
        return None
    return float(size)


def minimum_detectable_effect(sd: float, n: int, alpha: float) -> tuple[float | None, str | None]:
    """The smallest mean difference a two-sided paired t test at `alpha` finds with 80% power,
    or None with the reason."""
    if n < 2:
        return None, None
    if alpha >= POWER:
        return None, (
            f"no minimum detectable effect at alpha {alpha:g}: the test rejects with at least "
            "80% probability even when nothing changed"
        )
    if sd == 0:
        # 0 would claim any change would have been seen; with no spread there is no scale.
        return None, (
            "no minimum detectable effect: every item's difference is the same, so there is "
            "no spread to scale it by"
        )
    size = detectable_effect_size(n, alpha)
    if size is None:
        return None, (
            f"no minimum detectable effect: alpha {alpha:g} is too small for n = {n} to "
            "compute the power reliably"
        )
    return size * sd, None


def at_top(scores: np.ndarray, bounds: Bounds) -> np.ndarray | None:
    """Which scores sit at the range's upper bound when every one sits at a bound (a binary
    score), else None."""
    if at_bounds(len(scores), float(scores.sum()), float(scores @ scores), bounds) is None:
        return None
    return scores > (bounds[0] + bounds[1]) / 2


def paired_proportions_interval(
    baseline_top: np.ndarray, candidate_top: np.ndarray, bounds: Bounds
) -> BoundedInterval:
    """Newcombe's square-and-add 95% interval of candidate − baseline for a binary score on
    both sides (Newcombe 1998, paired method 10, with the correlation's continuity correction
    of Fagerland, Lydersen and Laake's textbook): each side's Wilson interval, combined
    through the pairs' correlation; null below MIN_BOOTSTRAP_N pairs.

    A bootstrap of differences that are mostly 0 resamples the few discordant pairs: at 10
    pairs it covered the true difference 55% of the time (all pairs concordant gave [0, 0]).

    Args:
        baseline_top: per pair, whether the baseline's score is the range's top (else bottom).
    """
    n = len(baseline_top)
    if n < MIN_BOOTSTRAP_N:
        return _too_few(n, MIN_BOOTSTRAP_N, "pair")
    both = int(np.sum(baseline_top & candidate_top))
    candidate_only = int(np.sum(candidate_top & ~baseline_top))
    baseline_only = int(np.sum(baseline_top & ~candidate_top))
    neither = n - both - candidate_only - baseline_only
    candidate, baseline = (both + candidate_only) / n, (both + baseline_only) / n
    low_c, high_c = wilson_bounds(candidate, n, _Z)
    low_b, high_b = wilson_bounds(baseline, n, _Z)
    margins = (
        (both + candidate_only)
        * (baseline_only + neither)
        * (both + baseline_only)
        * (candidate_only + neither)
    )
    crossed = both * neither - candidate_only * baseline_only
    # The correlation of the two sides' rates with Newcombe's continuity correction: a positive
    # cross-product is reduced by n/2, and to 0 when that would pass it.
    if margins == 0 or 0 <= crossed <= n / 2:
        correlation = 0.0
    else:
        correlation = (crossed - n / 2 if crossed > 0 else crossed) / math.sqrt(margins)
    down = math.sqrt(
        max(
            0.0,
            (candidate - low_c) ** 2
            + (high_b - baseline) ** 2
            - 2 * correlation * (candidate - low_c) * (high_b - baseline),
        )
    )
    up = math.sqrt(
        max(
            0.0,
            (baseline - low_b) ** 2
            + (high_c - candidate) ** 2
            - 2 * correlation * (baseline - low_b) * (high_c - candidate),
        )
    )
    width = bounds[1] - bounds[0]
    difference = candidate - baseline
    return BoundedInterval(
        (max(-width, width * (difference - down)), min(width, width * (difference + up))),
        PAIRED_NEWCOMBE,
    )


def exact_mcnemar(improved: int, regressed: int) -> float:
    """Two-sided exact binomial p on the discordant pairs (1 when there are none)."""
    if improved + regressed == 0:
        return 1.0
    # The concordant cells do not enter the exact test; statsmodels wants the full table.
    table = [[0, regressed], [improved, 0]]
    return max(SMALLEST_P, float(mcnemar(table, exact=True).pvalue))


def compare_metric(
    baseline: Sequence[float],
    candidate: Sequence[float],
    baseline_passed: Sequence[bool] | None,
    candidate_passed: Sequence[bool] | None,
    alpha: float,
    bounds: Bounds = (0.0, 1.0),
) -> PairedMetric:
    """Paired statistics for scores matched item by item (same order on both sides).

    Args:
        bounds: the score's range (lowest, highest): the interval of the mean difference
            stays within ±(highest − lowest).
        baseline_passed: per pair, whether each side passed its threshold; None when the
            metric has no threshold.
    """
    a = np.asarray(baseline, dtype=float)
    b = np.asarray(candidate, dtype=float)
    n = len(a)
    differences = b - a
    p_value = _paired_t(differences)
    interval = None
    if n:
        baseline_top, candidate_top = at_top(a, bounds), at_top(b, bounds)
        interval = (
            paired_proportions_interval(baseline_top, candidate_top, bounds)
            if baseline_top is not None and candidate_top is not None
            else paired_interval(differences, bounds)
        )
    sd = float(differences.std(ddof=1)) if n >= 2 else 0.0
    if n and _rounding(float(np.ptp(differences)), differences):
        sd = 0.0
    detectable, note = minimum_detectable_effect(sd, n, alpha)
    compared = PairedMetric(
        n=n,
        baseline_mean=float(a.mean()) if n else None,
        candidate_mean=float(b.mean()) if n else None,
        # Onto the interval when outside by rounding alone (a constant shift's interval is
        # the mean of the sorted differences).
        mean_difference=snap_into(float(differences.mean()), interval.ci95 if interval else None)
        if n
        else None,
        ci95=interval.ci95 if interval else None,
        ci_method=interval.method if interval else None,
        p_value=p_value,
        wilcoxon_p_value=_wilcoxon(differences),
        minimum_detectable_effect=detectable,
        # A constant difference's zero-width interval needs no note beside the MDE's.
        notes=tuple(
            text
            for text in (interval.note if interval and interval.ci95 is None else None, note)
            if text is not None
        ),
    )
    if baseline_passed is None or candidate_passed is None or n == 0:
        return compared
    pairs = list(zip(baseline_passed, candidate_passed, strict=True))
    improved = sum(1 for was, now in pairs if now and not was)
    regressed = sum(1 for was, now in pairs if was and not now)
    baseline_rate = sum(baseline_passed) / n
    candidate_rate = sum(candidate_passed) / n
    return PairedMetric(
        **{
            **compared.__dict__,
            "baseline_pass_rate": baseline_rate,
            "candidate_pass_rate": candidate_rate,
            "pass_rate_difference": candidate_rate - baseline_rate,
            "improved_items": improved,
            "regressed_items": regressed,
            "mcnemar_p_value": exact_mcnemar(improved, regressed),
        }
    )


def holm_adjust(p_values: Sequence[float | None]) -> list[float | None]:
    """Holm step-down adjusted p-values across the given tests (None stays None).

    The same numbers as statsmodels' `multipletests(p, method="holm")` (the tests check it), but
    that call runs `gc.collect()` on every use: 0.7 s in a service process's heap.
    """
    present = np.asarray([p for p in p_values if p is not None], dtype=float)
    if present.size == 0:
        return [None] * len(p_values)
    order = np.argsort(present, kind="stable")
    steps = present[order] * np.arange(present.size, 0, -1)
    adjusted = np.empty_like(present)
    adjusted[order] = np.minimum(np.maximum.accumulate(steps), 1.0)
    values = iter(adjusted.tolist())
    return [None if p is None else next(values) for p in p_values]
