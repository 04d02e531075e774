"""How far a judge agrees with the people who labelled its results, for one metric version.

Each statistic is the well-kept library's own number (scikit-learn's Cohen's κ and confusion
matrix, the `krippendorff` package, scipy's Spearman ρ) with a 95% percentile bootstrap
interval over items. The libraries cost about a millisecond a call (Krippendorff's far more on
continuous scores), too slow for 2,000 resamples in a request, so the resamples go through the
same formulas over numpy arrays (_resampled), checked equal to the libraries in tests/stats.
"""

import dataclasses
import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from app.stats import _resampled as resampled
from app.stats._agreement import krippendorff_alpha

RESAMPLES = 2000
SEED = 20_261_126
BINS = 5
# Below this many items the resamples take few distinct values and the interval is noise
# (app/stats/_bounded.py uses the same floor).
MIN_INTERVAL_N = 10
# A statistic undefined in more resamples than the interval leaves out in one tail (a class
# missing from them) has no honest interval: the defined resamples are a biased subset.
MAX_UNDEFINED_SHARE = 0.025
INTERVAL_METHOD = "percentile_bootstrap"
# Resamples are made in slices of about this many values, so memory stays flat with n.
_BATCH_VALUES = 2_000_000

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


def _bin(values: np.ndarray, scale: tuple[float, float], bins: int) -> np.ndarray:
    low, high = scale
    return np.clip(np.floor((values - low) / (high - low) * bins), 0, bins - 1).astype(int)


def _counts(items: Sequence[LabelledItem]) -> tuple[int, int]:
    """How many labels are on the scale, and how many pass/fail."""
    flags = [isinstance(v, bool) for item in items for v in item.labels.values()]
    return len(flags) - sum(flags), sum(flags)


def _on_the_scale(items: Sequence[LabelledItem]) -> list[LabelledItem]:
    """The items with a label on the scale, with those labels only."""
    out = []
    for item in items:
        own = {who: v for who, v in item.labels.items() if not isinstance(v, bool)}
        if own:
            out.append(LabelledItem(item.key, item.score, own))
    return out


def _prepare(
    items: Sequence[LabelledItem], threshold: float, scale: tuple[float, float], bins: int
) -> tuple[_Items, tuple[str, ...]]:
    """The items with a score and a label as arrays: labels on the scale when every label is,
    else every label as pass/fail (scores cut at the threshold). `notes` is always empty (kept
    for callers that unpack it)."""
    kept = [item for item in items if item.score is not None and item.labels]
    _, verdicts = _counts(kept)
    kind: Literal["score", "pass_fail"] = "pass_fail" if verdicts else "score"
    notes: tuple[str, ...] = ()
    people = sorted({person for item in kept for person in item.labels})
    row = {person: index + 1 for index, person in enumerate(people)}
    ratings = np.full((len(people) + 1, len(kept)), np.nan)
    score = np.array([float(item.score) for item in kept], dtype=float)  # type: ignore[arg-type]
    judge_pass = score >= threshold
    people_value = np.empty(len(kept))
    people_pass = np.empty(len(kept), dtype=bool)
    for column, item in enumerate(kept):
        if kind == "score":
            values = np.array([float(v) for v in item.labels.values()])
            passes = values >= threshold
            people_value[column] = values.mean()
        else:
            values = np.array(
                [float(v if isinstance(v, bool) else v >= threshold) for v in item.labels.values()]
            )
            passes = values == 1.0
            people_value[column] = passes.mean()
        # The people's verdict is their majority; a tie passes, as a score at the threshold does.
        people_pass[column] = passes.mean() >= 0.5
        for person, value in zip(item.labels, values, strict=True):
            ratings[row[person], column] = value
    ratings[0] = score if kind == "score" else judge_pass.astype(float)
    arrays = _Items(
        keys=[item.key for item in kept],
        score=score,
        judge_pass=judge_pass,
        people=people_value,
        people_pass=people_pass,
        judge_bin=_bin(score, scale, bins),
        people_bin=_bin(people_value, scale, bins),
        ratings=ratings,
        kind=kind,
    )
    return arrays, notes


def _confusion_matrix(data: _Items) -> np.ndarray:
    """scikit-learn's confusion matrix: rows the people's verdict, columns the judge's."""
    from sklearn.metrics import confusion_matrix

    return confusion_matrix(data.people_pass, data.judge_pass, labels=[False, True])


