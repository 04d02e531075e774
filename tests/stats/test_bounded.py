"""app.stats's intervals inside a score's range, against statsmodels' Wilson and scipy's
bootstrap (the libraries they stand for), and never outside the range."""

import random
from collections.abc import Sequence

import numpy as np
import pytest
from scipy import stats as scipy_stats
from statsmodels.stats.proportion import proportion_confint

from app.stats import (
    MIN_BOOTSTRAP_N,
    BoundedInterval,
    at_bounds,
    bootstrap_mean,
    clustered_spread,
    compare_metric,
    mean_interval,
)
from app.stats._bounded import BCA_MAX_N, PERCENTILE_RESAMPLES, RESAMPLES, SEED


def sums(scores: Sequence[float]) -> tuple[int, float, float]:
    return len(scores), float(sum(scores)), float(sum(x * x for x in scores))


def interval_of(
    scores: Sequence[float], bounds: tuple[float, float] = (0.0, 1.0)
) -> BoundedInterval:
    return mean_interval(*sums(scores), bounds, lambda: scores)


def unread() -> list[float]:
    raise AssertionError("the scores were read")


class TestAtBounds:
    """Whether scores are binary, from their sums alone (a summary's and an online trend's
    bucket's one test: the trend had a copy of it)."""

    @pytest.mark.parametrize(
        ("scores", "bounds", "expected"),
        [
            ([0, 1, 1, 0, 1], (0.0, 1.0), 3),
            ([1, 10, 10], (1.0, 10.0), 2),
            ([0.5, 1, 0], (0.0, 1.0), None),
            # Outside the range: Σ(x − lo)(hi − x) is negative, and 2 and −1 sum like 1 and 0.
            ([2, -1], (0.0, 1.0), None),
            ([0, 1], (0.0, float("inf")), None),
            ([0, 1], (1.0, 1.0), None),
            ([1e6, 1e6 + 1] * 50, (1e6, 1e6 + 1), 50),
        ],
    )
    def test_binary_scores_are_counted(
        self, scores: list[float], bounds: tuple[float, float], expected: int | None
    ) -> None:
        assert at_bounds(*sums(scores), bounds) == expected


