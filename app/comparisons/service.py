"""Comparison decisions: match two evaluations' (or runs') items, test each metric, store it.

Services flush but never commit; callers are endpoints or pages: `(session, tenant, ...)`.
"""

from collections.abc import Sequence

from sqlalchemy.orm import Session

from app import audit
from app.comparisons import matching, verdicts
from app.comparisons.repository import ComparisonRepository
from app.comparisons.schemas import Comparison as ComparisonSchema
from app.comparisons.schemas import (
    ComparisonCreate,
    ComparisonItem,
    Direction,
    ItemSide,
    MetricComparison,
    Unmatched,
)
from app.evaluations import kinds
from app.ids import new_id
from app.models import Comparison, Evaluation, Tenant
from app.problems import Collected, ProblemError, field_error, not_found
from app.stats import holm_adjust


def _side(
    repo: ComparisonRepository, field: str, evaluation_id: str, completed: bool = True
) -> Evaluation:
    """The side named by `field`; 404 when there is none, and with `completed` 409 when it has
    not completed."""
    side = repo.side(evaluation_id)
    if side is None:
        raise ProblemError(
            404,
            "Not Found",
            f"{field}: no evaluation or run {evaluation_id!r}.",
            slug="not-found",
            errors=[field_error([field], "no such evaluation or run", "not_found")],
        )
    if completed and side.status != "completed":
        raise ProblemError(
            409,
            "Conflict",
            f"{field}: the {side.kind} is {side.status}; compare completed ones.",
            slug="comparison-not-completed",
            errors=[field_error([field], f"is {side.status}, not completed", "not_completed")],
        )
    return side


def create(session: Session, tenant: Tenant, payload: ComparisonCreate) -> Comparison:
    """Compare two completed evaluations (or two runs) of the tenant, and store the answer."""
    repo = ComparisonRepository(session, tenant.id)
    # Both sides are looked up before either is refused: one answer names both.
    problems = Collected()
    # A side compared with itself is refused whatever its state (below, with the request's other
    # faults), not only once it has completed.
    distinct = payload.candidate_id != payload.baseline_id
    with problems.catch():
        baseline = _side(repo, "baseline_id", payload.baseline_id, distinct)
    with problems.catch():
        candidate = _side(repo, "candidate_id", payload.candidate_id, distinct)
    problems.raise_if_any()
    if baseline.kind != candidate.kind:
        raise ProblemError(
            422,
            "Invalid request",
            f"candidate_id: {_a(candidate.kind)}, but baseline_id is {_a(baseline.kind)}; "
            "compare two evaluations or two runs",
            slug="validation",
            errors=[field_error(["candidate_id"], f"not {_a(baseline.kind)}", "kind_mismatch")],
        )
    # The request's own faults, named in one answer.
    refused = Collected()
    if payload.candidate_id == payload.baseline_id:
        # Every pair would differ by 0: a gate comparing a candidate with itself always passes.
        refused.add(
            ProblemError(
                422,
                "Invalid request",
                f"candidate_id: {payload.candidate_id!r} is the baseline itself; compare two "
                "evaluations or runs",
                slug="validation",
                errors=[field_error(["candidate_id"], "is the baseline_id", "same_as_baseline")],
            )
        )
    ours, theirs = matching.metric_specs(baseline), matching.metric_specs(candidate)
    # What people call the metrics (an eval run's criteria by name); the baseline's first.
    labels = {
        **kinds.naming_of(session, candidate).metric_labels,
        **kinds.naming_of(session, baseline).metric_labels,
    }
    with refused.catch():
        names, not_compared, mismatched = matching.compared_metrics(payload, ours, theirs, labels)
    refused.raise_if_any()
    base, cand, base_repeated, cand_repeated = matching.sides(repo, baseline.id, candidate.id)
    clusters = matching.clusters(repo, baseline, candidate)
    compared = []
    for name in names:
        ours_kept, theirs_kept, fragile = matching.set_aside_fragile(
            base.get(name, {}), cand.get(name, {}), payload.fragile == "exclude"
        )
        row = verdicts.compare(
            name, (ours[name], theirs[name]), ours_kept, theirs_kept, payload.alpha, clusters
        )
        row["label"] = labels.get(name)
        row["fragile"] = fragile.model_dump()
        row["notes"].extend(verdicts.fragile_notes(fragile, payload.fragile))
        compared.append(row)
    for row, adjusted in zip(
        compared, holm_adjust([row["p_value"] for row in compared]), strict=True
    ):
        row["adjusted_p_value"] = adjusted
        row["verdict"] = verdicts.verdict(row, adjusted, payload.alpha)
        if row["verdict"] == "undecided":
            row["notes"].append(verdicts.undecided_note(row))
    comparison = Comparison(
        id=new_id("cmp"),
        tenant_id=tenant.id,
        kind=baseline.kind,
        baseline_id=baseline.id,
        candidate_id=candidate.id,
        alpha=payload.alpha,
        fragile=payload.fragile,
        metrics=[MetricComparison(**row).model_dump(mode="json") for row in compared],
        unmatched=matching.unmatched(
            base,
            cand,
            not_compared,
            mismatched,
            base_repeated,
            cand_repeated,
            [name for name in not_compared if name in ours],
        ).model_dump(mode="json"),
    )
    repo.add(comparison)
    audit.record(
        session,
        None,
        "comparison.create",
        "comparison",
        comparison.id,
        tenant_id=tenant.id,
        baseline_id=baseline.id,
        candidate_id=candidate.id,
    )
    return comparison


