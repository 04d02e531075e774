"""app.stats's one-run error bars against statsmodels and scipy (the libraries they stand for)."""

import random

import numpy as np
import pytest
from scipy import stats as scipy_stats
from statsmodels.stats.proportion import proportion_confint

from app.stats import clustered_spread, spread_from_sums, wilson_interval


class TestWilson:
    def test_matches_statsmodels(self) -> None:
        for n in (2, 3, 10, 57, 1000):
            for passed in sorted({0, 1, n // 3, n // 2, n - 1, n}):
                expected = proportion_confint(passed, n, alpha=0.05, method="wilson")
                assert wilson_interval(passed, n) == pytest.approx(expected, abs=1e-12)

    def test_none_and_all_passed_reach_the_bounds_exactly(self) -> None:
        # Rounding left 2.8e-17 at 0/7 and 0.9999999999999999 at 10/10 (statsmodels does too).
        for n in range(2, 2001):
            none_passed, all_passed = wilson_interval(0, n), wilson_interval(n, n)
            assert none_passed is not None and all_passed is not None
            assert none_passed[0] == 0.0 and all_passed[1] == 1.0, n
            assert 0.0 < none_passed[1] < 1.0 and 0.0 < all_passed[0] < 1.0

    def test_below_two_results_there_is_none(self) -> None:
        assert wilson_interval(1, 1) is None and wilson_interval(0, 0) is None


class TestSpread:
    def test_matches_scipy(self) -> None:
        generator = random.Random(5)
        for n in (2, 5, 30, 400):
            scores = [generator.random() for _ in range(n)]
            spread = spread_from_sums(n, sum(scores), sum(x * x for x in scores))
            sem = scipy_stats.sem(scores)
            expected = scipy_stats.t.interval(0.95, n - 1, loc=np.mean(scores), scale=sem)
            assert spread.stderr == pytest.approx(sem)
            assert spread.ci95 == pytest.approx(expected)

    def test_clustered_needs_two_clusters(self) -> None:
        assert clustered_spread([0.1, 0.9, 0.5], ["a", "a", "a"]) is None
        spread = clustered_spread([0.1, 0.9, 0.5, 0.7], ["a", "a", "b", "b"])
        assert spread is not None and spread.clusters == 2
