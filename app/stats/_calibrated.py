"""The judge's mean corrected by the people's labels: prediction-powered inference (PPI++).

Angelopoulos, Duchi and Zrnic, "PPI++: Efficient Prediction-Powered Inference" (arXiv
2311.01453), as `ppi_py` computes it: θ̂ = λ·mean(judge on unlabelled) + mean(people − λ·judge
on labelled), λ tuned to shrink the variance. Valid whatever the judge's errors, provided the
labelled results are a random sample of the same judge configuration's results.
"""

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

MIN_LABELS = 2
# ppi_py's interval is a normal approximation. Simulated at 300 unlabelled results and a judge
# right 85% of the time, its "95%" interval covered the people's mean 26% of the time from 2
# labels, 69% from 5 and 81-88% from 10 (docs/review.md): below this many labels the estimate
# stands alone, as a bootstrap interval does below as many scores (app/stats/_bounded.py).
MIN_INTERVAL_LABELS = 10
ALPHA = 0.05
PPI = "ppi++"
PPI_UNTUNED = "ppi"
CLASSICAL = "classical"


@dataclass(frozen=True)
class CalibratedMean:
    """The estimate of what people would give on average, its 95% interval, and how made.

    `estimand` is "mean" (labels on the score's scale) or "pass_rate" (pass/fail labels);
    `method` is "ppi++" (λ tuned), "ppi" (λ = 1, when it could not be tuned) or "classical"
    (every result labelled: the people's own mean); None with a note when too few labels.
    `ci95` is None, `note` saying why, below MIN_INTERVAL_LABELS labels, when the labels leave
    no spread to estimate it from, or when ppi_py's interval lies wholly outside the scale.
    """

    mean: float | None
    ci95: tuple[float, float] | None
    n_labels: int
    n_unlabelled: int
    estimand: Literal["mean", "pass_rate"]
    method: str | None
    note: str | None = None


def calibrated_mean(
    labelled_judge: Sequence[float],
    labelled_people: Sequence[float | bool],
    unlabelled_judge: Sequence[float],
    *,
    scale: tuple[float, float],
    threshold: float | None = None,
) -> CalibratedMean:
    """PPI++ estimate of the mean with `ppi_py`'s ppi_mean_pointestimate and ppi_mean_ci (95%),
    the interval from MIN_INTERVAL_LABELS labels on.

    Args:
        labelled_judge: the judge's score of each labelled item (PPI's unit: an item held by
            several results counts once, with their mean score; app/metric_versions/agreement.py).
        labelled_people: the people's value of the same results, in the same order (their mean
            label when several people labelled one), or True/False for pass/fail labels: the
            estimate is then of the pass rate, judge scores counting as passes at `threshold`.
        unlabelled_judge: the judge's score of the items nobody labelled.
        scale: the score's range; the estimate and its bounds are kept inside it.
    """
    passing = any(isinstance(value, bool) for value in labelled_people)
    estimand: Literal["mean", "pass_rate"] = "pass_rate" if passing else "mean"
    n, unlabelled = len(labelled_people), len(unlabelled_judge)
    if passing and threshold is None:
        return CalibratedMean(
            None, None, n, unlabelled, estimand, None, "pass/fail labels need the threshold"
        )
    if n < MIN_LABELS:
        return CalibratedMean(
            None,
            None,
            n,
            unlabelled,
            estimand,
            None,
            f"{n} labelled result{'' if n == 1 else 's'}: at least {MIN_LABELS} are needed",
        )
    judge = np.asarray(labelled_judge, dtype=float)
    others = np.asarray(unlabelled_judge, dtype=float)
    people = np.asarray(
        [
            float(value >= threshold if passing and not isinstance(value, bool) else value)  # type: ignore[operator]
            for value in labelled_people
        ],
        dtype=float,
    )
    bounds = scale
    if passing:
        judge, others, bounds = (judge >= threshold) * 1.0, (others >= threshold) * 1.0, (0.0, 1.0)
    # ppi_py imports numba, which takes seconds: only where an estimate is made.
    import ppi_py

    note = None
    if unlabelled == 0:
        mean, ci, method = (
            float(people.mean()),
            ppi_py.classical_mean_ci(people, alpha=ALPHA),
            CLASSICAL,
        )
        note = "every result is labelled: the people's own mean, with a normal interval"
    else:
        with warnings.catch_warnings():
            # λ divides by the variance of the judge's scores; NaN when they do not vary.
            warnings.simplefilter("ignore")
            mean = float(ppi_py.ppi_mean_pointestimate(people, judge, others)[0])
            ci = ppi_py.ppi_mean_ci(people, judge, others, alpha=ALPHA)
            method = PPI
            if not (math.isfinite(mean) and all(math.isfinite(float(b[0])) for b in ci)):
                mean = float(ppi_py.ppi_mean_pointestimate(people, judge, others, lam=1)[0])
                ci = ppi_py.ppi_mean_ci(people, judge, others, alpha=ALPHA, lam=1)
                method = PPI_UNTUNED
                note = "the judge's scores do not vary, so λ cannot be tuned: plain PPI (λ = 1)"
    lower, upper = (float(np.ravel(bound)[0]) for bound in ci)
    clipped = min(max(mean, bounds[0]), bounds[1])
    notes = [note] if note else []
    if clipped != mean:
        notes.append(f"the estimate {mean:g} lies outside the scale and is clipped to it")
    interval, why = _interval(lower, upper, n, bounds)
    return CalibratedMean(
        mean=clipped,
        ci95=interval,
        n_labels=n,
        n_unlabelled=unlabelled,
        estimand=estimand,
        method=method,
        note="; ".join([*notes, *([why] if why else [])]) or None,
    )


def _interval(
    lower: float, upper: float, n: int, bounds: tuple[float, float]
) -> tuple[tuple[float, float] | None, str | None]:
    """ppi_py's interval kept inside the scale, or None with why it would not be a 95% one."""
    low, high = bounds
    if n < MIN_INTERVAL_LABELS:
        return None, (
            f"no interval from {n} labelled results: at least {MIN_INTERVAL_LABELS} are needed "
            "(the normal approximation covers far less than 95% from fewer)"
        )
    if upper - lower <= 1e-12 * (high - low):
        # λ is tuned to 0 when the labels do not vary (no covariance with the judge), and the
        # people's own mean then has a zero standard error: [1, 1] from 30 labels that all pass,
        # whatever the judge says of the other results.
        return None, (
            "no interval: the labels leave no spread to estimate one from (they do not vary), "
            "so the normal approximation gives one of no width, which would claim certainty"
        )
    if upper < low or lower > high:
        return None, (
            f"no interval: the normal interval [{lower:.4g}, {upper:.4g}] lies wholly outside "
            "the scale"
        )
    return (float(max(lower, low)), float(min(upper, high))), None
