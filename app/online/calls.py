"""What Loupe keeps of each call a rule stores, beside its test case: the span's and its
resource's attributes a filter reads (scalars and arrays of scalars, long values cut,
message content left out, bounded), so a rule made later can be applied to the kept calls
(app/online/backfill.py)."""

import math
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from app.db import utcnow
from app.models import Evaluation
from app.online.repository import OnlineCallRepository
from app.otlp import JudgedCall

# Attributes holding message content, prompts or documents (each name, and its dotted
# children): the test case keeps the content; a filter has no use for it.
CONTENT = (
    "gen_ai.input.messages",
    "gen_ai.output.messages",
    "gen_ai.system_instructions",
    "gen_ai.tool.definitions",
    "gen_ai.prompt",
    "gen_ai.completion",
    "llm.input_messages",
    "llm.output_messages",
    "llm.prompts",
    "llm.completions",
    "llm.choices",
    "llm.prompt_template",
    "llm.tools",
    "input.value",
    "output.value",
    "retrieval.documents",
    "traceloop.entity.input",
    "traceloop.entity.output",
)
# A filter's value is at most 1,024 characters and its attribute name 256.
MAX_VALUE = 1024
MAX_NAME = 256
MAX_KEYS = 64
MAX_CHARS = 16_384
# An array attribute (`app.tags`) keeps its first items, as a filter reads it live.
MAX_ITEMS = 32


def keep(
    session: Session,
    evaluation: Evaluation,
    cases: Sequence[Mapping[str, Any]],
    calls: Sequence[JudgedCall],
) -> None:
    """Keep what a filter needs of the calls just appended to a rule's day as `cases` (their
    `index` set), each case made from the call at the same position."""
    now = utcnow()
    rows = [
        row(
            evaluation.id,
            case["index"],
            call.trace_id,
            call.span_id,
            now,
            call.attributes,
            call.resource,
        )
        for case, call in zip(cases, calls, strict=True)
    ]
    OnlineCallRepository(session, evaluation.tenant_id).keep(rows)


def row(
    evaluation_id: str,
    index: int,
    trace_id: str,
    span_id: str,
    received_at: datetime,
    attributes: Mapping[str, Any],
    resource: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """An `online_call` row (but its tenant), the attributes bounded."""
    return {
        "evaluation_id": evaluation_id,
        "test_case_index": index,
        "trace_id": trace_id,
        "span_id": span_id,
        "received_at": received_at,
        "attributes": bounded(attributes),
        "resource": bounded(resource or {}),
    }


def bounded(attributes: Mapping[str, Any]) -> dict[str, Any]:
    """The attributes a filter can read, scalars and arrays of scalars (their first MAX_ITEMS
    items), strings cut to MAX_VALUE characters, without message content, at most MAX_KEYS of
    them and about MAX_CHARS characters in all."""
    kept: dict[str, Any] = {}
    size = 0
    for name, value in attributes.items():
        if len(kept) >= MAX_KEYS:
            break
        if len(name) > MAX_NAME or _is_content(name):
            continue
        if isinstance(value, list | tuple):
            value = [_scalar(item) for item in value[:MAX_ITEMS]]
            if any(item is None for item in value):
                continue
        else:
            value = _scalar(value)
            if value is None:
                continue
        size += len(name) + len(str(value))
        if size > MAX_CHARS:
            break
        kept[name] = value
    return kept


def _scalar(value: Any) -> Any:
    """A string (cut) or a number as kept; None: neither."""
    if isinstance(value, str):
        return value[:MAX_VALUE]
    return value if _number(value) else None


def _number(value: Any) -> bool:
    """A JSON number (or boolean) every database stores: no NaN or infinity."""
    if isinstance(value, float):
        return math.isfinite(value)
    return isinstance(value, bool | int)


def _is_content(name: str) -> bool:
    return any(name == prefix or name.startswith(prefix + ".") for prefix in CONTENT)
