"""Whether one set of a judge's verdicts agrees with people better than another on the same
items: the change in Cohen's κ, with a paired percentile bootstrap over the items.

Two κ read on the same items share the people's labels and the items' difficulty, so whether
their own intervals overlap says little either way; the paired difference is what to test
(both κ recomputed from one resample of the items each time).
"""

import math
import warnings
from collections.abc import Sequence

import numpy as np

from app.stats import _resampled as resampled
from app.stats._human import (
    _BATCH_VALUES,
    BINS,
    MAX_UNDEFINED_SHARE,
    MIN_INTERVAL_N,
    RESAMPLES,
    SEED,
    _prepare,
)
from app.stats._human_types import LabelledItem, Statistic, _Items


def _kappa(data: _Items) -> float:
    from sklearn.metrics import cohen_kappa_score

    with warnings.catch_warnings():
        # One class only: scikit-learn warns and answers NaN, reported as undefined.
        warnings.simplefilter("ignore")
        return float(cohen_kappa_score(data.people_pass, data.judge_pass, labels=[False, True]))


def kappa_change(
    before: Sequence[LabelledItem],
    after: Sequence[LabelledItem],
    *,
    threshold: float,
    scale: tuple[float, float],
    resamples: int = RESAMPLES,
    seed: int = SEED,
) -> Statistic:
    """κ(after) − κ(before) of pass/fail verdicts against the people's, over the same items
    (the same keys and labels in the same order, each side's own judge score), with a 95%
    percentile bootstrap of the difference over `resamples` item resamples drawn from `seed`.

    None with a note below 2 items or when κ is undefined on a side (one class only); no
    interval below MIN_INTERVAL_N items or when κ is undefined in too many resamples.
    """
    old, _ = _prepare(before, threshold, scale, BINS)
    new, _ = _prepare(after, threshold, scale, BINS)
    if old.keys != new.keys:
        raise ValueError("both sides must be the same items, in the same order")
    n = len(old.keys)
    if n < 2:
        return Statistic(None, None, f"from {n} item{'' if n == 1 else 's'}: at least 2 are needed")
    value = _kappa(new) - _kappa(old)
    if not math.isfinite(value):
        return Statistic(
            None,
            None,
            "κ is undefined on a side (judge and people give one verdict to every item), so "
            "its change is too",
        )
    if n < MIN_INTERVAL_N:
        return Statistic(
            value, None, f"no interval from {n} items: at least {MIN_INTERVAL_N} are needed"
        )
    rng = np.random.default_rng(seed)
    weights = 1.0 - np.eye(2)
    people = old.people_pass.astype(int)
    per_batch = max(1, _BATCH_VALUES // n)
    changes = []
    for start in range(0, resamples, per_batch):
        idx = rng.integers(0, n, size=(min(per_batch, resamples - start), n))
        kappas = [
            resampled.kappa(
                resampled.confusions(people[idx], side.judge_pass[idx].astype(int), 2), weights
            )
            for side in (old, new)
        ]
        changes.append(kappas[1] - kappas[0])
    drawn = np.concatenate(changes)
    finite = drawn[np.isfinite(drawn)]
    undefined = drawn.size - finite.size
    if undefined > MAX_UNDEFINED_SHARE * resamples:
        return Statistic(
            value,
            None,
            f"κ is undefined on a side in {undefined} of {resamples} resamples (a class missing "
            "from them): no honest interval",
        )
    low, high = np.quantile(finite, [0.025, 0.975])
    note = None
    if high - low <= 1e-12:
        note = (
            f"every resample gives {value:g}: the two versions stand in the same relation to "
            "the people on every item, so the interval is a point, not certainty"
        )
    return Statistic(value, (float(low), float(high)), note)
