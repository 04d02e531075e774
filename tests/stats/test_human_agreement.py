"""A judge against the people who labelled its results: each statistic is the library's own
(scikit-learn, krippendorff, scipy, ppi_py) computed here independently, with its edge cases."""

import dataclasses
import json

import krippendorff
import numpy as np
import ppi_py
import pytest
from scipy.stats import spearmanr
from sklearn.metrics import cohen_kappa_score, confusion_matrix

from app.stats import LabelledItem, calibrated_mean, human_agreement
from app.stats._human import _library_values, _prepare, _resampled

RESAMPLES = 300
NAMES = (
    "cohen_kappa",
    "weighted_kappa",
    "krippendorff_alpha",
    "krippendorff_alpha_people",
    "spearman",
    "tpr",
    "tnr",
    "mean_bias",
)


def planted(n: int = 60, seed: int = 7) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Judge scores in [0, 1]; ann labels every item, bob about half of them (NaN: none)."""
    rng = np.random.default_rng(seed)
    judge = np.round(rng.uniform(0, 1, n), 2)
    ann = np.round(np.clip(judge + rng.normal(0.05, 0.2, n), 0, 1), 1)
    bob = np.round(np.clip(judge + rng.normal(0, 0.25, n), 0, 1), 1)
    bob[rng.random(n) < 0.5] = np.nan
    return judge, ann, bob


def as_items(judge: np.ndarray, *people: tuple[str, np.ndarray]) -> list[LabelledItem]:
    return [
        LabelledItem(
            f"r{i:03d}",
            float(judge[i]),
            {name: _plain(row[i]) for name, row in people if not _missing(row[i])},
        )
        for i in range(len(judge))
    ]


def _plain(value: object) -> float | bool:
    """A Python bool or float, as labels arrive from JSON."""
    return value if isinstance(value, bool) else value.item()  # type: ignore[attr-defined]


def _missing(value: object) -> bool:
    return value is None or (isinstance(value, float) and np.isnan(value))


def agree(items: list[LabelledItem], **options: object):  # type: ignore[no-untyped-def]
    return human_agreement(items, threshold=0.5, scale=(0.0, 1.0), resamples=RESAMPLES, **options)  # type: ignore[arg-type]


class TestScores:
    def test_each_statistic_is_the_library_call(self) -> None:
        judge, ann, bob = planted()
        made = agree(as_items(judge, ("ann", ann), ("bob", bob)))
        # The labels' mean as written (0.1 and 0.2 average 0.15, tied with 0.0 and 0.3's).
        people = np.round(np.nanmean(np.vstack([ann, bob]), axis=0), 12)
        passes = np.vstack([ann >= 0.5, bob >= 0.5]).astype(float)
        passes[np.isnan(bob)[None, :] & (np.arange(2) == 1)[:, None]] = np.nan
        people_pass = np.nanmean(passes, axis=0) >= 0.5
        judge_pass = judge >= 0.5

        def bins(x: np.ndarray) -> np.ndarray:
            return np.minimum((x * 5).astype(int), 4)

        table = confusion_matrix(people_pass, judge_pass, labels=[False, True])
        expected = {
            "cohen_kappa": cohen_kappa_score(people_pass, judge_pass),
            "weighted_kappa": cohen_kappa_score(
                bins(people), bins(judge), labels=range(5), weights="quadratic"
            ),
            "krippendorff_alpha": krippendorff.alpha(
                reliability_data=np.vstack([judge, ann, bob]), level_of_measurement="interval"
            ),
            "krippendorff_alpha_people": krippendorff.alpha(
                reliability_data=np.vstack([ann, bob]), level_of_measurement="interval"
            ),
            "spearman": spearmanr(judge, people).statistic,
            "tpr": table[1, 1] / table[1].sum(),
            "tnr": table[0, 0] / table[0].sum(),
            "mean_bias": np.mean(judge - people),
        }
        assert made.n == 60 and made.people == 2 and made.label_kind == "score"
        assert made.labels == 60 + int(np.sum(~np.isnan(bob)))
        assert made.confusion_matrix == tuple(tuple(int(c) for c in row) for row in table)
        for name, value in expected.items():
            statistic = getattr(made, name)
            assert statistic.value == pytest.approx(value, abs=1e-12), name
            low, high = statistic.ci95
            assert low <= statistic.value <= high, name
        assert made.interval_method == "percentile_bootstrap" and made.resamples == RESAMPLES

    def test_resampled_statistics_are_the_library_calls_on_the_resample(self) -> None:
        # The interval must be of the same statistic: each resample's value, computed in bulk,
        # equals the libraries on that resample's items (duplicates and all).
        judge, ann, bob = planted(n=40, seed=3)
        data, _ = _prepare(as_items(judge, ("ann", ann), ("bob", bob)), 0.5, (0.0, 1.0), 5)
        idx = np.random.default_rng(11).integers(0, 40, size=(4, 40))
        idx[0] = np.arange(40)
        bulk = _resampled(data, idx, 5)
        for row, chosen in enumerate(idx):
            one = dataclasses.replace(
                data,
                keys=[data.keys[i] for i in chosen],
                **{
                    field: getattr(data, field)[chosen]
                    for field in (
                        "score",
                        "judge_pass",
                        "people",
                        "people_pass",
                        "judge_bin",
                        "people_bin",
                    )
                },
                ratings=data.ratings[:, chosen],
            )
            library = _library_values(one, 5)
            for name in NAMES:
                assert bulk[name][row] == pytest.approx(library[name], abs=1e-9), (row, name)

    def test_seeded_interval_is_reproducible_and_moves_with_the_seed(self) -> None:
        judge, ann, bob = planted()
        items = as_items(judge, ("ann", ann), ("bob", bob))
        first, again, other = agree(items, seed=1), agree(items, seed=1), agree(items, seed=2)
        assert first == again
        assert first.cohen_kappa.ci95 != other.cohen_kappa.ci95
        assert first.cohen_kappa.value == other.cohen_kappa.value

    def test_disagreements_worst_first(self) -> None:
        judge = np.array([0.9, 0.2, 0.6, 0.1])
        ann = np.array([0.1, 0.45, 0.3, 0.12])
        made = agree(as_items(judge, ("ann", ann)))
        # r003 agrees (same bin, same verdict); r001 shares r000's verdicts but not its bin.
        assert [d.key for d in made.disagreements] == ["r000", "r002", "r001"]
        worst = made.disagreements[0]
        assert worst.gap == pytest.approx(0.8) and worst.judge_passed and not worst.people_passed


class TestEdges:
    def test_one_class_only_leaves_kappa_undefined_with_a_note(self) -> None:
        judge = np.linspace(0.6, 1.0, 12)
        ann = np.linspace(0.5, 0.9, 12)
        made = agree(as_items(judge, ("ann", ann)))
        assert made.cohen_kappa.value is None and "one class only" in made.cohen_kappa.note
        assert made.tnr.value is None and made.tpr.value == 1.0
        assert made.confusion_matrix == ((0, 0), (0, 12))
        # No NaN anywhere: the result goes out as JSON.
        json.dumps(dataclasses.asdict(made), allow_nan=False)

    def test_all_ties_leave_spearman_undefined(self) -> None:
        judge = np.full(12, 0.7)
        ann = np.linspace(0, 1, 12)
        made = agree(as_items(judge, ("ann", ann)))
        assert made.spearman.value is None and "all ties" in made.spearman.note
        assert made.cohen_kappa.value == pytest.approx(cohen_kappa_score(ann >= 0.5, judge >= 0.5))

    def test_items_without_a_score_or_a_label_are_not_counted(self) -> None:
        judge, ann, _ = planted(n=20)
        items = as_items(judge, ("ann", ann))
        items[0] = LabelledItem("r000", None, {"ann": 0.5})
        items[1] = LabelledItem("r001", 0.4, {})
        made = agree(items)
        assert made.n == 18
        kept = np.arange(2, 20)
        assert made.krippendorff_alpha.value == pytest.approx(
            krippendorff.alpha(reliability_data=np.vstack([judge[kept], ann[kept]]))
        )

    def test_pass_fail_labels_are_nominal(self) -> None:
        judge, ann, bob = planted(n=30, seed=5)
        ann_pass = ann >= 0.5
        bob_pass = np.where(np.isnan(bob), np.nan, bob >= 0.5)
        items = as_items(
            judge,
            ("ann", ann_pass.astype(bool)),
            ("bob", np.array([None if np.isnan(b) else bool(b) for b in bob_pass], dtype=object)),
        )
        made = agree(items)
        judge_pass = (judge >= 0.5).astype(float)
        share = np.nanmean(np.vstack([ann_pass, bob_pass]), axis=0)
        assert made.label_kind == "pass_fail"
        assert made.krippendorff_alpha.value == pytest.approx(
            krippendorff.alpha(
                reliability_data=np.vstack([judge_pass, ann_pass, bob_pass]),
                level_of_measurement="nominal",
            )
        )
        assert made.cohen_kappa.value == pytest.approx(
            cohen_kappa_score(share >= 0.5, judge_pass == 1)
        )
        assert made.weighted_kappa.value is None and "pass/fail" in made.weighted_kappa.note
        assert made.mean_bias.value == pytest.approx(np.mean(judge_pass - share))
        assert "pass rate" in made.mean_bias.note

    def test_one_item_and_few_items(self) -> None:
        one = agree([LabelledItem("a", 0.8, {"ann": 0.9})])
        assert one.n == 1
        for name in NAMES:
            statistic = getattr(one, name)
            assert statistic.value is None and "at least 2" in statistic.note, name
        few = agree(as_items(*planted(n=6)[:1], ("ann", planted(n=6)[1])))
        assert few.mean_bias.value is not None and few.mean_bias.ci95 is None
        assert "at least 10" in few.mean_bias.note
        empty = agree([])
        assert empty.n == 0 and empty.confusion_matrix == ((0, 0), (0, 0))

    def test_a_second_reviewer_sets_the_people_alone_alpha(self) -> None:
        judge, ann, bob = planted(n=30, seed=9)
        alone = agree(as_items(judge, ("ann", ann)))
        assert alone.krippendorff_alpha_people.value is None
        assert "two people" in alone.krippendorff_alpha_people.note
        both = agree(as_items(judge, ("ann", ann), ("bob", bob)))
        assert both.krippendorff_alpha_people.value == pytest.approx(
            krippendorff.alpha(reliability_data=np.vstack([ann, bob]))
        )
        # A reviewer who disagrees more with ann lowers the ceiling.
        contrary = np.where(np.isnan(bob), np.nan, 1 - ann)
        worse = agree(as_items(judge, ("ann", ann), ("bob", contrary)))
        assert worse.krippendorff_alpha_people.value < both.krippendorff_alpha_people.value


class TestCalibratedMean:
    def test_is_ppi_py_with_a_95_percent_interval(self) -> None:
        rng = np.random.default_rng(4)
        truth = rng.uniform(0, 1, 400)
        judge = np.clip(truth + 0.1 + rng.normal(0, 0.1, 400), 0, 1)
        labelled = np.arange(40)
        people, labelled_judge, others = truth[labelled], judge[labelled], judge[40:]
        made = calibrated_mean(labelled_judge, people, others, scale=(0.0, 1.0))
        low, high = ppi_py.ppi_mean_ci(people, labelled_judge, others, alpha=0.05)
        assert made.mean == pytest.approx(
            ppi_py.ppi_mean_pointestimate(people, labelled_judge, others)[0]
        )
        assert made.ci95 == pytest.approx((low[0], high[0]))
        assert made.n_labels == 40 and made.n_unlabelled == 360 and made.method == "ppi++"
        assert made.ci95[0] <= made.mean <= made.ci95[1]

    def test_bounds_stay_inside_the_scale(self) -> None:
        judge, people = [0.9, 0.95, 0.2, 0.9] * 3, [1.0, 1.0, 0.0, 1.0] * 3
        made = calibrated_mean(judge, people, [0.99] * 5, scale=(0.0, 1.0))
        raw = ppi_py.ppi_mean_ci(
            np.array(people), np.array(judge), np.array([0.99] * 5), alpha=0.05
        )
        assert raw[1][0] > 1.0 and made.ci95[1] == 1.0 and made.ci95[0] == pytest.approx(raw[0][0])

    def test_too_few_labels(self) -> None:
        made = calibrated_mean([0.4], [0.5], [0.3, 0.6], scale=(0.0, 1.0))
        assert made.mean is None and made.ci95 is None and "at least 2" in made.note

    def test_pass_fail_labels_estimate_the_pass_rate(self) -> None:
        judge, people, others = [0.8, 0.3, 0.6, 0.9], [True, False, False, True], [0.7, 0.2, 0.9]
        made = calibrated_mean(judge, people, others, scale=(0.0, 1.0), threshold=0.5)
        expected = ppi_py.ppi_mean_pointestimate(
            np.array([1.0, 0.0, 0.0, 1.0]),
            np.array([1.0, 0.0, 1.0, 1.0]),
            np.array([1.0, 0.0, 1.0]),
        )[0]
        assert made.estimand == "pass_rate" and made.mean == pytest.approx(expected)

    def test_every_result_labelled_is_the_people_mean(self) -> None:
        made = calibrated_mean([0.2, 0.6, 0.9], [0.3, 0.5, 0.8], [], scale=(0.0, 1.0))
        assert made.method == "classical" and made.mean == pytest.approx(np.mean([0.3, 0.5, 0.8]))

    def test_a_constant_judge_falls_back_to_plain_ppi(self) -> None:
        made = calibrated_mean([0.8, 0.8, 0.8], [1.0, 1.0, 1.0], [0.8, 0.8], scale=(0.0, 1.0))
        assert made.method == "ppi" and made.mean == pytest.approx(1.0)
        json.dumps(dataclasses.asdict(made), allow_nan=False)


class TestMixedLabels:
    def test_scale_statistics_read_score_labels_and_verdicts_read_every_label(self) -> None:
        # ann and dan label on the scale (dan about half), items 0-47 only; bob passes or fails
        # a random half of all 60, the only labels of some of items 48-59.
        judge, ann, dan = planted(n=60, seed=21)
        rng = np.random.default_rng(5)
        bob = np.array(
            [
                bool(x) if r < 0.5 else None
                for x, r in zip(rng.random(60) < 0.5, rng.random(60), strict=True)
            ],
            dtype=object,
        )
        ann[48:] = np.nan
        dan[48:] = np.nan
        made = agree(as_items(judge, ("ann", ann), ("bob", bob), ("dan", dan)))
        labelled = [i for i in range(60) if i < 48 or bob[i] is not None]
        assert made.label_kind == "mixed" and made.n == len(labelled)
        scores = 48 + int(np.sum(~np.isnan(dan)))
        verdicts = sum(b is not None for b in bob)
        assert f"{scores} on the scale and {verdicts} pass/fail" in made.notes[0]
        s = np.arange(48)
        people = np.round(np.nanmean(np.vstack([ann[s], dan[s]]), axis=0), 12)

        def bins(x: np.ndarray) -> np.ndarray:
            return np.minimum((x * 5).astype(int), 4)

        on_scale = {
            "weighted_kappa": cohen_kappa_score(
                bins(people), bins(judge[s]), labels=range(5), weights="quadratic"
            ),
            "krippendorff_alpha": krippendorff.alpha(
                reliability_data=np.vstack([judge[s], ann[s], dan[s]]),
                level_of_measurement="interval",
            ),
            "krippendorff_alpha_people": krippendorff.alpha(
                reliability_data=np.vstack([ann[s], dan[s]]), level_of_measurement="interval"
            ),
            "spearman": spearmanr(judge[s], people).statistic,
            "mean_bias": np.mean(judge[s] - people),
        }
        for name, value in on_scale.items():
            statistic = getattr(made, name)
            assert statistic.value == pytest.approx(value, abs=1e-12), name
            assert statistic.ci95 is not None and "from the 48 of" in statistic.note, name
        # Pass/fail: every label of every labelled item, scores cut at 0.5; a tie passes.
        rows = [
            [v >= 0.5 for v in (ann[i], dan[i]) if not np.isnan(v)]
            + ([bob[i]] if bob[i] is not None else [])
            for i in labelled
        ]
        people_pass = np.array([np.mean(row) >= 0.5 for row in rows])
        judge_pass = judge[labelled] >= 0.5
        table = confusion_matrix(people_pass, judge_pass, labels=[False, True])
        assert made.confusion_matrix == tuple(tuple(int(c) for c in row) for row in table)
        assert made.cohen_kappa.value == pytest.approx(cohen_kappa_score(people_pass, judge_pass))
        assert made.tpr.value == pytest.approx(table[1, 1] / table[1].sum())
        assert made.tnr.value == pytest.approx(table[0, 0] / table[0].sum())
        assert "from all" in made.cohen_kappa.note
        json.dumps(dataclasses.asdict(made), allow_nan=False)


class TestCollapsedIntervals:
    def test_a_judge_passing_everything_says_why_kappa_is_zero(self) -> None:
        judge = np.linspace(0.6, 1.0, 12)
        ann = np.array([0.9, 0.2, 0.8, 0.3, 0.7, 0.1, 0.9, 0.4, 0.6, 0.8, 0.2, 0.7])
        made = agree(as_items(judge, ("ann", ann)))
        assert made.cohen_kappa.value == cohen_kappa_score(ann >= 0.5, judge >= 0.5) == 0.0
        assert made.cohen_kappa.ci95 == (0.0, 0.0)
        assert "the judge passed every item: κ is 0 whatever the people say" in (
            made.cohen_kappa.note
        )
        assert made.tpr.value == 1.0 and made.tpr.ci95 == (1.0, 1.0)
        assert "the judge passed every item the people passed" in made.tpr.note
        # Where the interval varies, no such note.
        assert made.spearman.ci95[0] < made.spearman.ci95[1] and made.spearman.note is None

    def test_people_agreeing_on_every_value_say_why_the_bias_is_zero(self) -> None:
        judge = np.linspace(0.05, 0.95, 12)
        made = agree(as_items(judge, ("ann", judge.copy())))
        assert made.mean_bias.value == 0.0 and made.mean_bias.ci95 == (0.0, 0.0)
        assert "give every item the same value" in made.mean_bias.note
        assert "not certainty" in made.tpr.note and "not certainty" in made.tnr.note
        assert "the same verdict" in made.cohen_kappa.note
        assert "every resample gives 1" in made.spearman.note
