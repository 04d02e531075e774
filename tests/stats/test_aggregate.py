"""app.stats's one-run error bars against statsmodels and scipy (the libraries they stand for)."""

import math
import random

import numpy as np
import pytest
from scipy import stats as scipy_stats
from statsmodels.regression.linear_model import OLS
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

    def test_clustered_matches_millers_formula(self) -> None:
        # SE = √(C/(C−1) · Σ_c D_c²)/n, D_c = Σ_{i∈c}(x_i − x̄) (Miller 2024, App. A, with the
        # finite-cluster correction inspect and statsmodels apply).
        generator = random.Random(9)
        for clusters in (2, 3, 7):
            groups = [generator.randrange(clusters) for _ in range(40)]
            groups[:clusters] = range(clusters)
            scores = [generator.random() for _ in range(40)]
            mean = sum(scores) / 40
            sums = [
                sum(x - mean for x, g in zip(scores, groups, strict=True) if g == c)
                for c in range(clusters)
            ]
            expected = math.sqrt(clusters / (clusters - 1) * sum(d * d for d in sums)) / 40
            spread = clustered_spread(scores, groups)
            assert spread is not None and spread.stderr == pytest.approx(expected, rel=1e-9)
            plain = scipy_stats.sem(scores)
            assert spread.design_effect == pytest.approx((expected / plain) ** 2, rel=1e-9)

    def test_equal_scores_have_no_clustered_error_either(self) -> None:
        # The OLS fit on [0.7] * 6 gave a stderr of 1.6e-16 and a design effect of 10 (noise
        # over noise); the plain spread of the same scores is exactly 0.
        for value in (0.1, 0.7, 0.123456789, 1.0, 0.0, 33.3):
            for n in (6, 12, 40):
                scores = [value] * n
                spread = clustered_spread(scores, [i % 3 for i in range(n)])
                assert spread is not None and spread.clusters == 3
                assert spread.stderr == 0.0 and spread.design_effect is None
                if value in (0.0, 1.0):
                    # A binary score at one bound: Wilson's interval, as wide as three
                    # clusters of one mind make it (below).
                    assert spread.ci_method == "cluster_wilson" and spread.ci95 is not None
                else:
                    # Three clusters are too few for a cluster bootstrap; twelve give no width.
                    assert spread.ci95 is None and "at least 10" in (spread.interval_note or "")
                many = clustered_spread([value] * 24, [i % 12 for i in range(24)], (0.0, 40.0))
                assert many is not None and many.ci95 is not None
                if value == 0.0:
                    # At the lower bound of [0, 40]: every score at a bound, so Wilson's.
                    assert many.ci_method == "cluster_wilson" and many.ci95[0] == 0.0
                else:
                    assert many.ci95[0] == many.ci95[1] == value
                plain = spread_from_sums(n, sum(scores), sum(x * x for x in scores))
                assert plain.stderr == 0.0 and plain.ci95 is not None
                assert plain.ci95[0] == plain.ci95[1]

    def test_clustered_binary_interval_holds_the_plain_one(self) -> None:
        # Twenty exact_match scores of 1 in ten clusters: plain Wilson [0.839, 1], and the
        # cluster bootstrap gave [1, 1], which claimed clustering made the mean surer.
        scores = [1.0] * 20
        spread = clustered_spread(scores, [i // 2 for i in range(20)])
        plain = wilson_interval(20, 20)
        assert spread is not None and plain is not None
        assert spread.ci_method == "cluster_wilson" and spread.ci95 is not None
        # Every score equal says nothing of how clusters move: each counts as one result,
        # with t's critical value at 9 df (Wilson of 10/10 with t in place of z).
        t = scipy_stats.t.ppf(0.975, 9)
        centre = (1 + t * t / 20) / (1 + t * t / 10)
        half = t * math.sqrt(t * t / 400) / (1 + t * t / 10)
        assert spread.ci95 == pytest.approx((centre - half, 1.0), rel=1e-12)
        assert spread.ci95[0] < plain[0]
        for seed in range(30):
            generator = random.Random(seed)
            n, clusters = generator.choice([(12, 3), (20, 10), (40, 8), (60, 30)])
            rate = generator.choice([0.05, 0.5, 0.9, 1.0])
            groups = [generator.randrange(clusters) for _ in range(n)]
            groups[:clusters] = range(clusters)
            binary = [float(generator.random() < rate) for _ in range(n)]
            spread = clustered_spread(binary, groups)
            plain = wilson_interval(round(sum(binary)), n)
            assert spread is not None and spread.ci95 is not None and plain is not None
            assert spread.ci95[0] <= plain[0] + 1e-12 and spread.ci95[1] >= plain[1] - 1e-12

    def test_korn_graubard_effective_n(self) -> None:
        # min(n, p(1−p)/SE²) results, with t at C−1 df (inspect's clustered ci_wilson).
        groups = [i % 6 for i in range(36)]
        scores = [float(g < 3 or i % 5 == 0) for i, g in enumerate(groups)]
        spread = clustered_spread(scores, groups)
        assert spread is not None and spread.stderr > 0
        p = sum(scores) / 36
        effective = min(36, p * (1 - p) / spread.stderr**2)
        t = scipy_stats.t.ppf(0.975, 5)
        centre = (p + t * t / (2 * effective)) / (1 + t * t / effective)
        half = (
            t
            * math.sqrt(p * (1 - p) / effective + t * t / (4 * effective**2))
            / (1 + t * t / effective)
        )
        assert spread.ci95 == pytest.approx((centre - half, centre + half), rel=1e-9)

    def test_clusters_of_equal_means_have_a_clustered_error_of_zero(self) -> None:
        # Two clusters with equal means: every D_c is 0, so the clustered SE is 0; the OLS fit
        # gave 7.8e-17 and a design effect of 4.6e-31.
        for scores in ([0.2, 0.8, 0.2, 0.8], [0.3, 0.9, 0.6, 0.1, 0.7, 1.0]):
            groups = [i * 2 // len(scores) for i in range(len(scores))]
            spread = clustered_spread(scores, groups)
            assert spread is not None
            assert spread.stderr == 0.0 and spread.design_effect == 0.0

    def test_clusters_are_json_values_with_their_type(self) -> None:
        # str() made 1 and "1" one cluster; Python's == would make 1 and true one.
        scores = [0.1, 0.9, 0.4, 0.6, 0.3, 0.8, 0.2, 0.7]
        typed = clustered_spread(scores, [1, "1", 2, "2", 3, "3", 1, 2])
        assert typed is not None and typed.clusters == 6
        assert clustered_spread(scores[:3], [1, True, "true"]).clusters == 3  # type: ignore[union-attr]
        # One JSON number: 1 and 1.0 (and within objects) are one cluster.
        same = clustered_spread(scores[:4], [1, 1.0, {"page": 2}, {"page": 2.0}])
        assert same is not None and same.clusters == 2
        # The grouping is the one statsmodels gets with those six labels as codes.
        codes = [0, 1, 2, 3, 4, 5, 0, 2]
        fit = OLS(np.asarray(scores), np.ones(8)).fit(
            cov_type="cluster", cov_kwds={"groups": np.asarray(codes)}, use_t=True
        )
        assert typed.stderr == pytest.approx(float(fit.bse[0]), rel=1e-12)
