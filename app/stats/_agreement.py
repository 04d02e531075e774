"""How far raters agree over the items they rated: Krippendorff's alpha (judge panels, and a
judge beside the people who labelled its results)."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import krippendorff
import numpy as np

# Krippendorff's own reading of alpha: below 0.667 no conclusion should rest on the ratings
# (0.667 to 0.8 tentative ones only).
LOW_AGREEMENT = 0.667

# The `krippendorff` package builds units × V × V arrays (V distinct values): continuous scores
# over 1,000 items asked it for 26 GB, 500 items took 24 s. Past this many cells the interval
# alpha comes from its closed form (interval_alpha), equal to the package's (tests/stats).
KRIPPENDORFF_MAX_CELLS = 2_000_000

Level = Literal["interval", "nominal"]


@dataclass(frozen=True)
class Agreement:
    """Krippendorff's alpha (interval) over `items` test cases rated by `raters` judges."""

    alpha: float | None
    items: int
    raters: int

    @property
    def low(self) -> bool | None:
        """True below LOW_AGREEMENT; None when alpha is not defined."""
        return None if self.alpha is None else self.alpha < LOW_AGREEMENT


def rating_matrix(ratings: Sequence[Sequence[float | None]]) -> np.ndarray:
    """Rows of raters, columns of items, NaN where a rater gave nothing (the package's layout)."""
    raters = len(ratings)
    return np.array(
        [[np.nan if value is None else float(value) for value in row] for row in ratings],
        dtype=float,
    ).reshape(raters, -1 if raters else 0)


def interval_alpha(matrix: np.ndarray) -> float | None:
    """Interval alpha in closed form: 1 − (n − 1)·Σ_u Σ_{i≠j∈u} δ²/(m_u − 1) / Σ_{i≠j} δ².

    Each sum of squared differences is 2(m·Σv² − (Σv)²), so this costs O(cells) where the
    package costs O(units·V²). On 0/1 values δ² is the nominal metric, so it is nominal alpha
    of pass/fail too. None without pairable values or without any variation among them.
    """
    if matrix.size == 0:
        return None
    counts = np.sum(~np.isnan(matrix), axis=0)
    pairable = matrix[:, counts >= 2]
    if pairable.shape[1] == 0:
        return None
    # Differences do not move with a shift; centring keeps m·Σv² − (Σv)² clear of cancellation.
    values = pairable - np.nanmean(pairable)
    m = np.sum(~np.isnan(values), axis=0).astype(float)
    s1 = np.nansum(values, axis=0)
    s2 = np.nansum(values * values, axis=0)
    within = np.sum(2 * (m * s2 - s1 * s1) / (m - 1))
    n, total, total_sq = m.sum(), s1.sum(), s2.sum()
    pooled = 2 * (n * total_sq - total * total)
    if pooled <= 1e-12 * n * n * max(float(np.nanmax(np.abs(values))), 1e-300) ** 2:
        return None
    return float(1 - (n - 1) * within / pooled)


def krippendorff_alpha(matrix: np.ndarray, level: Level = "interval") -> float | None:
    """Alpha of a raters × items matrix (NaN: no rating) by the `krippendorff` package.

    None when no item has two ratings or the paired ratings never differ (alpha divides by
    zero there). Interval alpha of a domain too large for the package comes from
    interval_alpha; nominal alpha is asked of the package only with few categories (pass/fail).
    """
    if matrix.size == 0:
        return None
    pairable = matrix[:, np.sum(~np.isnan(matrix), axis=0) >= 2]
    values = pairable[~np.isnan(pairable)]
    if values.size == 0 or np.allclose(values, values[0]):
        return None
    domain = np.unique(values).size
    if level == "interval" and pairable.shape[1] * domain * domain > KRIPPENDORFF_MAX_CELLS:
        return interval_alpha(pairable)
    alpha = krippendorff.alpha(reliability_data=pairable, level_of_measurement=level)
    return float(alpha)


def panel_agreement(ratings: Sequence[Sequence[float | None]]) -> Agreement:
    """Alpha of a panel: `ratings[r][i]` is rater r's score of item i (None: it gave none).

    Computed by the `krippendorff` package at the interval level; None when fewer than two
    raters, fewer than two items with two ratings, or no variation at all (alpha undefined).
    """
    raters = len(ratings)
    matrix = rating_matrix(ratings)
    paired = int((np.sum(~np.isnan(matrix), axis=0) >= 2).sum()) if raters else 0
    if raters < 2 or paired < 2:
        return Agreement(None, paired, raters)
    return Agreement(krippendorff_alpha(matrix), paired, raters)
