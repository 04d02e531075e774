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
    """PPI++ estimate of the mean with `ppi_py`'s ppi_mean_pointestimate and ppi_mean_ci (95%).

    Args:
        labelled_judge: the judge's score of each labelled result.
        labelled_people: the people's value of the same results, in the same order (their mean
            label when several people labelled one), or True/False for pass/fail labels: the
            estimate is then of the pass rate, judge scores counting as passes at `threshold`.
        unlabelled_judge: the judge's score of the results nobody labelled.
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
    low, high = bounds
    lower, upper = (float(np.ravel(bound)[0]) for bound in ci)
    clipped = min(max(mean, low), high)
    if clipped != mean:
        note = f"the estimate {mean:g} lies outside the scale and is clipped to it"
    return CalibratedMean(
        mean=clipped,
        ci95=(max(lower, low), min(upper, high)),
        n_labels=n,
        n_unlabelled=unlabelled,
        estimand=estimand,
        method=method,
        note=note,
    )