def _library_values(data: _Items, bins: int) -> dict[str, float | None]:
    """Each statistic by the library that names it (NaN where the library finds it undefined)."""
    from scipy.stats import spearmanr
    from sklearn.metrics import cohen_kappa_score

    level = "interval" if data.kind == "score" else "nominal"
    (tn, fp), (fn, tp) = _confusion_matrix(data)
    with warnings.catch_warnings():
        # One class only, or constant input: the libraries warn and return NaN, reported below.
        warnings.simplefilter("ignore")
        kappa = cohen_kappa_score(data.people_pass, data.judge_pass, labels=[False, True])
        weighted = (
            cohen_kappa_score(
                data.people_bin,
                data.judge_bin,
                labels=list(range(bins)),
                weights="quadratic",
            )
            if data.kind == "score"
            else None
        )
        rho = spearmanr(data.score, data.people).statistic
    alpha = krippendorff_alpha(data.ratings, level)
    alpha_people = krippendorff_alpha(data.ratings[1:], level)
    judge = data.score if data.kind == "score" else data.judge_pass.astype(float)
    return {
        "cohen_kappa": float(kappa),
        "weighted_kappa": None if weighted is None else float(weighted),
        "krippendorff_alpha": math.nan if alpha is None else alpha,
        "krippendorff_alpha_people": math.nan if alpha_people is None else alpha_people,
        "spearman": float(rho),
        "tpr": float(tp / (tp + fn)) if tp + fn else math.nan,
        "tnr": float(tn / (tn + fp)) if tn + fp else math.nan,
        "mean_bias": float(np.mean(judge - data.people)),
    }


def _resampled(
    data: _Items,
    idx: np.ndarray,
    bins: int,
    alpha_parts: tuple[resampled.AlphaParts, resampled.AlphaParts] | None = None,
) -> dict[str, np.ndarray]:
    """Every statistic of each resample (rows of item indices), as _library_values defines it.

    `alpha_parts` are resampled.alpha_parts of the judge-and-people and people-only ratings.
    """
    everyone, people = alpha_parts or (
        resampled.alpha_parts(data.ratings),
        resampled.alpha_parts(data.ratings[1:]),
    )
    binary = resampled.confusions(
        data.people_pass[idx].astype(int), data.judge_pass[idx].astype(int), 2
    )
    tn, fp, fn, tp = (binary[:, i, j].astype(float) for i, j in ((0, 0), (0, 1), (1, 0), (1, 1)))
    judge = data.score if data.kind == "score" else data.judge_pass.astype(float)
    grid = np.arange(bins)
    with np.errstate(divide="ignore", invalid="ignore"):
        values = {
            "cohen_kappa": resampled.kappa(binary, 1.0 - np.eye(2)),
            "krippendorff_alpha": resampled.alpha(everyone, idx),
            "krippendorff_alpha_people": resampled.alpha(people, idx),
            "spearman": resampled.spearman(data.score, data.people, idx),
            "tpr": np.where(tp + fn > 0, tp / (tp + fn), np.nan),
            "tnr": np.where(tn + fp > 0, tn / (tn + fp), np.nan),
            "mean_bias": (judge - data.people)[idx].mean(axis=1),
        }
    if data.kind == "score":
        ordinal = resampled.confusions(data.people_bin[idx], data.judge_bin[idx], bins)
        values["weighted_kappa"] = resampled.kappa(ordinal, (grid[:, None] - grid[None, :]) ** 2.0)
    return values


