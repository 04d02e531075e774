"""What people say of an evaluation's judged metrics: each metric version's one-line agreement
with people, and the evaluation's calibrated (PPI++) mean where its results' items have labels.

Results meet labels by (metric version, item key of the result's test case), so labels given
on another evaluation of the same content and version (a re-run's) count here too.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError
from sqlalchemy.orm import Session

from app.evaluations import intervals
from app.evaluations.repository import EvaluationRepository
from app.labels.items import item_key
from app.metric_versions import agreement
from app.metric_versions.schemas import AgreementBrief, CalibratedMean
from app.metrics import parse_spec
from app.models import Evaluation, Result


@dataclass(frozen=True)
class MetricVerdict:
    """A metric's agreement line (None: not checked against people) and calibrated mean
    (None: no label applies to its results)."""

    agreement: AgreementBrief | None
    calibrated: CalibratedMean | None


def _threshold(spec: dict[str, Any]) -> float | None:
    try:
        parsed = parse_spec(spec)
    except ValidationError:
        return spec.get("threshold")
    found = getattr(parsed, "threshold", None)
    return getattr(parsed, "pass_threshold", None) if found is None else found


def versions_of(evaluation: Evaluation) -> dict[int, str]:
    """The metric version of each judged metric index."""
    return {
        int(index): version
        for index, version in ((evaluation.judge or {}).get("versions") or {}).items()
    }


def label_stamps(session: Session, evaluations: Sequence[Evaluation]) -> dict[str, agreement.Stamp]:
    """The label stamps of every version these evaluations (one tenant's) judge with, in one
    query: a list page's, for `per_metric` of each."""
    wanted = {version for evaluation in evaluations for version in versions_of(evaluation).values()}
    if not wanted:
        return {}
    return agreement.stamps(session, evaluations[0].tenant_id, wanted)


def per_metric(
    session: Session,
    evaluation: Evaluation,
    stored: dict[int, int],
    known_stamps: dict[str, agreement.Stamp] | None = None,
) -> dict[int, MetricVerdict]:
    """Per judged metric index, its verdict against people; one query when no version has
    labels, and when the reports are kept already (`stored`: results stored per index), none
    when `known_stamps` holds the stamps of its versions (`label_stamps` of a page)."""
    versions = versions_of(evaluation)
    if not versions:
        return {}
    tenant_id = evaluation.tenant_id
    # A page's stamps hold other evaluations' versions too: only this one's are looked up.
    stamps = (
        agreement.stamps(session, tenant_id, versions.values())
        if known_stamps is None
        else known_stamps
    )
    briefs = agreement.briefs(session, tenant_id, versions.values(), known=stamps)
    evaluations = EvaluationRepository(session, tenant_id)
    keys: dict[int, str] = {}

    def item_keys() -> dict[int, str]:
        if not keys:
            keys.update(
                (case.index, item_key(case)) for case in evaluations.every_test_case(evaluation)
            )
        return keys

    out = {}
    for index, version in versions.items():
        calibrated = None
        if version in stamps and index < len(evaluation.metrics):
            spec = evaluation.metrics[index]

            def scored(index: int = index) -> list[tuple[str, float]]:
                known = item_keys()
                return [
                    (known[case], score)
                    for case, score in evaluations.scores_by_case(evaluation, index)
                    if case in known
                ]

            calibrated = agreement.calibrated(
                session,
                tenant_id,
                version,
                scored,
                scale=intervals.metric_bounds(spec),
                threshold=_threshold(spec),
                stamp=stamps[version],
                cache_key=(evaluation.id, index, stored.get(index, 0), evaluation.total_test_cases),
            )
        out[index] = MetricVerdict(briefs.get(version), calibrated)
    return out


def agreement_of(
    session: Session, tenant_id: str, results: Iterable[Result]
) -> dict[str, AgreementBrief]:
    """The agreement line of each of these results' metric versions that has labels, by
    version (one query for the page when the reports are kept already)."""
    return agreement.briefs(session, tenant_id, {result.metric_version for result in results})
