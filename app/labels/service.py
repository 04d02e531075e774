"""Giving, replacing, listing, deleting and importing labels (never commits: the caller does).

A label is bound to a metric version and an item's content (`items.item_key`), so the same
content judged by the same version elsewhere (a re-run) shows it, and deleting the evaluation it
was given on keeps it. Review queues and agreement call `label_result`, `of_version`,
`of_item` and `summaries`.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError
from sqlalchemy.orm import Session

from app import audit
from app.db import utcnow
from app.ids import new_id
from app.labels.blind import Giving, stands
from app.labels.items import item_key
from app.labels.repository import LabelFilter, LabelRepository
from app.labels.schemas import LabelCreate, LabelSummary
from app.labels.snapshot import EvaluationRef, ResultSnapshot
from app.metrics import parse_spec
from app.models import Evaluation, Label, Result
from app.people import service as people
from app.problems import FieldError, ProblemError, field_error, invalid_request, not_found
from app.tenants.scopes import ADMIN, Caller

__all__ = [
    "LabelFilter",
    "delete",
    "get_or_404",
    "label",
    "label_result",
    "of_item",
    "of_version",
    "page",
    "score_bounds",
    "summaries",
]

Path = list[str | int]


@dataclass(frozen=True)
class _Target:
    """A labelled result, checked: judged, scored, with its item's key and scale."""

    # A snapshot when the result is gone (an export's label imported back: app/labels/unbound).
    result: Result | ResultSnapshot
    evaluation: Evaluation | EvaluationRef
    item_key: str
    bounds: tuple[float, float]


@dataclass(frozen=True)
class _Refusal:
    """Why the result a body names cannot take its label: each a 422 field error (an id in a
    body that names nothing of the tenant's is the body's fault, as any other field's)."""

    errors: list[FieldError]


def score_bounds(spec: dict[str, Any]) -> tuple[float, float]:
    """The lowest and highest score a stored metric spec gives (the range the intervals of
    its mean stay inside, and a label's value must too)."""
    try:
        return parse_spec(spec).score_bounds()
    except ValidationError:
        # A spec stored before its type's rules tightened: every such metric scores in [0, 1].
        return (0.0, 1.0)


def _target(repo: LabelRepository, body: LabelCreate, at: Path) -> _Target | _Refusal:
    """The result `body` names, once checked it can be labelled with `body.value`."""
    if body.result_id is not None:
        found = repo.result(body.result_id)
        if found is None:
            message = f"no result {body.result_id!r}"
            return _Refusal([field_error([*at, "result_id"], message, "not_found")])
        named: Path = [*at, "result_id"]
    else:
        assert body.evaluation_id and body.test_case_id and body.metric
        found = repo.result_by_case(body.evaluation_id, body.test_case_id, body.metric)
        if found is None:
            if not repo.evaluation_exists(body.evaluation_id):
                message = f"no evaluation {body.evaluation_id!r}"
                return _Refusal([field_error([*at, "evaluation_id"], message, "not_found")])
            message = (
                f"evaluation {body.evaluation_id!r} has no result of metric {body.metric!r} on "
                f"test case {body.test_case_id!r}"
            )
            return _Refusal(
                [
                    field_error([*at, "test_case_id"], message, "not_found"),
                    field_error([*at, "metric"], message, "not_found"),
                ]
            )
        named = [*at, "test_case_id"]
    result, evaluation = found
    if result.metric_version is None:
        message = (
            f"result {result.id!r} ({result.type}) has no metric version: only a judged "
            "metric's results can be labelled"
        )
        return _Refusal([field_error(named, message, "not_judged")])
    if result.error is not None:
        message = f"result {result.id!r} errored: the judge gave no verdict to label"
        return _Refusal([field_error(named, message, "result_errored")])
    test_case = repo.test_cases([(evaluation.id, result.test_case_index)]).get(
        (evaluation.id, result.test_case_index)
    )
    if test_case is None:  # pragma: no cover - a result's test case goes only with it
        return _Refusal([field_error(named, f"no test case for {result.id!r}", "not_found")])
    spec = (
        evaluation.metrics[result.metric_index]
        if result.metric_index < len(evaluation.metrics)
        else {}
    )
    bounds = score_bounds(spec) if spec else (0.0, 1.0)
    value = body.value
    if not isinstance(value, bool) and not bounds[0] <= value <= bounds[1]:
        low, high = (f"{bound:g}" for bound in bounds)
        message = (
            f"{_as_given(value)} is outside the scale of metric {result.metric!r} ({result.type}): "
            f"from {low} to {high}, or true / false for pass / fail"
        )
        return _Refusal([field_error([*at, "value"], message, "out_of_range")])
    return _Target(result, evaluation, item_key(test_case), bounds)


