"""Importing labels: every line of a JSON Lines or CSV body checked (an export's own lines
included), all stored as the importer's or none, one 422 naming every bad line and field."""

from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError
from sqlalchemy.orm import Session

from app import audit
from app.labels.repository import LabelRepository
from app.labels.schemas import LabelCreate, LabelImportLine
from app.labels.service import Path, _Refusal, _store, _Target, _target, actor_name
from app.problems import (
    MAX_FIELD_ERRORS,
    FieldError,
    field_error,
    invalid_request,
    located_errors,
)


def import_labels(
    session: Session,
    tenant_id: str,
    actor: str,
    lines: Sequence[tuple[int, Any]],
    unread: Sequence[FieldError] = (),
) -> tuple[int, int]:
    """Store every line's label as `actor`'s, or none: (created, updated). A 422 names every
    bad line and field (`/lines/<n>/<field>`).

    Args:
        lines: (line number, the line's parsed body).
        unread: the problems of lines that could not be read as a body (named with the rest).
    """
    repo = LabelRepository(session, tenant_id)
    errors: list[FieldError] = list(unread)
    total = len(errors)
    checked: list[tuple[_Target, LabelCreate]] = []
    # Each item's (metric version, item key) by the line that labels it first.
    seen: dict[tuple[str, str], int] = {}
    for number, raw in lines:
        at: Path = ["lines", number]
        try:
            line = LabelImportLine.model_validate(raw)
        except ValidationError as invalid:
            named: set[str] = set()
            for path, message, kind, _ in located_errors(invalid.errors(), raw):
                found = field_error([*at, *path], message, kind)
                # `value`'s union answers once per member it tried: one error says it.
                if found.pointer not in named:
                    named.add(found.pointer)
                    total += 1
                    errors.append(found)
            continue
        body = line.body()
        target = _target(repo, body, at)
        if isinstance(target, _Refusal):
            total += len(target.errors)
            errors += target.errors
            continue
        disagreeing = _disagreeing(line, target, at)
        if disagreeing:
            total += len(disagreeing)
            errors += disagreeing
            continue
        assert target.result.metric_version is not None
        item = (target.result.metric_version, target.item_key)
        first = seen.setdefault(item, number)
        if first != number:
            message = (
                f"repeats line {first}: the same item (test case "
                f"{target.result.test_case_id!r}, metric {target.result.metric!r}) and metric "
                "version; an import gives each item one label"
            )
            total += 1
            errors.append(field_error(at, message, "duplicate"))
            continue
        checked.append((target, body))
    if errors:
        errors.sort(key=lambda error: int(error.pointer.split("/")[2]))
        problem = invalid_request(errors[:MAX_FIELD_ERRORS], total)
        problem.detail = f"nothing was imported; {problem.detail}"
        raise problem
    name = actor_name(session, tenant_id, actor)
    created = updated = 0
    stored: list[str] = []
    for target, body in checked:
        label_, new = _store(session, repo, actor, name, target, body, audited=False)
        # An imported label is given directly, even where it replaces one given in a queue.
        label_.selection, label_.queue_id = "direct", None
        created += new
        updated += not new
        stored.append(label_.id)
    audit.record(
        session,
        actor,
        "label.import",
        "label",
        stored[0],
        tenant_id=tenant_id,
        created=created,
        updated=updated,
        # The first hundred: an import of thousands would make one event too large to read.
        label_ids=stored[:100],
    )
    return created, updated


def _disagreeing(line: LabelImportLine, target: _Target, at: Path) -> list[FieldError]:
    """An exported line's fields that disagree with the result its result_id names."""
    if line.result_id is None:
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