class TestWilson:
    def test_binary_scores_get_statsmodels_wilson_scaled_to_the_range(self) -> None:
        for low, high in ((0.0, 1.0), (0.0, 100.0), (-1.0, 1.0)):
            for n in (2, 3, 10, 57, 400):
                for at_high in sorted({0, 1, n // 3, n - 1, n}):
                    scores = [high] * at_high + [low] * (n - at_high)
                    interval = mean_interval(*sums(scores), (low, high), unread)
                    p_low, p_high = proportion_confint(at_high, n, alpha=0.05, method="wilson")
                    expected = (low + (high - low) * p_low, low + (high - low) * p_high)
                    assert interval.method == "wilson" and interval.ci95 is not None
                    assert interval.ci95 == pytest.approx(expected, abs=1e-9)

    def test_the_walk_through_exact_match_stays_in_range(self) -> None:
        # Two exact_match results, 0 and 1: the t interval was [-5.85, 6.85].
        interval = interval_of([0.0, 1.0])
        assert interval.method == "wilson" and interval.ci95 is not None
        assert 0.0 < interval.ci95[0] < 0.5 < interval.ci95[1] < 1.0
        assert interval.ci95 == pytest.approx(proportion_confint(1, 2, method="wilson"))

    def test_one_score_has_no_interval_and_says_why(self) -> None:
        interval = interval_of([1.0])
        assert interval.ci95 is None and interval.method is None
        assert interval.note is not None and "at least 2" in interval.note


class TestBootstrap:
    def test_matches_scipy_bootstrap_bca_with_the_seed(self) -> None:
        generator = random.Random(4)
        for n in (10, 37, 200):
            scores = sorted(generator.betavariate(0.5, 3) for _ in range(n))
            interval = interval_of(scores)
            expected = scipy_stats.bootstrap(
                (np.asarray(scores),),
                np.mean,
                n_resamples=RESAMPLES,
                method="BCa",
                rng=np.random.default_rng(SEED),
            ).confidence_interval
            assert interval.method == "bootstrap_bca"
            assert interval.ci95 == pytest.approx((expected.low, expected.high), rel=1e-12)

    def test_the_walk_through_g_eval_and_faithfulness_say_n_is_too_small(self) -> None:
        # G-Eval 0.315 [-0.707, 1.337] and faithfulness 0.833 [0.619, 1.048] from 2 and 3
        # results: no bootstrap is honest there.
        for scores in ([0.63, 0.0], [1.0, 0.75, 0.75]):
            interval = interval_of(scores)
            assert interval.ci95 is None and interval.method is None
            assert interval.note is not None and f"at least {MIN_BOOTSTRAP_N}" in interval.note
        assert interval_of([0.5, 0.75] * 4 + [0.25]).ci95 is None
        assert interval_of([0.5, 0.75] * 5).ci95 is not None

    def test_always_inside_the_range(self) -> None:
        generator = random.Random(11)
        for trial in range(60):
            low, high = generator.choice([(0.0, 1.0), (0.0, 100.0), (-1.0, 1.0), (2.0, 7.0)])
            n = generator.choice([10, 11, 15, 30, 120])
            # Scores piled against a bound, where a t interval crosses it.
            skew = generator.choice([(0.2, 5.0), (5.0, 0.2), (0.3, 0.3)])
            scores = [low + (high - low) * generator.betavariate(*skew) for _ in range(n)]
            if trial % 3 == 0:
                scores[: n // 2] = [high] * (n // 2)
            interval = interval_of(scores, (low, high))
            assert interval.ci95 is not None, interval
            assert low <= interval.ci95[0] <= interval.ci95[1] <= high

    def test_the_same_scores_in_another_order_give_the_same_interval(self) -> None:
        generator = random.Random(2)
        scores = [generator.random() for _ in range(40)]
        shuffled = scores[::-1]
        assert bootstrap_mean(scores, (0, 1)) == bootstrap_mean(shuffled, (0, 1))

    def test_equal_scores_have_a_zero_width_interval_and_a_note(self) -> None:
        interval = interval_of([0.4] * 12)
        assert interval.ci95 == (0.4, 0.4) and interval.note is not None

    def test_kept_per_key_and_sums_so_a_poll_reads_no_scores(self) -> None:
        scores = [0.1 * (i % 7) for i in range(30)]
        first = mean_interval(*sums(scores), (0, 1), lambda: scores, cache_key=("t", 1))
        again = mean_interval(*sums(scores), (0, 1), unread, cache_key=("t", 1))
        assert again == first
        with pytest.raises(AssertionError, match="read"):
            mean_interval(*sums(scores[:-1]), (0, 1), unread, cache_key=("t", 1))

    def test_waits_for_every_result_past_a_thousand_scores_while_running(self) -> None:
        scores = [0.3, 0.6] * 600
        running = mean_interval(*sums(scores), (0, 1), unread, complete=False)
        assert running.ci95 is None and "once every result is in" in (running.note or "")
        done = mean_interval(*sums(scores), (0, 1), lambda: scores, complete=True)
        assert done.ci95 is not None and done.method == "bootstrap_percentile"

    def test_past_a_thousand_scores_the_percentile_bootstrap_stands_in(self) -> None:
        # BCa's jackknife costs n²; the percentile interval of 1,999 resamples, from scipy.
        generator = random.Random(13)
        scores = sorted(generator.betavariate(2, 5) for _ in range(BCA_MAX_N + 1))
        interval = interval_of(scores)
        expected = scipy_stats.bootstrap(
            (np.asarray(scores),),
            np.mean,
            n_resamples=PERCENTILE_RESAMPLES,
            method="percentile",
            rng=np.random.default_rng(SEED),
        ).confidence_interval
        assert interval.method == "bootstrap_percentile"
        assert interval.ci95 == pytest.approx((expected.low, expected.high), rel=1e-12)
        assert interval_of(scores[:BCA_MAX_N]).method == "bootstrap_bca"


class TestPaired:
    def test_matches_scipy_bootstrap_on_the_differences(self) -> None:
        generator = random.Random(6)
        base = [generator.random() for _ in range(25)]
        cand = [min(1.0, x + generator.uniform(-0.2, 0.4)) for x in base]
        compared = compare_metric(base, cand, None, None, 0.05)
        differences = np.sort(np.asarray(cand) - np.asarray(base))
        expected = scipy_stats.bootstrap(
            (differences,), np.mean, method="BCa", rng=np.random.default_rng(SEED)
        ).confidence_interval
        assert compared.ci_method == "paired_bootstrap_bca"
        assert compared.ci95 == pytest.approx((expected.low, expected.high), rel=1e-12)

    def test_always_within_the_range_width(self) -> None:
        generator = random.Random(8)
        for _ in range(30):
            n = generator.choice([10, 12, 40])
            base = [float(generator.random() < 0.9) for _ in range(n)]
            cand = [float(generator.random() < 0.1) for _ in range(n)]
            compared = compare_metric(base, cand, None, None, 0.05)
            assert compared.ci95 is not None
            assert -1.0 <= compared.ci95[0] <= compared.ci95[1] <= 1.0

    def test_too_few_pairs_give_a_note_instead(self) -> None:
        compared = compare_metric([0.0, 1.0], [1.0, 1.0], None, None, 0.05)
        assert compared.ci95 is None and compared.ci_method is None
        assert any("2 pairs" in note for note in compared.notes)


class TestClustered:
    def test_a_cluster_bootstrap_inside_the_range(self) -> None:
        generator = random.Random(12)
        groups = [i % 15 for i in range(60)]
        scores = [min(1.0, 0.9 + 0.1 * generator.random()) if g < 12 else 0.0 for g in groups]
        spread = clustered_spread(scores, groups)
        assert spread is not None and spread.ci_method == "cluster_bootstrap_bca"
        assert spread.ci95 is not None and 0.0 <= spread.ci95[0] <= spread.ci95[1] <= 1.0
        # Whole clusters resampled: scipy's BCa on (cluster sum, cluster size) pairs.
        sums_ = np.bincount(groups, weights=scores)
        counts = np.bincount(groups).astype(float)
        order = np.lexsort((counts, sums_))
        expected = scipy_stats.bootstrap(
            (sums_[order], counts[order]),
            lambda s, c, axis: s.sum(axis=axis) / c.sum(axis=axis),
            paired=True,
            vectorized=True,
            method="BCa",
            rng=np.random.default_rng(SEED),
        ).confidence_interval
        assert spread.ci95 == pytest.approx((expected.low, expected.high), rel=1e-12)

    def test_kept_per_key_and_scores(self) -> None:
        generator = random.Random(14)
        groups = [i % 12 for i in range(48)]
        scores = [generator.random() for _ in groups]
        made = clustered_spread(scores, groups, cache_key=("t", "clustered"))
        again = clustered_spread(scores, groups, cache_key=("t", "clustered"))
        assert made == again == clustered_spread(scores, groups)
        assert made is not None and made.ci95 is not None

    def test_too_few_clusters_give_a_note(self) -> None:
        spread = clustered_spread([0.1, 0.9, 0.5, 0.7], ["a", "a", "b", "b"])
        assert spread is not None and spread.ci95 is None
        assert "2 clusters" in (spread.interval_note or "")

    def test_a_cluster_bootstrap_holds_the_plain_interval(self) -> None:
        # Clusters that each hold a low and a high score (a negative intra-cluster
        # correlation) resample to a narrower band than the scores do; clustering must not
        # make the mean look surer than the plain interval says.
        generator = random.Random(3)
        groups = [i // 2 for i in range(40)]
        scores = [
            0.1 + 0.2 * generator.random() if i % 2 else 0.7 + 0.2 * generator.random()
            for i in range(40)
        ]
        spread = clustered_spread(scores, groups)
        plain = bootstrap_mean(scores, (0.0, 1.0)).ci95
        assert spread is not None and spread.ci95 is not None and plain is not None
        assert spread.ci_method == "cluster_bootstrap_bca"
        assert spread.ci95[0] <= plain[0] and spread.ci95[1] >= plain[1]
        assert "widened to hold the plain interval" in (spread.interval_note or "")
