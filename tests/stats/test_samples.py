"""The aggregate of several judgments of one output, and a panel's agreement."""

import krippendorff
import numpy as np
import pytest

from app.stats import Judgment, panel_agreement, verdict, weighted_median
from app.stats._agreement import interval_alpha


def test_weighted_median_is_the_lower_median_when_weights_are_equal() -> None:
    assert weighted_median([0.2, 0.9, 0.4], [1, 1, 1]) == 0.4
    # An even count: the lower middle value, so the median is one judgment's score.
    assert weighted_median([0.2, 0.9, 0.4, 0.6], [1, 1, 1, 1]) == 0.4
    # A heavy member carries the median to its side.
    assert weighted_median([0.2, 0.9, 0.4], [1, 5, 1]) == 0.9


def test_fragile_only_when_the_judgments_straddle_the_threshold() -> None:
    split = verdict([Judgment(0.2), Judgment(0.8), Judgment(0.9)], 0.5, "median")
    assert split is not None and split.fragile and not split.all_passed
    agreed = verdict([Judgment(0.6), Judgment(0.8)], 0.5, "median")
    assert agreed is not None and not agreed.fragile and agreed.all_passed
    # A failed call is no judgment: it neither passes nor fails.
    alone = verdict([Judgment(None), Judgment(0.1)], 0.5, "mean")
    assert alone is not None and alone.scored == 1 and not alone.fragile


def test_majority_score_agrees_with_its_verdict_and_a_tie_fails() -> None:
    made = verdict([Judgment(0.1), Judgment(0.6), Judgment(0.7), Judgment(0.9)], 0.5, "majority")
    assert made is not None and made.passed and made.score == 0.7
    tie = verdict([Judgment(0.3), Judgment(0.8)], 0.5, "majority")
    assert tie is not None and not tie.passed and tie.score == 0.3


def test_a_tie_of_weights_fails_though_floats_sum_them_unequal() -> None:
    # 0.1 + 0.2 is 0.30000000000000004 in floats, more than 0.3.
    judgments = [Judgment(0.9, 0.1), Judgment(0.8, 0.2), Judgment(0.1, 0.3)]
    made = verdict(judgments, 0.5, "majority")
    assert made is not None and (made.passed, made.score) == (False, 0.1)


def test_weighted_mean() -> None:
    made = verdict([Judgment(0.2, 1), Judgment(0.8, 3)], 0.5, "mean")
    assert made is not None and made.score == pytest.approx(0.65) and made.passed


def test_nothing_scored_is_no_verdict() -> None:
    assert verdict([Judgment(None)], 0.5, "median") is None


def test_alpha_is_the_krippendorff_package_with_missing_ratings() -> None:
    ratings = [[0.9, 0.3, 0.7, None], [0.8, 0.6, 0.2, 0.3], [1.0, 0.4, None, 0.2]]
    matrix = np.array([[np.nan if v is None else v for v in row] for row in ratings])
    made = panel_agreement(ratings)
    assert made.alpha == pytest.approx(krippendorff.alpha(reliability_data=matrix))
    assert made.items == 4 and made.raters == 3


def test_alpha_undefined_without_two_items_or_any_variation() -> None:
    assert panel_agreement([[0.5], [0.7]]).alpha is None
    assert panel_agreement([[0.5, 0.5], [0.5, 0.5]]).alpha is None
    assert panel_agreement([[0.5, 0.2]]).alpha is None


def test_alpha_of_continuous_scores_over_many_items_is_its_definition() -> None:
    # The package builds items × V × V arrays (V distinct values): 1,500 items of continuous
    # scores asked it for about 100 GB. The closed form gives the definition's number.
    rng = np.random.default_rng(2)
    first = rng.uniform(0, 1, 1500)
    second = np.clip(first + rng.normal(0, 0.2, 1500), 0, 1)
    made = panel_agreement([list(first), list(second)])
    pooled = np.concatenate([first, second])
    expected = 1 - (pooled.size - 1) * np.sum(2 * (first - second) ** 2) / np.sum(
        np.subtract.outer(pooled, pooled) ** 2
    )
    assert made.alpha == pytest.approx(expected)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_closed_form_alpha_is_the_package_with_missing_ratings(seed: int) -> None:
    rng = np.random.default_rng(seed)
    scores = rng.uniform(0, 1, (4, 30))
    scores[rng.random(scores.shape) < 0.4] = np.nan
    assert interval_alpha(scores) == pytest.approx(krippendorff.alpha(reliability_data=scores))
    verdicts = (rng.random((3, 30)) < 0.5).astype(float)
    verdicts[rng.random(verdicts.shape) < 0.3] = np.nan
    assert interval_alpha(verdicts) == pytest.approx(
        krippendorff.alpha(reliability_data=verdicts, level_of_measurement="nominal")
    )