def get_or_404(session: Session, tenant: Tenant, comparison_id: str) -> Comparison:
    comparison = ComparisonRepository(session, tenant.id).get(comparison_id)
    if comparison is None:
        raise not_found(f"No comparison {comparison_id!r}.")
    return comparison


def page(session: Session, tenant: Tenant, after: str | None, limit: int) -> Sequence[Comparison]:
    """The tenant's comparisons, newest first; `limit + 1` so the caller can tell whether more
    follow."""
    return ComparisonRepository(session, tenant.id).page(after, limit)


def delete(session: Session, tenant: Tenant, comparison: Comparison) -> None:
    """Forget a comparison (its two sides stay); audited as its create is."""
    audit.record(
        session,
        None,
        "comparison.delete",
        "comparison",
        comparison.id,
        tenant_id=tenant.id,
        baseline_id=comparison.baseline_id,
        candidate_id=comparison.candidate_id,
    )
    ComparisonRepository(session, tenant.id).delete(comparison)


def sides(session: Session, tenant: Tenant, comparison: Comparison) -> dict[str, Evaluation | None]:
    """The comparison's baseline and candidate as they are now, by side (None for a side
    deleted since)."""
    repo = ComparisonRepository(session, tenant.id)
    return {
        "baseline": repo.side(comparison.baseline_id),
        "candidate": repo.side(comparison.candidate_id),
    }


def to_schema(comparison: Comparison) -> ComparisonSchema:
    return ComparisonSchema(
        id=comparison.id,
        kind=comparison.kind,  # type: ignore[arg-type]
        baseline_id=comparison.baseline_id,
        candidate_id=comparison.candidate_id,
        alpha=comparison.alpha,
        fragile=comparison.fragile,  # type: ignore[arg-type]
        metrics=[MetricComparison(**row) for row in comparison.metrics],
        unmatched=Unmatched(**comparison.unmatched),
        created_at=comparison.created_at,
    )


def items(
    session: Session,
    tenant: Tenant,
    comparison_id: str,
    metric: str | None,
    direction: Direction | None,
    after: str | None,
    limit: int,
) -> tuple[list[ComparisonItem], bool]:
    """The items that moved most: regressed ones most negative first, improved ones most
    positive first (both: largest change first); every pass/fail flip is among them."""
    comparison = get_or_404(session, tenant, comparison_id)
    names = [row["metric"] for row in comparison.metrics]
    # An eval run's criterion may be named by its name, as the comparison's request allows.
    labelled = {row["label"]: row["metric"] for row in comparison.metrics if row.get("label")}
    if metric is not None and metric not in names:
        metric = labelled.get(metric, metric)
    if metric is not None and metric not in names:
        raise ProblemError(
            400,
            "Bad Request",
            f"metric: {metric!r} is not compared here ({names})",
            slug="bad-metric",
            field=["query", "metric"],
        )
    wanted = [metric] if metric is not None else names
    repo = ComparisonRepository(session, tenant.id)
    base, cand, _, _ = matching.sides(repo, comparison.baseline_id, comparison.candidate_id, wanted)
    # Comparisons stored before thresholds were recorded hold neither: one threshold, as then.
    same_threshold = {
        row["metric"]: row.get("baseline_threshold") == row.get("candidate_threshold")
        for row in comparison.metrics
    }
    # Items set aside as fragile were not compared: they are not among those that moved.
    exclude = comparison.fragile == "exclude"
    moved = []
    for name in wanted:
        ours, theirs, _ = matching.set_aside_fragile(base[name], cand[name], exclude)
        moved += matching.moved(name, ours, theirs, direction, same_threshold[name])
    if direction == "improved":
        moved.sort(key=lambda entry: (-entry[0], entry[1], entry[2]))
    elif direction == "regressed":
        moved.sort()
    else:
        moved.sort(key=lambda entry: (-abs(entry[0]), entry[1], entry[2]))
    ids = [f"{name}/{case_id}" for _, name, case_id in moved]
    start = 0
    if after is not None:
        if after not in ids:
            raise ProblemError(
                400,
                "Bad Request",
                f"after: {after!r} is not an item here",
                slug="bad-cursor",
                field=["query", "after"],
            )
        start = ids.index(after) + 1
    page = moved[start : start + limit]
    case_ids = [case_id for _, _, case_id in page]
    base_reasons = repo.reasons(comparison.baseline_id, wanted, case_ids)
    cand_reasons = repo.reasons(comparison.candidate_id, wanted, case_ids)
    return [
        ComparisonItem(
            id=f"{name}/{case_id}",
            metric=name,
            test_case_id=case_id,
            difference=difference,
            baseline=_item_side(base[name][case_id], base_reasons.get((name, case_id))),
            candidate=_item_side(cand[name][case_id], cand_reasons.get((name, case_id))),
        )
        for difference, name, case_id in page
    ], start + limit < len(moved)


def _item_side(scored: matching.Scored, reason: str | None) -> ItemSide:
    return ItemSide(score=scored[0], passed=scored[1], reason=reason)


def _a(noun: str) -> str:
    """The noun with its article ("an evaluation", "a run")."""
    return f"{'an' if noun[:1] in 'aeiou' else 'a'} {noun}"
