"""Importing labels: every line of a JSON Lines or CSV body checked (an export's own lines
included), all stored or none, one 422 naming every bad line and field.

Whose label a line becomes: the importer's, unless its `actor` names another person or key of
the team and the importer is a team admin (the `admin` scope), who restores each exported
label under who gave it, with how it was given (`selection`, `queue_id`). Anyone else naming
another's actor is refused at that line: nobody gives a label in another's name. One line per
item and actor: each person has one label of an item.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, get_args

from pydantic import ValidationError
from sqlalchemy.orm import Session

from app import audit
from app.api.salvage import salvage
from app.labels import unbound
from app.labels.blind import Giving, same
from app.labels.checks import target_problems
from app.labels.repository import LabelRepository
from app.labels.schemas import Label as LabelSchema
from app.labels.schemas import LabelCreate, LabelImportLine, passed_as_value
from app.labels.service import Path, _Refusal, _store, _Target, _target, actor_name
from app.labels.snapshot import ResultSnapshot
from app.problems import (
    MAX_FIELD_ERRORS,
    FieldError,
    field_error,
    invalid_request,
    located_errors,
)
from app.tenants.scopes import ADMIN, Caller

_BY_CASE = ("test_case_id", "metric")
_BY_VERSION = ("metric_version", "item_key")
_SELECTIONS = get_args(LabelSchema.model_fields["selection"].annotation)


@dataclass(frozen=True)
class _Whose:
    """Whose label a line is, and how it was given."""

    actor: str
    selection: str = "direct"
    queue_id: str | None = None


@dataclass(frozen=True)
class _Checked:
    target: _Target
    body: LabelCreate
    whose: _Whose
    giving: Giving


def import_labels(
    session: Session,
    caller: Caller,
    lines: Sequence[tuple[int, Any]],
    unread: Sequence[FieldError] = (),
) -> tuple[int, int]:
    """Store every line's label, or none: (created, updated). A 422 names every bad line and
    field (`/lines/<n>/<field>`).

    Args:
        lines: (line number, the line's parsed body).
        unread: the problems of lines that could not be read as a body (named with the rest).
    """
    tenant_id = caller.tenant.id
    repo = LabelRepository(session, tenant_id)
    errors: list[FieldError] = list(unread)
    checked: list[_Checked] = []
    known: dict[str, bool] = {}
    admin = caller.may(ADMIN)
    searches = unbound.Searches(repo)
    # Each (metric version, item key, actor) by the line that labels it first.
    seen: dict[tuple[str, str, str], int] = {}
    for number, raw in lines:
        at: Path = ["lines", number]
        try:
            line = LabelImportLine.model_validate(raw)
        except ValidationError as invalid:
            errors += _invalid(repo, caller, invalid, raw, at, known)
            continue
        body = line.body()
        target = _target(repo, body, at) if line.names_result() else None
        if line.metric_version is not None and (target is None or _gone(target)):
            # Its result is gone: bound by its version and item (app/labels/unbound.py).
            target = unbound.resolve(searches, line, at, admin)
        assert target is not None
        whose = _whose(repo, caller, line, at, known)
        problems = target.errors if isinstance(target, _Refusal) else _disagreeing(line, target, at)
        problems = problems + (whose if isinstance(whose, list) else [])
        if problems:
            errors += problems
            continue
        assert not isinstance(target, _Refusal) and not isinstance(whose, list)
        assert target.result.metric_version is not None
        item = (target.result.metric_version, target.item_key, whose.actor)
        first = seen.setdefault(item, number)
        if first != number:
            message = (
                f"repeats line {first}: {whose.actor}'s label of the same item (test case "
                f"{target.result.test_case_id!r}, metric {target.result.metric!r}) and metric "
                "version; an import gives each person one label of an item"
            )
            errors.append(field_error(at, message, "duplicate"))
            continue
        # A team admin restores labels as exported; anyone else's line is given directly,
        # and never changes a label they gave blind through a review queue.
        fields = ["result_id"] if body.result_id else _BY_CASE
        named = [[*at, name] for name in (fields if line.names_result() else _BY_VERSION)]
        giving = Giving(whose.selection, whose.queue_id, None if admin else tuple(named))
        existing = None if admin else repo.mine(item[0], item[1], whose.actor)
        changing = existing is not None and not same(existing, body.value, body.rationale)
        if existing is not None and existing.queue_id is not None and changing:
            message = (
                f"you labelled this item through review queue {existing.queue_id!r}, blind, "
                "and have been shown the judge's verdict since: your label stands as you "
                "gave it (delete it to give the item back to the queue)"
            )
            errors += [field_error(path, message, "already_labelled") for path in named]
            continue
        checked.append(_Checked(target, body, whose, giving))
    if errors:
        errors.sort(key=lambda error: int(error.pointer.split("/")[2]))
        problem = invalid_request(errors[:MAX_FIELD_ERRORS], len(errors))
        problem.detail = f"nothing was imported; {problem.detail}"
        raise problem
    names: dict[str, str | None] = {}
    created = updated = 0
    stored: list[str] = []
    without_result = sum(isinstance(line_.target.result, ResultSnapshot) for line_ in checked)
    for line_ in checked:
        actor = line_.whose.actor
        if actor not in names:
            names[actor] = actor_name(session, tenant_id, actor)
        # How it was given: an admin's restore keeps the export's; anyone else's is direct
        # (a blind label of theirs the same as the line stands as it is).
        label_, new = _store(
            session,
            repo,
            actor,
            names[actor],
            line_.target,
            line_.body,
            audited=False,
            giving=line_.giving,
        )
        created += new
        updated += not new
        stored.append(label_.id)
    session.flush()
    audit.record(
        session,
        caller.actor,
        "label.import",
        "label",
        stored[0],
        tenant_id=tenant_id,
        created=created,
        updated=updated,
        # Restored by version and item, their result gone (app/labels/unbound.py).
        without_result=without_result,
        # Whose labels they are (an admin's import may restore others'), the first hundred.
        actors=sorted(names)[:100],
        # The first hundred: an import of thousands would make one event too large to read.
        label_ids=stored[:100],
    )
    return created, updated


def _gone(target: _Target | _Refusal) -> bool:
    """Whether the result a line names is not found (its evaluation deleted, say)."""
    return isinstance(target, _Refusal) and all(
        error.type == "not_found" for error in target.errors
    )


def _invalid(
    repo: LabelRepository,
    caller: Caller,
    invalid: ValidationError,
    raw: Any,
    at: Path,
    known: dict[str, bool],
) -> list[FieldError]:
    """A line the schema refused: its errors, and what its other fields name that cannot be
    (an unknown result beside an unknown field, another's actor), each field once."""
    named: set[str] = set()
    errors: list[FieldError] = []
    for path, message, kind, _ in located_errors(invalid.errors(), raw):
        found = field_error([*at, *path], message, kind)
        # `value`'s union answers once per member it tried: one error says it.
        if found.pointer not in named:
            named.add(found.pointer)
            errors.append(found)
    if isinstance(raw, dict):
        salvaged, refused = salvage(LabelImportLine, passed_as_value(raw))
        whose = _whose(repo, caller, salvaged, at, known)
        for found in [
            *target_problems(repo, salvaged, refused, at),
            *(whose if isinstance(whose, list) else []),
        ]:
            if found.pointer not in named:
                named.add(found.pointer)
                errors.append(found)
    return errors


def _whose(
    repo: LabelRepository, caller: Caller, line: LabelImportLine, at: Path, known: dict[str, bool]
) -> _Whose | list[FieldError]:
    """Whose label the line is (the importer's when it names no other actor), and how it
    was given; or why it cannot be that."""
    actor = line.actor if line.actor is not None else caller.actor
    admin = caller.may(ADMIN)
    if actor != caller.actor and not admin:
        message = (
            f"is {actor!r}: only a team admin (the `admin` scope) imports a label in another's "
            "name; leave actor out (or its cell empty) to import the label as yours"
        )
        return [field_error([*at, "actor"], message, "not_yours")]
    if not admin:
        return _Whose(caller.actor)
    errors = []
    if actor != caller.actor:
        if isinstance(actor, str) and actor not in known:
            known[actor] = repo.is_known_actor(actor)
        if not (isinstance(actor, str) and known[actor]):
            message = (
                f"{actor!r} is no key of the team, nor a person who is a member or has labelled "
                "in it; leave actor out (or its cell empty) to import the label as yours"
            )
            errors.append(field_error([*at, "actor"], message, "unknown_actor"))
    selection = line.selection if line.selection is not None else "direct"
    if selection not in _SELECTIONS:
        message = f"is {selection!r}: one of {', '.join(_SELECTIONS)}"
        errors.append(field_error([*at, "selection"], message, "literal_error"))
    queue_id = line.queue_id
    if (
        (selection == "direct") != (queue_id is None)
        or not isinstance(queue_id, str | None)
        or len(queue_id or "") > 40
    ):
        message = (
            "a queue's id for a label given in a queue (selection random or routed), "
            "and none for one given directly"
        )
        errors.append(field_error([*at, "queue_id"], message, "queue_mismatch"))
    return errors or _Whose(actor, selection, queue_id)


def _disagreeing(line: LabelImportLine, target: _Target, at: Path) -> list[FieldError]:
    """An exported line's fields that disagree with the result its result_id names."""
    if line.result_id is None or target.result.id != line.result_id:
        return []
    result = target.result
    errors = []
    for name, actual in (
        ("metric_version", result.metric_version),
        ("evaluation_id", target.evaluation.id),
        ("test_case_id", result.test_case_id),
        ("metric", result.metric),
    ):
        given = getattr(line, name)
        if given is not None and given != actual:
            message = f"is {given!r}, but result {result.id!r} has {name} {actual!r}"
            errors.append(field_error([*at, name], message, "mismatch"))
    return errors
