"""How far a panel's judges agree with one another over the items they all scored."""

from collections.abc import Sequence
from dataclasses import dataclass

import krippendorff
import numpy as np

# Krippendorff's own reading of alpha: below 0.667 no conclusion should rest on the ratings
# (0.667 to 0.8 tentative ones only).
LOW_AGREEMENT = 0.667


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


def panel_agreement(ratings: Sequence[Sequence[float | None]]) -> Agreement:
    """Alpha of a panel: `ratings[r][i]` is rater r's score of item i (None: it gave none).

    Computed by the `krippendorff` package at the interval level; None when fewer than two
    raters, fewer than two items with two ratings, or no variation at all (alpha undefined).
    """
    raters = len(ratings)
    matrix = np.array(
        [[np.nan if value is None else float(value) for value in row] for row in ratings],
        dtype=float,
    ).reshape(raters, -1 if raters else 0)
    paired = int((np.sum(~np.isnan(matrix), axis=0) >= 2).sum()) if raters else 0
    if raters < 2 or paired < 2:
        return Agreement(None, paired, raters)
    values = matrix[~np.isnan(matrix)]
    if np.allclose(values, values[0]):
        # Every rating the same: nothing to disagree about, and alpha divides by zero.
        return Agreement(None, paired, raters)
    alpha = krippendorff.alpha(reliability_data=matrix, level_of_measurement="interval")
    return Agreement(float(alpha), paired, raters)
