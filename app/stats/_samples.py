"""One output judged several times (K samples, a panel of judges): the score their aggregate
makes, whether they agree on the verdict, and how far apart they are."""

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from statistics import stdev
from typing import Literal

import numpy as np

Aggregate = Literal["median", "mean", "majority"]


@dataclass(frozen=True)
class Judgment:
    """One judge call's verdict: its score (None when it failed) and the weight of its judge."""

    score: float | None
    weight: float = 1.0


@dataclass(frozen=True)
class Verdict:
    """What a set of judgments makes: the score, whether it passes, and how stable it is."""

    score: float
    passed: bool
    # The scored judgments that pass and that were scored at all.
    passing: int
    scored: int
    # Highest minus lowest score; the sample standard deviation (None below two scores).
    spread: float
    std: float | None

    @property
    def fragile(self) -> bool:
        """True when the judgments straddle the threshold: some pass and some fail."""
        return 0 < self.passing < self.scored

    @property
    def all_passed(self) -> bool:
        """True when every judgment passes (pass^k counts these)."""
        return self.passing == self.scored


def weighted_median(values: Sequence[float], weights: Sequence[float]) -> float:
    """The lower weighted median of `values`: the smallest value whose cumulative weight reaches
    half the total (with equal weights and an even count, the lower of the two middle values).

    Always one of the values, so a score made this way is one judgment's, with its reason.
    """
    order = np.argsort(values, kind="stable")
    ordered = np.asarray(values, dtype=float)[order]
    cumulative = np.cumsum(np.asarray(weights, dtype=float)[order])
    half = cumulative[-1] / 2
    # The tolerance keeps an exact half (two equal weights) on the lower value.
    index = int(np.searchsorted(cumulative, half - 1e-12 * cumulative[-1]))
    return float(ordered[min(index, len(ordered) - 1)])


def exact_mean(values: Sequence[float], weights: Sequence[float]) -> float:
    """The weighted mean of the numbers as written (each float's shortest decimal), rounded
    once: in floats the mean of 0.7 and 0.1 is 0.39999999999999997, which failed a threshold
    of 0.4."""
    if not all(math.isfinite(number) for number in (*values, *weights)):
        # A NaN stays one (the result stores it as its error); no fraction holds it.
        return float(np.average(values, weights=weights))
    exact = [Fraction(repr(value)) for value in values]
    shares = [Fraction(repr(weight)) for weight in weights]
    return float(sum(v * w for v, w in zip(exact, shares, strict=True)) / sum(shares))


def verdict(judgments: Sequence[Judgment], threshold: float, how: Aggregate) -> Verdict | None:
    """The aggregate of the scored judgments (None when none was scored).

    `median` (the lower weighted median: one judgment's score) and `mean` (weighted) give the
    score and pass when it reaches the threshold;
    `majority` passes when more weight passed than failed (a tie fails), its score the median
    of the scores on the winning side, so the score and the verdict agree.
    """
    scored = [j for j in judgments if j.score is not None]
    if not scored:
        return None
    scores = [float(j.score) for j in scored]  # type: ignore[arg-type]
    weights = [j.weight for j in scored]
    passing = [s >= threshold for s in scores]
    if how == "mean":
        score = exact_mean(scores, weights)
        passed = score >= threshold
    elif how == "median":
        score = weighted_median(scores, weights)
        passed = score >= threshold
    else:
        # Weights as written: in floats 0.1 + 0.2 outweighed 0.3, and a tie passed.
        shares = [Fraction(repr(weight)) for weight in weights]
        for_pass = sum(w for w, p in zip(shares, passing, strict=True) if p)
        for_fail = sum(w for w, p in zip(shares, passing, strict=True) if not p)
        passed = for_pass > for_fail
        side = [(s, w) for s, w, p in zip(scores, weights, passing, strict=True) if p == passed]
        score = weighted_median([s for s, _ in side], [w for _, w in side])
    return Verdict(
        score=score,
        passed=passed,
        passing=sum(passing),
        scored=len(scores),
        spread=max(scores) - min(scores),
        std=stdev(scores) if len(scores) > 1 else None,
    )
