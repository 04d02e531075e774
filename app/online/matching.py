"""Which received calls a rule takes: its filter on the call's attributes, then its sampling
by trace id. Pure: the same call and rule give the same answer in every API process."""

import hashlib
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

import re2

from app import otlp
from app.otlp import JudgedCall, Skipped, Span, Unread

# Where a span names its conversation: the GenAI conventions, then OpenInference's session.
CONVERSATION_ATTRIBUTES = ("gen_ai.conversation.id", "session.id")

# What a filter looks at: a call read or not, or the span itself before it is read.
Filtered = JudgedCall | Skipped | Unread | Span

# Names a filter may use for what each convention says differently, each read the same way
# whatever the convention: `model` the model asked for, `operation` the GenAI operation name
# (`chat`, `text_completion`, ...), `provider` the provider (`openai`, ...; app.otlp.model_of,
# operation_of and provider_of say how).
_ALIASES: dict[str, Callable[[Mapping[str, Any]], Any]] = {
    "model": otlp.model_of,
    "operation": otlp.operation_of,
    "provider": otlp.provider_of,
    "service": lambda attributes: attributes.get("service.name"),
}
_OPTIONS = re2.Options()
_OPTIONS.log_errors = False
# 2^64: trace ids are sampled by their lower 64 bits, as OpenTelemetry's TraceIdRatioBased
# sampler does, so a rule at rate r keeps the traces a 0..r sampler upstream would.
_SPACE = 1 << 64


def attribute(call: Filtered, name: str) -> Any:
    """The value a filter sees under `name`: the span's attribute, else the resource's, else
    the alias's value read from the span's attributes, then the resource's (None when none)."""
    for source in (call.attributes, call.resource):
        if name in source:
            return source[name]
    alias = _ALIASES.get(name)
    if alias is None:
        return None
    for source in (call.attributes, call.resource):
        value = alias(source)
        if value is not None:
            return value
    return None


def matches(conditions: Sequence[Mapping[str, str]], call: Filtered) -> bool:
    """Whether the call meets every condition (none: every call)."""
    return all(
        _meets(condition, attribute(call, condition["attribute"])) for condition in conditions
    )


def _meets(condition: Mapping[str, str], value: Any) -> bool:
    if value is None:
        return False
    text = value if isinstance(value, str) else _text(value)
    wanted = condition["value"]
    op = condition["op"]
    if op == "eq":
        return text == wanted
    if op == "contains":
        return wanted in text
    return _compiled(wanted).search(text) is not None


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ",".join(_text(item) for item in value)
    return str(value)


@lru_cache(maxsize=256)
def _compiled(pattern: str) -> Any:
    # Checked when the rule was stored (app/online/checks.regex_problem): RE2 runs in time
    # linear in the attribute's length, whatever the pattern.
    return re2.compile(pattern, _OPTIONS)


def sampled(trace_id: str, rate: float) -> bool:
    """Whether a rule sampling `rate` of traces takes this one (lower-case hex trace id)."""
    if rate >= 1:
        return True
    if rate <= 0 or len(trace_id) != 32:
        return False
    return int(trace_id[16:], 16) < round(rate * _SPACE)


def conversation_of(call: Filtered) -> str | None:
    """The conversation a call belongs to (`gen_ai.conversation.id`, else `session.id`), if it
    names one."""
    if isinstance(call, JudgedCall) and call.conversation_id:
        return call.conversation_id
    for name in CONVERSATION_ATTRIBUTES:
        value = call.attributes.get(name)
        if isinstance(value, str) and value:
            return value
    return None


def unplaced(call: JudgedCall | Skipped | Unread) -> str:
    """Why a conversation rule cannot place a call naming no conversation: the SDK's attribute
    limit evicted the span's oldest attributes, among them the id set as it started (a long
    OpenInference chat passes 128): `conversation_id_dropped`; or it named none."""
    if isinstance(call, JudgedCall):
        dropped = any(warning.startswith("attributes_dropped") for warning in call.warnings)
    else:
        dropped = call.dropped_attributes > 0
    return "conversation_id_dropped" if dropped else "no_conversation_id"


def conversation_key(conversation_id: str) -> str:
    """The conversation id's sha256 (hex): how its calls are grouped, whatever its length."""
    return hashlib.sha256(conversation_id.encode("utf-8", "surrogatepass")).hexdigest()


def sampled_conversation(conversation_id: str, rate: float) -> bool:
    """Whether a conversation rule sampling `rate` takes this conversation: by a hash of its
    id, so every call of it (in any trace, through any API process) is taken or none."""
    if rate >= 1:
        return True
    if rate <= 0:
        return False
    return int(conversation_key(conversation_id)[:16], 16) < round(rate * _SPACE)
