"""Agreement of a metric version's judge with people, and the calibrated mean, from its labels.

Reads the labels (`app.labels.service.of_version`) and hands plain numbers to `app.stats`. One
item is one `item_key` (the same content in any evaluation); its judge side is the labels'
snapshot of the judge's score (their mean, should a re-run have scored it differently). The
bootstrap costs about 0.2 s per 300 items, so a report is kept per process under what changes
it: the version, how many labels it has, and when the newest was given or changed.
"""

import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from app.labels import service as labels
from app.metric_versions.repository import MetricVersionRepository
from app.metric_versions.schemas import (
    AgreementBrief,
    AgreementDisagreement,
    AgreementStatistic,
    AgreementStatisticBrief,
    CalibratedMean,
    ConfusionMatrix,
    MetricVersionAgreement,
    PersonLabel,
)
from app.models import Label, MetricVersion
from app.stats import LabelledItem, calibrated_mean, exact_mean, human_agreement
from app.stats import Statistic as StatisticValue

STATISTICS = (
    "cohen_kappa",
    "weighted_kappa",
    "krippendorff_alpha",
    "krippendorff_alpha_people",
    "spearman",
    "tpr",
    "tnr",
    "mean_bias",
)
# Only these labels stand for a random sample of results, which the calibrated mean assumes.
RANDOM_SELECTIONS = frozenset({"direct", "random"})
_CACHE_SIZE = 256

Stamp = tuple[int, datetime]


class _Reports:
    """A small per-process LRU of finished reports (thread-safe: the API's threads share it)."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._rows: OrderedDict[Any, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Any) -> Any:
        with self._lock:
            if key in self._rows:
                self._rows.move_to_end(key)
                return self._rows[key]
        return None

    def put(self, key: Any, value: Any) -> None:
        with self._lock:
            self._rows[key] = value
            self._rows.move_to_end(key)
            while len(self._rows) > self._size:
                self._rows.popitem(last=False)


_reports = _Reports(_CACHE_SIZE)
_calibrated = _Reports(_CACHE_SIZE)


def scale_of(version: MetricVersion) -> tuple[float, float]:
    """The version's score range, from its definition (its type and options)."""
    definition = version.definition or {}
    spec = {"type": version.type, "name": version.name, **(definition.get("options") or {})}
    return labels.score_bounds(spec)


def stamps(session: Session, tenant_id: str, version_ids: Iterable[str]) -> dict[str, Stamp]:
    """(label count, newest change) per version that has labels, in one query."""
    return MetricVersionRepository(session, tenant_id).label_stamps(version_ids)


def _threshold(
    given: Sequence[Label], override: float | None, scale: tuple[float, float]
) -> tuple[float, str, list[float], list[str]]:
    seen = Counter(label.threshold for label in given if label.threshold is not None)
    thresholds = sorted(seen)
    if override is not None:
        return override, "query", thresholds, []
    if not seen:
        middle = (scale[0] + scale[1]) / 2
        return middle, "scale", [], [f"the labelled results had no threshold: {middle:g} used"]
    # The most common; among equals the newest label's, what the metric is judged by now.
    newest = {label.threshold: index for index, label in enumerate(given)}
    chosen = max(seen, key=lambda value: (seen[value], newest[value]))
    notes = []
    if len(seen) > 1:
        listed = ", ".join(f"{value:g} ({seen[value]})" for value in thresholds)
        notes.append(
            f"the labelled results had different thresholds ({listed}): the most common, "
            f"{chosen:g}, is used; ?threshold= chooses another"
        )
    return chosen, "labels", thresholds, notes


def _label_value(label: Label) -> float | bool | None:
    if label.value is not None:
        return float(label.value)
    return label.passed


def items_of(given: Sequence[Label]) -> tuple[list[LabelledItem], dict[str, list[Label]]]:
    """One LabelledItem per item key (judge score: the exact mean of the labels' snapshots of
    it, three of 0.7 being 0.7, not 0.6999...98), and each item's labels oldest first."""
    by_item: dict[str, list[Label]] = {}
    for label in given:
        by_item.setdefault(label.item_key, []).append(label)
    items = []
    for key, own in by_item.items():
        scores = [label.judge_score for label in own if label.judge_score is not None]
        values = {label.actor: _label_value(label) for label in own}
        items.append(
            LabelledItem(
                key=key,
                score=exact_mean(scores, [1.0] * len(scores)) if scores else None,
                labels={actor: value for actor, value in values.items() if value is not None},
            )
        )
    return items, by_item


def _statistic(value: StatisticValue) -> AgreementStatistic:
    return AgreementStatistic(
        value=value.value, ci95=list(value.ci95) if value.ci95 else None, note=value.note
    )


