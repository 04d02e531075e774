"""The calibrated (PPI++) mean's interval: ppi_py's own where it is a 95% interval, inside the
scale, never inverted, and null with a note where the normal approximation cannot stand for one
(too few labels, labels that do not vary, an interval wholly off the scale); checked against
ppi_py and by simulated coverage."""

import numpy as np
import ppi_py
import pytest

from app.stats import calibrated_mean
from app.stats._calibrated import MIN_INTERVAL_LABELS


def ppi_interval(people: np.ndarray, judge: np.ndarray, others: np.ndarray) -> tuple[float, float]:
    low, high = ppi_py.ppi_mean_ci(people, judge, others, alpha=0.05)
    return float(low[0]), float(high[0])


class TestInterval:
    def test_an_interval_wholly_above_the_scale_is_not_inverted(self) -> None:
        # The judge scored the labelled results far lower than the others (~0.27 against
        # ~0.62) while people gave them ~0.7: PPI's estimate is 1.04 and its interval
        # [1.038, 1.049] lies above the scale. Clipped end by end it was [1.038, 1.0].
        judge = np.array([0.16, 0.05, 0.55, 0.32, 0.37, 0.33, 0.27, 0.07, 0.18, 0.42])
        people = np.array([0.6, 0.48, 0.99, 0.76, 0.81, 0.76, 0.7, 0.5, 0.61, 0.85])
        others = np.array([0.6, 0.61, 0.62, 0.63, 0.64, 0.59] * 9)
        low, high = ppi_interval(people, judge, others)
        assert 1.0 < low < high
        made = calibrated_mean(judge, people, others, scale=(0.0, 1.0))
        assert made.mean == 1.0 and made.ci95 is None
        assert "clipped" in made.note and "wholly outside the scale" in made.note

    def test_labels_that_do_not_vary_give_no_zero_width_interval(self) -> None:
        # 30 random labels, all passes, on results the judge passed; the judge fails 30 of the
        # 300 others. λ is tuned to 0 (the labels do not co-vary with anything) and ppi_py's
        # interval is [1, 1]: certainty from 30 labels, while a tenth of the results fail.
        judge, people = np.ones(30), np.ones(30)
        others = np.tile([0.0] + [1.0] * 9, 30)
        assert ppi_interval(people, judge, others) == (1.0, 1.0)
        made = calibrated_mean(judge, people, others, scale=(0.0, 1.0))
        assert made.mean == pytest.approx(1.0) and made.ci95 is None
        assert "no width" in made.note

    def test_no_interval_below_ten_labels(self) -> None:
        rng = np.random.default_rng(3)
        judge = rng.uniform(0, 1, 9)
        people = np.clip(judge + rng.normal(0, 0.2, 9), 0, 1)
        others = rng.uniform(0, 1, 100)
        made = calibrated_mean(judge, people, others, scale=(0.0, 1.0))
        assert made.mean == pytest.approx(ppi_py.ppi_mean_pointestimate(people, judge, others)[0])
        assert made.ci95 is None and "at least 10" in made.note
        # From ten on, ppi_py's interval as it stands.
        more = calibrated_mean(
            np.append(judge, 0.5), np.append(people, 0.6), others, scale=(0.0, 1.0)
        )
        assert more.ci95 == pytest.approx(
            ppi_interval(np.append(people, 0.6), np.append(judge, 0.5), others)
        )

    def test_every_interval_holds_its_estimate_inside_the_scale(self) -> None:
        rng = np.random.default_rng(11)
        for trial in range(400):
            n = int(rng.integers(MIN_INTERVAL_LABELS, 40))
            shift = rng.uniform(0, 0.6)
            judge = rng.uniform(0, 1 - shift, n)
            people = np.clip(judge + shift + rng.normal(0, rng.uniform(0, 0.05), n), 0, 1)
            size = int(rng.integers(1, 200))
            others = np.clip(rng.uniform(0, 1) + rng.uniform(0, 0.1, size), 0, 1)
            made = calibrated_mean(judge, people, others, scale=(0.0, 1.0))
            if made.ci95 is not None:
                low, high = made.ci95
                assert 0.0 <= low <= made.mean <= high <= 1.0, (trial, made)


class TestCoverage:
    def test_the_intervals_given_cover_about_95_percent(self) -> None:
        """A judge scoring people's values with noise and a lean, 300 other results: of the
        intervals given from 2, 5 and 30 labels (400 draws each, a fixed seed), ~94% cover the
        people's mean. ppi_py's interval covered 47% from 2 labels and 79% from 5: none is
        given there now."""
        rng = np.random.default_rng(10)
        covered = given = 0
        for labels in (2, 5, 30):
            for _ in range(400):
                truth = rng.beta(2, 2, 300 + labels)
                judge = np.clip(truth + rng.normal(0.1, 0.15, truth.size), 0, 1)
                made = calibrated_mean(
                    judge[:labels], truth[:labels], judge[labels:], scale=(0.0, 1.0)
                )
                if made.ci95 is not None:
                    given += 1
                    covered += made.ci95[0] <= 0.5 <= made.ci95[1]
        assert given == 400 and covered / given >= 0.92