def _bootstrap(
    data: _Items, bins: int, resamples: int, seed: int
) -> dict[str, tuple[np.ndarray, int]]:
    """Each statistic's finite values over `resamples` item resamples drawn from `seed`, and
    how many resamples left it undefined."""
    rng = np.random.default_rng(seed)
    n = len(data.keys)
    per_batch = max(1, _BATCH_VALUES // n)
    parts = (resampled.alpha_parts(data.ratings), resampled.alpha_parts(data.ratings[1:]))
    collected: dict[str, list[np.ndarray]] = {}
    for start in range(0, resamples, per_batch):
        idx = rng.integers(0, n, size=(min(per_batch, resamples - start), n))
        for name, values in _resampled(data, idx, bins, parts).items():
            collected.setdefault(name, []).append(values)
    out = {}
    for name, batches in collected.items():
        values = np.concatenate(batches)
        finite = values[np.isfinite(values)]
        out[name] = (finite, int(values.size - finite.size))
    return out


_UNDEFINED = {
    "cohen_kappa": "one class only: judge and people give the same single verdict to every "
    "item, so κ is undefined (no chance agreement to correct)",
    "weighted_kappa": "one bin only: judge and people put every item in the same score bin, "
    "so weighted κ is undefined",
    "krippendorff_alpha": "no variation: every paired rating is the same, so α is undefined",
    "krippendorff_alpha_people": "no item has two people's labels that could differ (α over "
    "people alone needs items labelled by at least two of them, with some variation)",
    "spearman": "all ties: the judge's scores or the people's values are constant, so ρ is "
    "undefined",
    "tpr": "no item the people pass: the true positive rate is undefined",
    "tnr": "no item the people fail: the true negative rate is undefined",
    "mean_bias": "undefined",
}


def _collapsed(name: str, data: _Items, value: float) -> str:
    """Why every resample gives the same value: one side never varies on the items it reads."""
    judge, people = data.judge_pass, data.people_pass
    if name == "cohen_kappa":
        for who, verdicts in (("judge", judge), ("people", people)):
            if verdicts.all() or not verdicts.any():
                did = "passed" if verdicts.all() else "failed"
                other = "the people say" if who == "judge" else "the judge says"
                return f"the {who} {did} every item: κ is 0 whatever {other}"
    if name in ("tpr", "tnr"):
        side = people if name == "tpr" else ~people
        seen = judge[side]
        verdict = "passed" if name == "tpr" else "failed"
        if seen.size and (seen.all() or not seen.any()):
            did = "passed" if seen.all() else "failed"
            return (
                f"the judge {did} every item the people {verdict} ({seen.size}): no resample "
                "can find one it judged otherwise, so the interval is a point, not certainty"
            )
    if name == "mean_bias" and value == 0:
        return (
            "the judge and the people give every item the same value: no resample can move "
            "the mean, so the interval is a point, not certainty"
        )
    if name == "mean_bias":
        return (
            f"the judge and the people differ by {value:g} on every item: no resample can "
            "move the mean, so the interval is a point, not certainty"
        )
    if name == "cohen_kappa" and (judge == people).all():
        return (
            "the judge and the people give every item the same verdict: no resample can find "
            "a disagreement, so the interval is a point, not certainty"
        )
    return (
        f"every resample gives {value:g} (judge and people stand in the same relation on "
        "every item), so the interval is a point, not certainty"
    )


def _statistic(
    name: str,
    value: float | None,
    data: _Items,
    resampled: dict[str, tuple[np.ndarray, int]] | None,
    resamples: int,
) -> Statistic:
    n, kind = len(data.keys), data.kind
    if name == "weighted_kappa" and kind == "pass_fail":
        return Statistic(None, None, "labels are pass/fail: weighted κ needs labels on the scale")
    if n < 2:
        counted = "item" if n == 1 else "items"
        return Statistic(None, None, f"from {n} {counted}: at least 2 are needed")
    if value is None or not math.isfinite(value):
        return Statistic(None, None, _UNDEFINED[name])
    note = (
        "in pass rate: the judge's pass rate minus the share of people passing"
        if name == "mean_bias" and kind == "pass_fail"
        else None
    )
    if resampled is None:
        return Statistic(
            value, None, f"no interval from {n} items: at least {MIN_INTERVAL_N} are needed"
        )
    finite, undefined = resampled[name]
    if undefined > MAX_UNDEFINED_SHARE * resamples:
        return Statistic(
            value,
            None,
            f"undefined in {undefined} of {resamples} resamples (a class or all variation "
            "missing from them): no honest interval",
        )
    low, high = np.quantile(finite, [0.025, 0.975])
    if high - low <= 1e-12:
        note = "; ".join(part for part in (note, _collapsed(name, data, value)) if part)
    return Statistic(value, (float(low), float(high)), note)


def _disagreements(data: _Items, limit: int) -> tuple[Disagreement, ...]:
    if data.kind == "score":
        gap = np.abs(data.score - data.people)
        differ = (data.judge_pass != data.people_pass) | (data.judge_bin != data.people_bin)
    else:
        gap = np.abs(data.judge_pass.astype(float) - data.people)
        differ = data.judge_pass != data.people_pass
    order = sorted(np.flatnonzero(differ), key=lambda i: (-gap[i], data.keys[i]))[:limit]
    return tuple(
        Disagreement(
            key=data.keys[i],
            score=float(data.score[i]),
            people=float(data.people[i]),
            gap=float(gap[i]),
            judge_passed=bool(data.judge_pass[i]),
            people_passed=bool(data.people_pass[i]),
        )
        for i in order
    )


def _merge_disagreements(
    on_scale: _Items, pass_fail: _Items, scale: tuple[float, float], limit: int
) -> tuple[Disagreement, ...]:
    """The items with score labels (gap on the scale) and those with only pass/fail labels
    (gap in share passing), worst first by gap as a share of the scale's width."""
    width = scale[1] - scale[0]
    found = [(d.gap / width, d) for d in _disagreements(on_scale, limit)]
    found += [(d.gap, d) for d in _disagreements(pass_fail, limit)]
    found.sort(key=lambda pair: (-pair[0], pair[1].key))
    return tuple(d for _, d in found[:limit])


def _mixed_note(name: str, statistic: Statistic, n: int, on_scale: int, scores: int) -> str:
    if name in SCALE_STATISTICS:
        said = (
            f"from the {on_scale} of {n} items with labels on the scale, reading those labels "
            "only (pass/fail labels left out)"
        )
    else:
        said = (
            f"from all {n} items, the {scores} labels on the scale counting as pass/fail at "
            "the threshold"
        )
    return "; ".join(part for part in (said, statistic.note) if part)


def human_agreement(
    items: Sequence[LabelledItem],
    *,
    threshold: float,
    scale: tuple[float, float],
    bins: int = BINS,
    resamples: int = RESAMPLES,
    seed: int = SEED,
    disagreements: int = 50,
) -> HumanAgreement:
    """Agreement of the judge with people over the items that have a judge score and a label.

    With labels of both kinds (`label_kind` "mixed"), the statistics on the scale (weighted κ,
    α at interval level, ρ, mean bias) read the score labels of the items that have one, and
    the pass/fail ones (κ, TPR, TNR, the confusion matrix) every label, scores cut at the
    threshold; each such statistic's note says which items it read.

    Args:
        items: one per result; items without a score or a label are left out of `n`.
        threshold: `passed = score >= threshold`; a label on the scale passes the same way.
        scale: the score's range, cut into `bins` equal ordinal bins for the weighted κ.
        resamples: item resamples of the percentile bootstrap, drawn from `seed`.
        disagreements: how many of the worst disagreements to list.
    """
    if not scale[0] < scale[1]:
        raise ValueError(f"scale {scale} is not a range")
    kept = [item for item in items if item.score is not None and item.labels]
    scores, verdicts = _counts(kept)
    mixed = bool(scores and verdicts)
    data, _ = _prepare(kept, threshold, scale, bins)
    views = {"all": data}
    if mixed:
        views["scale"] = _prepare(_on_the_scale(kept), threshold, scale, bins)[0]
        views["pass_fail"] = _prepare(
            [item for item in kept if all(isinstance(v, bool) for v in item.labels.values())],
            threshold,
            scale,
            bins,
        )[0]
    computed = {}
    for view, arrays in views.items():
        n_view = len(arrays.keys)
        values = _library_values(arrays, bins) if n_view and view != "pass_fail" else {}
        boot = (
            _bootstrap(arrays, bins, resamples, seed)
            if n_view >= MIN_INTERVAL_N and view != "pass_fail"
            else None
        )
        computed[view] = (arrays, values, boot)
    stats = {}
    for name in _UNDEFINED:
        arrays, values, boot = computed["scale" if mixed and name in SCALE_STATISTICS else "all"]
        stats[name] = _statistic(name, values.get(name), arrays, boot, resamples)
    n = len(data.keys)
    notes: tuple[str, ...] = ()
    if mixed:
        on_scale = len(views["scale"].keys)
        stats = {
            name: dataclasses.replace(
                statistic, note=_mixed_note(name, statistic, n, on_scale, scores)
            )
            for name, statistic in stats.items()
        }
        notes = (
            f"labels mix kinds: {scores} on the scale and {verdicts} pass/fail; weighted κ, "
            f"Krippendorff's α (interval level), ρ and mean bias read the score labels of the "
            f"{on_scale} items that have one ({n - on_scale} items with only pass/fail labels "
            "left out of them); κ, TPR, TNR and the confusion matrix read every label, scores "
            "counting as pass/fail at the threshold",
        )
        listed = _merge_disagreements(views["scale"], views["pass_fail"], scale, disagreements)
    else:
        listed = _disagreements(data, disagreements)
    table = _confusion_matrix(data) if n else np.zeros((2, 2), dtype=int)
    return HumanAgreement(
        n=n,
        labels=int(np.sum(~np.isnan(data.ratings[1:]))),
        people=data.ratings.shape[0] - 1,
        label_kind="mixed" if mixed else data.kind,
        threshold=threshold,
        scale=scale,
        confusion_matrix=(
            (int(table[0, 0]), int(table[0, 1])),
            (int(table[1, 0]), int(table[1, 1])),
        ),
        disagreements=listed,
        interval_method=INTERVAL_METHOD,
        resamples=resamples,
        seed=seed,
        notes=notes,
        **stats,
    )