def _disagreement(found: Any, own: list[Label]) -> AgreementDisagreement:
    newest = max(own, key=lambda label: (label.updated_at, label.id))
    return AgreementDisagreement(
        item_key=found.key,
        score=found.score,
        people=found.people,
        gap=found.gap,
        judge_passed=found.judge_passed,
        people_passed=found.people_passed,
        result_id=newest.result_id,
        evaluation_id=newest.evaluation_id,
        test_case_id=newest.test_case_id,
        labels=[
            PersonLabel(
                actor=label.actor,
                actor_name=label.actor_name,
                value=label.value,
                passed=label.passed,
                rationale=label.rationale,
                selection=label.selection,
            )
            for label in own
        ],
    )


def _compute(
    version: MetricVersion, given: Sequence[Label], override: float | None
) -> MetricVersionAgreement:
    scale = scale_of(version)
    threshold, source, thresholds, notes = _threshold(given, override, scale)
    items, by_item = items_of(given)
    found = human_agreement(items, threshold=threshold, scale=scale)
    unscored = sum(1 for item in items if item.score is None)
    if unscored:
        notes.append(f"{unscored} labelled items have no judge score and are left out")
    return MetricVersionAgreement(
        metric_version=version.id,
        n=found.n,
        n_labels=found.labels,
        people=found.people,
        label_kind=found.label_kind,
        threshold=threshold,
        threshold_source=source,  # type: ignore[arg-type]
        thresholds=thresholds,
        scale=list(scale),
        **{name: _statistic(getattr(found, name)) for name in STATISTICS},
        confusion_matrix=ConfusionMatrix(matrix=[list(row) for row in found.confusion_matrix]),
        disagreements=[_disagreement(item, by_item[item.key]) for item in found.disagreements],
        interval_method=found.interval_method,
        resamples=found.resamples,
        seed=found.seed,
        notes=[*notes, *found.notes],
    )


def _kept(
    session: Session,
    tenant_id: str,
    version: MetricVersion,
    threshold: float | None,
    stamp: Stamp,
) -> MetricVersionAgreement:
    key = (tenant_id, version.id, stamp, threshold)
    cached = _reports.get(key)
    if cached is None:
        cached = _compute(version, labels.of_version(session, tenant_id, version.id), threshold)
        _reports.put(key, cached)
    return cached


def report(
    session: Session,
    tenant_id: str,
    version: MetricVersion,
    threshold: float | None = None,
    stamp: Stamp | None = None,
) -> MetricVersionAgreement:
    """The agreement of the tenant's `version` with its labels (kept per process until a
    label is given, changed or deleted); `threshold` overrides the labels' own."""
    if stamp is None:
        stamp = stamps(session, tenant_id, [version.id]).get(version.id, (0, datetime.min))
    cached = _kept(session, tenant_id, version, threshold, stamp)
    # Where each disagreement can be read now (its evaluation may have been deleted since).
    places = MetricVersionRepository(session, tenant_id).result_places(
        item.result_id for item in cached.disagreements if item.result_id
    )
    return cached.model_copy(
        update={
            "disagreements": [
                item.model_copy(update={"test_case_index": places.get(item.result_id or "")})
                for item in cached.disagreements
            ]
        }
    )


def briefs(
    session: Session,
    tenant_id: str,
    version_ids: Iterable[str | None],
    known: dict[str, Stamp] | None = None,
) -> dict[str, AgreementBrief]:
    """The one-line verdict of each version that has labels (absent: not checked), in one query
    when every report is kept already (`known`: the stamps, if the caller read them)."""
    wanted = {version for version in version_ids if version}
    found = stamps(session, tenant_id, wanted) if known is None else known
    found = {version: stamp for version, stamp in found.items() if version in wanted}
    rows = MetricVersionRepository(session, tenant_id).many(
        version
        for version, stamp in found.items()
        if _reports.get((tenant_id, version, stamp, None)) is None
    )
    out = {}
    for version_id, stamp in found.items():
        cached = _reports.get((tenant_id, version_id, stamp, None))
        if cached is None:
            if version_id not in rows:  # pragma: no cover - labels outlive no version
                continue
            cached = _kept(session, tenant_id, rows[version_id], None, stamp)
        out[version_id] = AgreementBrief(
            metric_version=version_id,
            cohen_kappa=AgreementStatisticBrief(
                value=cached.cohen_kappa.value,
                ci95=cached.cohen_kappa.ci95,
                note=cached.cohen_kappa.note,
            ),
            n_labels=cached.n_labels,
        )
    for parent, child in (
        MetricVersionRepository(session, tenant_id).activated_children(out).items()
    ):
        out[parent].superseded_by = child
    return out


