"""app.stats's paired statistics on vectors with known answers (no service needed)."""

import math
import random
import statistics

import pytest
from statsmodels.stats.multitest import multipletests

from app.stats import compare_metric, holm_adjust


class TestHolm:
    def test_textbook_example(self) -> None:
        # Holm (1979) step-down: sorted p × (m, m−1, …), running maximum, capped at 1.
        assert holm_adjust([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
        assert holm_adjust([0.5, 0.9]) == pytest.approx([1.0, 1.0])

    def test_untested_metrics_stay_none(self) -> None:
        assert holm_adjust([0.01, None, 0.04]) == pytest.approx([0.02, None, 0.04])
        assert holm_adjust([None]) == [None]

    def test_matches_statsmodels(self) -> None:
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
        compared = compare_metric([0] * 5, [1, 2, 3, 4, 5], None, None, 0.05)
        stderr = math.sqrt(2.5 / 5)
        assert compared.ci95 == pytest.approx((3 - 2.776445 * stderr, 3 + 2.776445 * stderr))
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

    def test_below_two_pairs_nothing_is_tested(self) -> None:
        compared = compare_metric([1.0], [0.0], None, None, 0.05)
        assert compared.n == 1 and compared.mean_difference == -1.0
        assert compared.ci95 is None and compared.p_value is None
        assert compared.minimum_detectable_effect is None
