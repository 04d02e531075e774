"""app.stats's paired statistics on vectors with known answers (no service needed)."""

import gc
import math
import random
import statistics

import numpy as np
import pytest
from scipy import integrate, special
from scipy import stats as scipy_stats
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.power import TTestPower

from app.stats import compare_metric, holm_adjust
from app.stats._paired import (
    detectable_effect_size,
    minimum_detectable_effect,
    paired_proportions_interval,
)


class TestHolm:
    def test_textbook_example(self) -> None:
        # Holm (1979) step-down: sorted p × (m, m−1, …), running maximum, capped at 1.
        assert holm_adjust([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
        assert holm_adjust([0.5, 0.9]) == pytest.approx([1.0, 1.0])

    def test_untested_metrics_stay_none(self) -> None:
        assert holm_adjust([0.01, None, 0.04]) == pytest.approx([0.02, None, 0.04])
        assert holm_adjust([None]) == [None]

    def test_matches_statsmodels(self, monkeypatch: pytest.MonkeyPatch) -> None:
        # statsmodels' multipletests runs a full gc.collect() on every call (its Holm branch):
        # about a second each in the whole suite's heap, 200 calls over three minutes. The
        # collection changes no number; it is skipped here.
        monkeypatch.setattr(gc, "collect", lambda *args: 0)
        generator = random.Random(11)
        for _ in range(200):
            p_values = [generator.random() ** 3 for _ in range(generator.randint(1, 12))]
            expected = multipletests(p_values, method="holm")[1]
            assert holm_adjust(p_values) == pytest.approx(list(expected), abs=1e-12)


class TestCompareMetric:
    def test_exact_mcnemar_and_counts(self) -> None:
        # 3 improved, 1 regressed: two-sided binomial p = 2·(1 + 4)/16 = 0.625.
        base = [1, 1, 0, 0, 0, 1, 1]
        cand = [0, 1, 1, 1, 1, 1, 1]
        compared = compare_metric(
            base, cand, [bool(x) for x in base], [bool(x) for x in cand], 0.05
        )
        assert (compared.improved_items, compared.regressed_items) == (3, 1)
        assert compared.mcnemar_p_value == pytest.approx(0.625)
        assert compared.pass_rate_difference == pytest.approx(2 / 7)

    def test_paired_t_on_a_textbook_vector(self) -> None:
        # Differences 1..5: mean 3, s = √2.5, t = 3/(√2.5/√5) = 4.2426 with 4 df.
        compared = compare_metric([0] * 5, [1, 2, 3, 4, 5], None, None, 0.05, (0.0, 5.0))
        # Five pairs are too few for the paired bootstrap interval: null, and a note says so.
        assert compared.ci95 is None and compared.ci_method is None
        assert any("at least 10" in note for note in compared.notes)
        # Two-sided p of t = 4.2426, 4 df (between the table's 0.02 and 0.01 columns).
        assert compared.p_value == pytest.approx(0.01324, abs=1e-4)
        # Exact signed-rank: all 5 differences positive, p = 2/2⁵.
        assert compared.wilcoxon_p_value == pytest.approx(2 / 32)
        assert compared.improved_items is None and compared.mcnemar_p_value is None

    def test_minimum_detectable_effect_near_the_normal_formula(self) -> None:
        # (z₀.₉₇₅ + z₀.₈)·σ_d/√n = 2.8016·σ_d/√n (statistics.md §4.4: σ_d 0.20, n 200 → 0.040);
        # the t-based answer is a little larger at n = 200.
        generator = random.Random(3)
        differences = [generator.gauss(0, 0.2) for _ in range(200)]
        compared = compare_metric([0.5] * 200, [0.5 + d for d in differences], None, None, 0.05)
        s_d = statistics.stdev(differences)
        expected = 2.8016 * s_d / math.sqrt(200)
        assert expected < compared.minimum_detectable_effect < expected * 1.01

    def test_a_constant_shift_lies_inside_its_zero_width_interval(self) -> None:
        """Every pair 0.1 apart: the interval's mean, of the sorted differences, and the
        reported difference, of the unsorted, once differed in the last bit, the difference
        falling outside its own interval."""
        rng = random.Random(1)
        for _ in range(50):
            baseline = [round(rng.random() * 0.8, 2) for _ in range(12)]
            compared = compare_metric(baseline, [x + 0.1 for x in baseline], None, None, 0.05)
            assert compared.ci95 is not None and compared.mean_difference is not None
            low, high = compared.ci95
            assert low <= compared.mean_difference <= high, (compared, baseline)

    def test_below_two_pairs_nothing_is_tested(self) -> None:
        compared = compare_metric([1.0], [0.0], None, None, 0.05)
        assert compared.n == 1 and compared.mean_difference == -1.0
        assert compared.ci95 is None and compared.p_value is None
        assert compared.minimum_detectable_effect is None


def statsmodels_power(effect_size: float, n: int, alpha: float) -> float:
    """statsmodels' two-sided t power at the effect size.

    Where its lower tail is NaN (special.nctdtr far out, e.g. n = 5 at alpha 0.001), that tail
    is below Φ(−δ√n) (T < −c needs Z < −δ√n): its upper tail alone, once that bound is
    negligible.
    """
    power = TTestPower().power(effect_size=effect_size, nobs=n, alpha=alpha)
    if np.isfinite(power):
        return float(power)
    assert scipy_stats.norm.cdf(-effect_size * math.sqrt(n)) < 1e-12
    upper = TTestPower().power(
        effect_size=effect_size, nobs=n, alpha=alpha / 2, alternative="larger"
    )
    return float(upper)


def exact_power_of_two_items(effect_size: float, alpha: float) -> float:
    """The t test's power with n = 2 (df 1) without the noncentral t: T = (Z + δ)/|W| with Z, W
    standard normal, so P(|T| > c) = E_Z[2Φ(|Z + δ|/c) − 1], one smooth integral."""
    critical = scipy_stats.t.isf(alpha / 2, 1)
    shift = effect_size * math.sqrt(2)

    def integrand(z: float) -> float:
        return scipy_stats.norm.pdf(z) * (2 * special.ndtr(abs(z + shift) / critical) - 1)

    kink = [-shift] if shift < 40 else None
    return integrate.quad(integrand, -40, 40, points=kink, limit=400, epsabs=1e-14)[0]


# Sizes where statsmodels' solve_power raised (brentq without a sign change) or answered wrong.
SOLVE_POWER_FAILURES = [73, 87, 92, 109, 117, 120, 500, 876, 883, 909, 1000, 1100, 1200, 1500]
GRID_N = sorted(
    {*range(2, 41), *SOLVE_POWER_FAILURES, *np.geomspace(41, 10000, 40).astype(int).tolist()}
)
GRID_ALPHA = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.3, 0.5]


class TestMinimumDetectableEffect:
    def test_power_at_the_solution_is_80_percent_over_a_grid(self) -> None:
        for alpha in GRID_ALPHA:
            for n in GRID_N:
                size = detectable_effect_size(n, alpha)
                assert size is not None and size > 0, (n, alpha)
                power = statsmodels_power(size, n, alpha)
                assert power == pytest.approx(0.8, abs=1e-6), (n, alpha, size, power)

    def test_known_values_where_statsmodels_was_wrong(self) -> None:
        # solve_power answered 10.0 and 5.5 here; the roots, checked by quadrature in the audit.
        assert detectable_effect_size(2, 0.01) == pytest.approx(57.69246, abs=1e-4)
        assert detectable_effect_size(3, 0.001) == pytest.approx(23.16061, abs=1e-4)
        for alpha in (0.05, 0.01, 1e-3, 1e-4, 1e-5):
            size = detectable_effect_size(2, alpha)
            assert size is not None
            assert exact_power_of_two_items(size, alpha) == pytest.approx(0.8, abs=1e-6)

    def test_ordinary_sizes_compare_without_error(self) -> None:
        # n = 73 at alpha 0.05 raised "f(a) and f(b) must have different signs" (a 500).
        generator = random.Random(73)
        base = [generator.random() for _ in range(73)]
        cand = [x + generator.gauss(0.05, 0.2) for x in base]
        compared = compare_metric(base, cand, None, None, 0.05)
        s_d = statistics.stdev(b - a for a, b in zip(base, cand, strict=True))
        size = compared.minimum_detectable_effect / s_d
        assert statsmodels_power(size, 73, 0.05) == pytest.approx(0.8, abs=1e-6)
        assert compared.notes == ()

    def test_none_with_a_note_when_alpha_is_at_least_the_power(self) -> None:
        # Power at zero effect is alpha itself: from alpha 0.8 on no effect size is needed.
        for alpha in (0.8, 0.9, 0.99):
            detectable, note = minimum_detectable_effect(0.3, 50, alpha)
            assert detectable is None and note is not None and "alpha" in note
            compared = compare_metric([0.0, 1.0, 0.5] * 4, [0.5, 0.5, 1.0] * 4, None, None, alpha)
            assert compared.minimum_detectable_effect is None and len(compared.notes) == 1
            assert compared.p_value is not None
        just_below = detectable_effect_size(50, 0.79)
        assert just_below is not None and 0 < just_below < 0.1

    def test_none_with_a_note_where_the_noncentral_t_is_unreliable(self) -> None:
        # Two items at alpha 1e-7 need a noncentrality near 10⁶, where scipy's noncentral t
        # answers wrong numbers silently: no figure rather than a wrong one.
        assert detectable_effect_size(2, 1e-7) is None
        detectable, note = minimum_detectable_effect(0.3, 2, 1e-7)
        assert detectable is None and note is not None and "too small" in note

    def test_none_with_a_note_when_the_differences_do_not_vary(self) -> None:
        # Two identical evaluations: 0 would claim any change would have been seen.
        same = compare_metric([0.2, 0.9, 0.4] * 4, [0.2, 0.9, 0.4] * 4, None, None, 0.05)
        assert same.minimum_detectable_effect is None
        assert len(same.notes) == 1 and "same" in same.notes[0]
        assert same.p_value == 1.0
        # Every item up by 0.1, up to rounding (0.2 − 0.1 ≠ 0.3 − 0.2 in floating point).
        shifted = compare_metric([0.1, 0.2, 0.3] * 4, [0.2, 0.3, 0.4] * 4, None, None, 0.05)
        assert shifted.minimum_detectable_effect is None and len(shifted.notes) == 1
        # The exact sign-flip p of 12 equal differences (2 / 2¹²), never 0.
        assert shifted.p_value == 2 / 2**12 and shifted.ci95 == (shifted.mean_difference,) * 2
        # Differences of 0 and 5.6e-17 (0.1 + 0.2 − 0.3): no change, not a certain one.
        noise = compare_metric([0.3, 0.6, 0.5], [0.1 + 0.2, 0.6, 0.5], None, None, 0.05)
        assert noise.p_value == 1.0 and noise.minimum_detectable_effect is None
        # A genuine spread keeps its figure.
        varied = compare_metric([0.1, 0.2, 0.3] * 4, [0.2, 0.3, 0.5] * 4, None, None, 0.05)
        assert varied.minimum_detectable_effect is not None and varied.notes == ()


def pairs(both: int, candidate_only: int, baseline_only: int, neither: int) -> tuple[list, list]:
    """Pass/fail scores (1/0) of a baseline and a candidate with these four cells."""
    baseline = [1.0] * both + [0.0] * candidate_only + [1.0] * baseline_only + [0.0] * neither
    candidate = [1.0] * both + [1.0] * candidate_only + [0.0] * baseline_only + [0.0] * neither
    return baseline, candidate


class TestBinaryDifferenceInterval:
    def test_the_textbooks_newcombe_interval(self) -> None:
        # Fagerland, Lydersen and Laake, "Statistical Analysis of Contingency Tables", ch. 8
        # (Cavo et al. 2012: 59 both, 6 and 16 discordant, 80 neither): the Newcombe
        # square-and-add interval -0.0621 (-0.1186 to -0.0046).
        compared = compare_metric(*pairs(59, 6, 16, 80), None, None, 0.05)
        assert compared.mean_difference == pytest.approx(-0.0621, abs=5e-5)
        assert compared.ci_method == "paired_newcombe"
        assert compared.ci95 == pytest.approx((-0.1186, -0.0046), abs=5e-5)

    def test_ten_identical_pairs_are_not_certain(self) -> None:
        # The bootstrap resampled ten zeros: [0, 0].
        compared = compare_metric(*pairs(6, 0, 0, 4), None, None, 0.05)
        low, high = compared.ci95
        assert low < 0 < high and low == pytest.approx(-high)

    def test_scaled_to_the_range_and_only_when_both_sides_are_binary(self) -> None:
        baseline, candidate = pairs(8, 1, 4, 7)
        unit = compare_metric(baseline, candidate, None, None, 0.05).ci95
        wide = compare_metric(
            [2 * x - 1 for x in baseline],
            [2 * x - 1 for x in candidate],
            None,
            None,
            0.05,
            (-1.0, 1.0),
        )
        assert wide.ci95 == pytest.approx((2 * unit[0], 2 * unit[1]))
        # One score between the bounds: the paired bootstrap, as for any other score.
        mixed = compare_metric(baseline, [0.5, *candidate[1:]], None, None, 0.05)
        assert mixed.ci_method == "paired_bootstrap_bca"

    def test_coverage_of_a_small_pass_fail_comparison(self) -> None:
        """A baseline passing 60% of items, a candidate flipping 15% of verdicts either way
        (true difference −0.03): over 300 draws each of 10, 20 and 50 items (fixed seed), the
        interval covers it 98% of the time (Newcombe's errs wide at these sizes). The paired
        bootstrap covered it 74% (55%, 77% and 93% at 10, 20 and 50 items in a larger
        simulation; at 10 a fifth of the draws had no discordant pair and gave [0, 0])."""
        rng = np.random.default_rng(22)
        covered = drawn = 0
        for n in (10, 20, 50):
            for _ in range(300):
                baseline = rng.random(n) < 0.6
                candidate = np.where(rng.random(n) < 0.15, ~baseline, baseline)
                # compare_metric's own interval of these scores (its Wilcoxon p, a permutation
                # test on tied differences, would cost 60 ms a draw here).
                interval = paired_proportions_interval(baseline, candidate, (0.0, 1.0)).ci95
                drawn += 1
                covered += interval[0] <= -0.03 <= interval[1]
        assert covered / drawn >= 0.92
