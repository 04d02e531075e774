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
from collections.abc import Sequence
from typing import Literal

import numpy as np

from app.stats import _resampled as resampled
from app.stats._agreement import krippendorff_alpha
from app.stats._human_notes import (
    _UNDEFINED,
    _collapsed,
    _disagreements,
    _merge_disagreements,
    _mixed_note,
)
from app.stats._human_types import (  # noqa: F401 - the types are this module's API too
    SCALE_STATISTICS,
    Disagreement,
    HumanAgreement,
    Label,
    LabelKind,
    LabelledItem,
    Statistic,
    _Items,
)
from app.stats._samples import exact_mean

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
            # Exactly, as the judge's score is: a float mean moves an item across a bin's
            # edge and breaks ties in ρ (three labels of 0.6 average 0.6, not 0.59999...).
            people_value[column] = exact_mean(values.tolist(), [1.0] * values.size)
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