def _as_given(value: float) -> str:
    """A value as the client wrote it: 2 for 2.0, and every digit of 1.0000001 (`:g` keeps
    six, and would call it 1)."""
    return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)


def actor_name(session: Session, tenant_id: str, actor: str) -> str | None:
    """How people know `actor`: a person's email, an API key's name (None: neither)."""
    kind, _, actor_id = actor.partition(":")
    if kind == "person":
        person = people.person(session, actor_id)
        return None if person is None else (person.email or person.name)
    if kind == "key":
        return LabelRepository(session, tenant_id).key_name(actor_id)
    return None


def _store(
    session: Session,
    repo: LabelRepository,
    actor: str,
    name: str | None,
    target: _Target,
    body: LabelCreate,
    audited: bool = True,
    giving: Giving = Giving(),
) -> tuple[Label, bool]:
    """Store `actor`'s label, given as `giving` says: the label and whether it is new. A
    label they gave earlier is replaced, or stands when it is the same one given through a
    queue (unchanged, not audited again); 409 when it may be neither (`blind.stands`)."""
    result = target.result
    if isinstance(body.value, bool):
        value, passed = None, body.value
    else:
        value = float(body.value)
        passed = None if result.threshold is None else value >= result.threshold
    fields = {
        "result_id": result.id,
        "evaluation_id": target.evaluation.id,
        "test_case_id": result.test_case_id,
        "metric": result.metric,
        "value": value,
        "passed": passed,
        "rationale": body.rationale,
        "judge_score": result.score,
        "judge_passed": result.passed,
        "threshold": result.threshold,
        "actor_name": name,
    }
    assert result.metric_version is not None
    label = repo.mine(result.metric_version, target.item_key, actor)
    created = False
    if label is None:
        now = utcnow()
        label = Label(
            id=new_id("lbl"),
            tenant_id=repo.tenant_id,
            metric_version=result.metric_version,
            item_key=target.item_key,
            actor=actor,
            # Posted or imported (`direct`), or how a review queue picked it.
            selection=giving.selection,
            queue_id=giving.queue_id,
            created_at=now,
            updated_at=now,
            **fields,
        )
        created = repo.add(label)
        if not created:
            # The same caller's concurrent request stored it first (the unique actor, item
            # and version refused this one): that one is replaced, or stands, as any earlier.
            label = repo.mine(result.metric_version, target.item_key, actor)
            assert label is not None
    if not created:
        if stands(label, body.value, body.rationale, giving):
            return label, False
        for field, value_ in fields.items():
            setattr(label, field, value_)
        # Only a label given blind through a queue counts as its `random` or `routed`.
        label.selection, label.queue_id = giving.selection, giving.queue_id
        label.updated_at = utcnow()
    session.flush()
    if audited:
        audit.record(
            session,
            actor,
            "label.create" if created else "label.update",
            "label",
            label.id,
            tenant_id=repo.tenant_id,
            metric_version=label.metric_version,
            item_key=label.item_key,
            result_id=result.id,
        )
    return label, created


def label(
    session: Session, tenant_id: str, actor: str, body: LabelCreate, giving: Giving | None = None
) -> tuple[Label, bool]:
    """Store `actor`'s label for the result `body` names (replacing their earlier label of the
    same item and version); the label and whether it is new. 422 naming the field for a result
    not of the tenant, errored or of a metric that is not judged, or a value off its scale;
    409 `already-labelled` naming the result's field when they labelled the item through a
    review queue and this label is another (the same one again is answered as it stands)."""
    repo = LabelRepository(session, tenant_id)
    target = _target(repo, body, [])
    if isinstance(target, _Refusal):
        raise invalid_request(target.errors)
    if giving is None:
        named: tuple[Path, ...] = (
            (["result_id"],) if body.result_id is not None else (["test_case_id"], ["metric"])
        )
        giving = Giving(named=named)
    name = actor_name(session, tenant_id, actor)
    return _store(session, repo, actor, name, target, body, giving=giving)