def calibrated(
    session: Session,
    tenant_id: str,
    version_id: str,
    scored: Callable[[], Sequence[tuple[str, float]]],
    *,
    scale: tuple[float, float],
    threshold: float | None,
    stamp: Stamp,
    cache_key: Any,
) -> CalibratedMean | None:
    """The PPI++ mean of an evaluation's results of the version (`scored()`: their item keys
    and judge scores): results whose item has `direct` or `random` labels are the labelled set
    (the people's value: their mean score label; when most labels are pass/fail, the share
    passing, scores cut at the threshold, and the estimand a pass rate), the others
    the unlabelled set. None when no label of the version is on any of these items.

    Args:
        stamp: the version's label stamp (`stamps`), which the result is kept under with
            `cache_key`: what fixes `scored()` (the evaluation and its stored results' count).
    """
    key = (tenant_id, version_id, stamp, cache_key, scale, threshold)
    hit = _calibrated.get(key)
    if hit is None:
        given = labels.of_version(session, tenant_id, version_id)
        hit = (_calibrate(given, scored(), scale, threshold),)
        _calibrated.put(key, hit)
    return hit[0]


def _calibrate(
    given: Sequence[Label],
    scored: Sequence[tuple[str, float]],
    scale: tuple[float, float],
    threshold: float | None,
) -> CalibratedMean | None:
    keys = {key for key, _ in scored}
    applying = [label for label in given if label.item_key in keys]
    if not applying:
        return None
    usable: dict[str, list[Label]] = {}
    for label in applying:
        if label.selection in RANDOM_SELECTIONS:
            usable.setdefault(label.item_key, []).append(label)
    routed = len(applying) - sum(len(own) for own in usable.values())
    verdicts = sum(1 for own in usable.values() for label in own if label.value is None)
    scores = sum(len(own) for own in usable.values()) - verdicts
    # The pass rate when most labels are pass/fail (and the metric has a threshold to cut the
    # judge's scores at); else the mean on the scale, from the score labels alone.
    passing = verdicts > scores and threshold is not None
    people: dict[str, float] = {}
    for key, own in usable.items():
        if passing:
            assert threshold is not None
            passes = [
                label.passed if label.value is None else label.value >= threshold for label in own
            ]
            known = [bool(p) for p in passes if p is not None]
            if known:
                people[key] = sum(known) / len(known)
        else:
            values = [label.value for label in own if label.value is not None]
            if values:
                people[key] = sum(values) / len(values)
    mixing = []
    if verdicts and scores:
        if passing:
            mixing.append(
                f"the pass rate: {verdicts} of {verdicts + scores} labels are pass/fail, the "
                f"{scores} on the scale counting as pass/fail at the threshold {threshold:g}"
            )
        else:
            only = sum(1 for key in usable if key not in people)
            mixing.append(
                f"the mean on the scale: {scores} of {verdicts + scores} labels are on the "
                f"scale and only they are read; the {verdicts} pass/fail labels are set aside"
                + (
                    f" ({only} result{'' if only == 1 else 's'} with only pass/fail labels "
                    "counted as unlabelled)"
                    if only
                    else ""
                )
            )
    elif verdicts and not passing:
        mixing.append(
            "pass/fail labels, but the metric has no threshold to cut the judge's scores at: "
            "no pass rate"
        )
    # PPI's units are items (N judged, n of them labelled: statistics.md 4.5): an item held
    # twice in one evaluation is one person's judgment, not two labelled results. Each item
    # is one unit, the judge's value its results' mean (their share passing, for a pass rate).
    by_item: dict[str, list[float]] = {}
    for key, score in scored:
        # The pass rate: judge scores as passes at the threshold, people's share passing.
        judged = float(score >= threshold) if passing and threshold is not None else score
        by_item.setdefault(key, []).append(judged)
    labelled_judge, labelled_people, unlabelled = [], [], []
    for key, values in by_item.items():
        if key in people:
            labelled_judge.append(sum(values) / len(values))
            labelled_people.append(people[key])
        else:
            unlabelled.append(sum(values) / len(values))
    scale = (0.0, 1.0) if passing else scale
    found = calibrated_mean(labelled_judge, labelled_people, unlabelled, scale=scale)
    notes = [*mixing, *([found.note] if found.note else [])]
    if routed:
        notes.append(
            f"{routed} label{'' if routed == 1 else 's'} routed by a review queue (near the "
            "threshold, fragile or lowest scores: not a random sample) set aside"
        )
    return CalibratedMean(
        mean=found.mean,
        ci95=list(found.ci95) if found.ci95 else None,
        n_labels=found.n_labels,
        n_unlabelled=found.n_unlabelled,
        estimand="pass_rate" if passing else "mean",
        method=found.method,
        note="; ".join(notes) or None,
    )
