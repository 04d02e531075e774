"""What an alignment reports: κ before (the current version) and after (the candidate) on the
held-out items, against people's labels, and the alignment as clients read it."""

from collections.abc import Sequence
from typing import Any

from sqlalchemy.orm import Session

from app.alignments.repository import AlignmentRepository
from app.alignments.schemas import Alignment as AlignmentSchema
from app.alignments.schemas import AlignmentReport, AlignmentSide, AlignmentSplit, HeldOutItem
from app.evaluations import read_model
from app.labels import service as labels_service
from app.metric_versions.repository import MetricVersionRepository
from app.metrics import parse_spec
from app.models import Alignment, Evaluation, Label
from app.stats import HumanAgreement, LabelledItem, Statistic, human_agreement, kappa_change
from app.usage.schemas import UsageTotals, add_costs


def label_value(label: Label) -> bool | float | None:
    return label.value if label.value is not None else label.passed


def labelled(labels: Sequence[Label]) -> dict[str, bool | float]:
    """Who labelled an item -> their value (labels without one are left out)."""
    values: dict[str, bool | float] = {}
    for label in labels:
        value = label_value(label)
        if value is not None:
            values[label.actor] = value
    return values


def _kind_of(items: Sequence[HeldOutItem]) -> str:
    """The kind of the held-out items' labels, for a report on no item both versions scored
    (the statistics' own kind is then that of no labels)."""
    values = [value for item in items for value in item.labels.values()]
    verdicts = sum(1 for value in values if isinstance(value, bool))
    if verdicts and verdicts < len(values):
        return "mixed"
    return "pass_fail" if verdicts else "score"


def _shown(statistic: Statistic, left_out: str | None) -> dict[str, Any]:
    return {
        "value": statistic.value,
        "ci95": list(statistic.ci95) if statistic.ci95 is not None else None,
        "note": "; ".join(note for note in (left_out, statistic.note) if note) or None,
    }


def _side(version: str, agreement: HumanAgreement, left_out: str | None) -> AlignmentSide:
    return AlignmentSide(
        metric_version=version,
        n=agreement.n,
        cohen_kappa=_shown(agreement.cohen_kappa, left_out),
        weighted_kappa=_shown(agreement.weighted_kappa, left_out),
    )


def report(
    session: Session, alignment: Alignment, evaluation: Evaluation
) -> AlignmentReport | None:
    """κ before and after on the held-out items, once the judging has completed; the people's
    labels as they are now (a label given or changed since counts)."""
    if evaluation.status != "completed":
        return None
    repo = AlignmentRepository(session, alignment.tenant_id)
    scores: dict[tuple[int, int], float | None] = {}
    client_ids: dict[int, str] = {}
    for result in repo.results(evaluation):
        scores[(result.test_case_index, result.metric_index)] = (
            None if result.error is not None else result.score
        )
        client_ids[result.test_case_index] = result.test_case_id
    labels: dict[str, list[Label]] = {}
    for label in labels_service.of_version(session, alignment.tenant_id, alignment.metric_version):
        labels.setdefault(label.item_key, []).append(label)
    spec = parse_spec(evaluation.metrics[0])
    threshold, scale = spec.threshold, spec.score_bounds()
    items = [
        HeldOutItem(
            item_key=key,
            test_case_id=client_ids.get(index, str(index)),
            labels=labelled(labels.get(key, [])),
            current=scores.get((index, 0)),
            candidate=scores.get((index, 1)),
        )
        for index, key in enumerate(alignment.held_out_items)
    ]
    # Both sides read the same items, those both versions scored: a candidate that errored on
    # the items the current version got wrong would otherwise be measured on the easy rest,
    # and its higher κ called an improvement.
    both = [item for item in items if item.current is not None and item.candidate is not None]
    current = [LabelledItem(item.item_key, item.current, item.labels) for item in both]
    candidate = [LabelledItem(item.item_key, item.candidate, item.labels) for item in both]
    before = human_agreement(current, threshold=threshold, scale=scale, disagreements=0)
    after = human_agreement(candidate, threshold=threshold, scale=scale, disagreements=0)
    errored = sum(
        1 for item in items if item.labels and (item.current is None or item.candidate is None)
    )
    left_out = (
        f"from the {before.n} held-out items both versions scored; {errored} left out, "
        "a version's judging of them having errored"
        if errored
        else None
    )
    versions = (evaluation.judge or {}).get("versions") or {}
    kappa_before, kappa_after = before.cohen_kappa.value, after.cohen_kappa.value
    return AlignmentReport(
        threshold=threshold,
        scale=scale,
        label_kind=before.label_kind if both else _kind_of(items),
        before=_side(versions.get("0", alignment.metric_version), before, left_out),
        after=_side(versions.get("1", alignment.candidate_version), after, left_out),
        improved=None
        if kappa_before is None or kappa_after is None
        else kappa_after > kappa_before,
        kappa_difference=_shown(
            kappa_change(current, candidate, threshold=threshold, scale=scale), left_out
        ),
        items=items,
    )


def to_schema(session: Session, alignment: Alignment, evaluation: Evaluation) -> AlignmentSchema:
    judged = read_model.to_schema(session, evaluation)
    notes_usage = UsageTotals.model_validate(alignment.notes_usage or {})
    usage = UsageTotals(
        calls=judged.usage.calls + notes_usage.calls,
        failed_calls=judged.usage.failed_calls + notes_usage.failed_calls,
        prompt_tokens=judged.usage.prompt_tokens + notes_usage.prompt_tokens,
        completion_tokens=judged.usage.completion_tokens + notes_usage.completion_tokens,
        cached_prompt_tokens=judged.usage.cached_prompt_tokens + notes_usage.cached_prompt_tokens,
        cost_usd=add_costs(judged.usage.cost_usd, notes_usage.cost_usd),
    )
    # Submittable as it stands: the spec judged as `candidate`, under the metric's own name
    # (the name is not part of a version, so results carry the candidate's).
    parent = MetricVersionRepository(session, alignment.tenant_id).get(alignment.metric_version)
    name = parent.name if parent else evaluation.name.removeprefix("alignment of ")
    candidate_metric = {**evaluation.metrics[1], "name": name}
    return AlignmentSchema(
        id=alignment.id,
        status=evaluation.status,  # type: ignore[arg-type]
        metric_version=alignment.metric_version,
        candidate_version=alignment.candidate_version,
        candidate_metric=candidate_metric,
        guidance=candidate_metric.get("guidance") or {},
        active_version=alignment.candidate_version
        if alignment.decision == "activated"
        else alignment.metric_version,
        decision=alignment.decision,  # type: ignore[arg-type]
        decided_by=alignment.decided_by,
        decided_at=alignment.decided_at,
        webhook_url=judged.webhook_url,
        split=AlignmentSplit(
            seed=alignment.seed,
            held_out_share=alignment.held_out_share,
            proposal=alignment.proposal_items,
            held_out=alignment.held_out_items,
        ),
        report=report(session, alignment, evaluation),
        usage=usage,
        notes_usage=notes_usage,
        created_at=alignment.created_at,
    )
