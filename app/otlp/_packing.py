"""Spans and log records as JSON-ready values and back, to keep one aside until its partner
arrives (a span whose messages travel in log records sent in another request)."""

import base64
from dataclasses import asdict
from typing import Any

from app.otlp._records import LogRecord, Span, SpanEvent

# Attribute values are str, bool, int, float, bytes, list, dict or None; bytes are tagged.
_BYTES = "$bytes"


def _out(value: Any) -> Any:
    if isinstance(value, bytes):
        return {_BYTES: base64.b64encode(value).decode("ascii")}
    if isinstance(value, dict):
        return {key: _out(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_out(item) for item in value]
    return value


def _in(value: Any) -> Any:
    if isinstance(value, dict):
        if set(value) == {_BYTES}:
            return base64.b64decode(value[_BYTES])
        return {key: _in(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_in(item) for item in value]
    return value


def pack(item: Span | LogRecord) -> dict[str, Any]:
    """A span or log record as JSON-ready values (nesting is capped at decode, so recursing
    here stays shallow)."""
    return _out(asdict(item))


def unpack_span(packed: dict[str, Any]) -> Span:
    values = _in(packed)
    values["events"] = tuple(SpanEvent(**event) for event in values.get("events", ()))
    return Span(**values)


def unpack_record(packed: dict[str, Any]) -> LogRecord:
    return LogRecord(**_in(packed))
