"""The shapes of a judge's agreement with people (app/stats/_human.py computes them): an item
with its labels, a statistic with its interval, a disagreement, the whole report."""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

import numpy as np

Label = float | bool
LabelKind = Literal["score", "pass_fail", "mixed"]
# With mixed labels these read the score labels only (items with only pass/fail labels left
# out), and the others every label (scores cut at the threshold).
SCALE_STATISTICS = frozenset(
    {"weighted_kappa", "krippendorff_alpha", "krippendorff_alpha_people", "spearman", "mean_bias"}
)


@dataclass(frozen=True)
class LabelledItem:
    """One result: the judge's score (None: it gave none) and each person's label of it.

    `labels` maps who labelled (a person or a key's name) to the value: on the metric's scale,
    or True/False for pass/fail.
    """

    key: str
    score: float | None
    labels: Mapping[str, Label]


@dataclass(frozen=True)
class Statistic:
    """A value with its 95% interval; None with a note saying why when it is undefined."""

    value: float | None
    ci95: tuple[float, float] | None
    note: str | None = None


@dataclass(frozen=True)
class Disagreement:
    """An item where judge and people differ: `people` is the mean label (pass/fail labels: the
    share of people passing it) and `gap` how far apart they are, on the scale (or in share)."""

    key: str
    score: float
    people: float
    gap: float
    judge_passed: bool
    people_passed: bool


@dataclass(frozen=True)
class HumanAgreement:
    """Agreement of the judge with people over `n` items with a judge score and a label.

    `confusion_matrix` rows are the people's verdict, columns the judge's, each [fail, pass]
    (scikit-learn's layout). `disagreements` are worst first.
    """

    n: int
    labels: int
    people: int
    label_kind: LabelKind
    threshold: float
    scale: tuple[float, float]
    cohen_kappa: Statistic
    weighted_kappa: Statistic
    krippendorff_alpha: Statistic
    krippendorff_alpha_people: Statistic
    spearman: Statistic
    tpr: Statistic
    tnr: Statistic
    mean_bias: Statistic
    confusion_matrix: tuple[tuple[int, int], tuple[int, int]]
    disagreements: tuple[Disagreement, ...]
    interval_method: str
    resamples: int
    seed: int
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Items:
    """The n items as arrays: judge score and verdict, people's value and verdict, bins, and
    the raters × items matrices Krippendorff's alpha reads (judge first, then each person)."""

    keys: list[str]
    score: np.ndarray
    judge_pass: np.ndarray
    people: np.ndarray
    people_pass: np.ndarray
    judge_bin: np.ndarray
    people_bin: np.ndarray
    ratings: np.ndarray
    kind: Literal["score", "pass_fail"]