def label_result(
    session: Session,
    tenant_id: str,
    actor: str,
    result_id: str,
    value: bool | float,
    rationale: str | None = None,
    *,
    selection: str = "direct",
    queue_id: str | None = None,
) -> tuple[Label, bool]:
    """`actor`'s label of the tenant's result `result_id` (review queues call this, naming the
    queue and how it picked the item: `selection` `random` or `routed`): as `label` with the
    result named by its id. A 409 names `path.item_id` when they labelled the item already
    (outside the queue, or through a queue with another label)."""
    body = LabelCreate(result_id=result_id, value=value, rationale=rationale)
    giving = Giving(selection, queue_id, (["path", "item_id"],))
    return label(session, tenant_id, actor, body, giving)


def get_or_404(session: Session, tenant_id: str, label_id: str) -> Label:
    """The tenant's label `label_id`; 404 problem+json naming it otherwise."""
    found = LabelRepository(session, tenant_id).get_by_id(label_id)
    if found is None:
        raise not_found(f"No label {label_id!r}.", field=["path", "label_id"])
    return found


# How much of a deleted label's rationale its audit event keeps (its length is always told).
AUDITED_RATIONALE = 200


def delete(session: Session, caller: Caller, label_: Label) -> None:
    """Delete a label, on the audit trail with what it said and whose it was: the caller's own
    label, or anyone's for a team admin (the `admin` scope); 403 problem+json otherwise. The
    review queue slots it filled are freed: the item goes back to its queue, blind again."""
    if label_.actor != caller.actor and not caller.may(ADMIN):
        whose = label_.actor_name or label_.actor
        raise ProblemError(
            403,
            "Forbidden",
            f"Label {label_.id!r} was given by {whose} ({label_.actor}): only they, or a team "
            "admin (the `admin` scope), may delete it.",
            slug="not-your-label",
            field=["path", "label_id"],
            required_scope=ADMIN,
        )
    rationale = label_.rationale
    shown = {}
    if rationale is not None and len(rationale) <= AUDITED_RATIONALE:
        shown["rationale"] = rationale
    audit.record(
        session,
        caller.actor,
        "label.delete",
        "label",
        label_.id,
        tenant_id=caller.tenant.id,
        label_actor=label_.actor,
        label_actor_name=label_.actor_name,
        metric_version=label_.metric_version,
        item_key=label_.item_key,
        result_id=label_.result_id,
        metric=label_.metric,
        value=label_.value,
        passed=label_.passed,
        rationale_length=None if rationale is None else len(rationale),
        queue_id=label_.queue_id,
        **shown,
    )
    LabelRepository(session, caller.tenant.id).delete(label_)


def page(
    session: Session, tenant_id: str, where: LabelFilter, after: str | None, limit: int
) -> Sequence[Label]:
    """`limit + 1` of the tenant's labels matching `where`, newest first, past `after`."""
    return LabelRepository(session, tenant_id).page(where, after, limit)


def of_version(session: Session, tenant_id: str, metric_version: str) -> Sequence[Label]:
    """Every label of a metric version in the tenant, oldest first (agreement reads these)."""
    return LabelRepository(session, tenant_id).of_version(metric_version)


def of_item(session: Session, tenant_id: str, metric_version: str, item: str) -> Sequence[Label]:
    """Every label of one item (its `item_key`) for a metric version, oldest first."""
    return LabelRepository(session, tenant_id).of_item(metric_version, item)


def summaries(
    session: Session, tenant_id: str, results: Iterable[Result]
) -> dict[str, LabelSummary]:
    """What people's labels say about each result's item for its version, by result id (a
    result without labels, or without a version, is absent). Two queries whatever the number
    of results: their test cases, then the labels' tallies."""
    judged = [result for result in results if result.metric_version is not None]
    if not judged:
        return {}
    repo = LabelRepository(session, tenant_id)
    cases = repo.test_cases((result.evaluation_id, result.test_case_index) for result in judged)
    keys: dict[str, tuple[str, str]] = {}
    for result in judged:
        test_case = cases.get((result.evaluation_id, result.test_case_index))
        if test_case is not None and result.metric_version is not None:
            keys[result.id] = (result.metric_version, item_key(test_case))
    tallies = repo.tallies(keys.values())
    return {
        result_id: LabelSummary(
            item_key=key[1],
            count=tally.count,
            mean_value=tally.mean_value,
            passed=tally.passed,
            failed=tally.failed,
        )
        for result_id, key in keys.items()
        if (tally := tallies.get(key)) is not None
    }
