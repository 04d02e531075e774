"""Checks of a label body past its schema: what the fields that passed name, so one 422 names
every field at fault (the result named both ways, a result that cannot be labelled, a value off
its scale)."""

from collections.abc import Mapping
from typing import Any

from sqlalchemy.orm import Session

from app.api.salvage import salvage
from app.config import Settings
from app.labels.repository import LabelRepository
from app.labels.schemas import BOTH_TARGETS, LabelCreate
from app.labels.service import Path, _Refusal, _target
from app.models import Tenant
from app.problems import FieldError, field_error


def body_problems(
    session: Session, tenant: Tenant, settings: Settings, body: Mapping[str, Any]
) -> list[FieldError]:
    """What else is wrong with a label the schema refused: a result named both ways, the
    result it names and the value's scale, checked on the fields that passed, so one 422 names
    every field at fault."""
    salvaged, refused = salvage(LabelCreate, body)
    if not refused:
        return []  # the schema refused the body as a whole: it named the target itself
    repo = LabelRepository(session, tenant.id)
    if body.get("result_id") is not None and any(body.get(name) is not None for name in _BY_CASE):
        # Named both ways: said as the schema says it alone, and the value checked against
        # the result result_id names (the one a label of an export's line takes).
        by_id = salvaged.model_copy(update=dict.fromkeys(_BY_CASE))
        return [field_error(["body"], BOTH_TARGETS), *target_problems(repo, by_id, refused, [])]
    return target_problems(repo, salvaged, refused, [])


def target_problems(
    repo: LabelRepository, salvaged: LabelCreate, refused: frozenset[str], at: Path
) -> list[FieldError]:
    """Why the result a salvaged body names (by the fields that passed) cannot take its
    value, when that can be told; `at` is where the body is."""
    named = ("result_id",) if salvaged.result_id is not None else _BY_CASE
    if refused.intersection((*named, "value")) or any(
        getattr(salvaged, name) is None for name in named
    ):
        return []
    found = _target(repo, salvaged, at)
    return found.errors if isinstance(found, _Refusal) else []


_BY_CASE = ("evaluation_id", "test_case_id", "metric")


def value_problems(
    session: Session, tenant_id: str, result_id: str, body: Mapping[str, Any]
) -> list[FieldError]:
    """Why a body's `value` (when it passes its own schema) cannot label the tenant's result
    `result_id`: a review queue's label body, whose result is its item's."""
    salvaged, refused = salvage(LabelCreate, {**body, "result_id": result_id})
    found = target_problems(LabelRepository(session, tenant_id), salvaged, refused, [])
    return [error for error in found if error.pointer == "/value"]
