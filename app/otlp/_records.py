"""Spans and log records as plain frozen dataclasses, attribute values as plain Python values."""

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue

from app.otlp._limits import DEFAULT_LIMITS, Limits


@dataclass(frozen=True)
class SpanEvent:
    """One event recorded on a span."""

    name: str
    time_ns: int
    attributes: dict[str, Any]


@dataclass(frozen=True)
class Span:
    """One span with its resource and scope; ids are lower-case hex ('' when absent)."""

    trace_id: str
    span_id: str
    parent_span_id: str
    name: str
    kind: int
    start_ns: int
    end_ns: int
    attributes: dict[str, Any]
    resource: dict[str, Any]
    scope_name: str
    scope_version: str
    events: tuple[SpanEvent, ...] = ()
    status_code: int = 0
    # Attributes the sender dropped (its own limit) plus those past Limits.max_attributes.
    dropped_attributes: int = 0

    @property
    def service_name(self) -> str | None:
        name = self.resource.get("service.name")
        return name if isinstance(name, str) else None


@dataclass(frozen=True)
class LogRecord:
    """One log record (an event when `event_name` is set); ids are lower-case hex."""

    trace_id: str
    span_id: str
    event_name: str
    time_ns: int
    body: Any
    attributes: dict[str, Any]
    resource: dict[str, Any] = field(default_factory=dict)
    scope_name: str = ""
    severity_number: int = 0
    dropped_attributes: int = 0


def id_problem(trace_id: str, span_id: str) -> str | None:
    """Why a span's ids are invalid in OTLP (None when they are valid): a trace id has 16
    bytes, a span id 8, and neither may be all zeros."""
    for what, value, size in (("trace id", trace_id, 16), ("span id", span_id, 8)):
        if not value:
            return f"no {what}"
        if len(value) != 2 * size:
            return f"a {what} of {len(value) // 2} bytes, not {size}"
        if not value.strip("0"):
            return f"an all-zero {what}"
    return None


_SCALARS = frozenset({"string_value", "bool_value", "int_value", "double_value"})


def plain_value(value: AnyValue, limits: Limits = DEFAULT_LIMITS) -> Any:
    """An AnyValue as str, bool, int, float, bytes, list, dict or None.

    Iterative, so no nesting can exhaust the stack: arrays and kvlists deeper than
    `limits.max_depth` become None, and only the first `limits.max_items` items are read.
    """
    which = value.WhichOneof("value")
    if which in _SCALARS:  # nearly every attribute: no walk needed
        return getattr(value, which)
    root: list[Any] = [None]
    pending: list[tuple[AnyValue, Any, Any, int]] = [(value, root, 0, 0)]
    while pending:
        current, parent, slot, depth = pending.pop()
        which = current.WhichOneof("value")
        if which == "array_value":
            if depth >= limits.max_depth:
                continue
            items = current.array_value.values[: limits.max_items]
            array: list[Any] = [None] * len(items)
            parent[slot] = array
            pending.extend((item, array, index, depth + 1) for index, item in enumerate(items))
        elif which == "kvlist_value":
            if depth >= limits.max_depth:
                continue
            mapping: dict[str, Any] = {}
            parent[slot] = mapping
            for pair in current.kvlist_value.values[: limits.max_items]:
                mapping[pair.key] = None
                pending.append((pair.value, mapping, pair.key, depth + 1))
        elif which == "bytes_value":
            parent[slot] = bytes(current.bytes_value)
        elif which is not None:
            parent[slot] = getattr(current, which)
    return root[0]


def plain_attributes(pairs: Iterable[KeyValue], limits: Limits = DEFAULT_LIMITS) -> dict[str, Any]:
    """Key-value pairs as a dict (the last of repeated keys wins), at most max_attributes."""
    attributes: dict[str, Any] = {}
    for index, pair in enumerate(pairs):
        if index >= limits.max_attributes:
            break
        value = pair.value
        which = value.WhichOneof("value")
        attributes[pair.key] = (
            getattr(value, which) if which in _SCALARS else plain_value(value, limits)
        )
    return attributes


# The latest moment a time is read as (2262-04-11, a signed 64-bit count of nanoseconds, as
# the database stores it); OTLP's unsigned field holds later ones.
_LAST_NS = 2**63 - 1


def _moment(unix_nano: int) -> int:
    """An OTLP time in nanoseconds, or 0 (unknown, as OTLP writes it) past `_LAST_NS`: a span
    starting at 2^64 - 1 was a 500 for its whole export where its time was stored."""
    return unix_nano if unix_nano <= _LAST_NS else 0


def _dropped(pairs: Any, reported: int, limits: Limits) -> int:
    return reported + max(0, len(pairs) - limits.max_attributes)


def spans_of(request: ExportTraceServiceRequest, limits: Limits = DEFAULT_LIMITS) -> list[Span]:
    """Every span of a trace export request, flattened."""
    spans = []
    for resource_spans in request.resource_spans:
        resource = plain_attributes(resource_spans.resource.attributes, limits)
        for scope_spans in resource_spans.scope_spans:
            scope = scope_spans.scope
            for span in scope_spans.spans:
                events = tuple(
                    SpanEvent(
                        name=event.name,
                        time_ns=_moment(event.time_unix_nano),
                        attributes=plain_attributes(event.attributes, limits),
                    )
                    for event in span.events[: limits.max_events]
                )
                spans.append(
                    Span(
                        trace_id=span.trace_id.hex(),
                        span_id=span.span_id.hex(),
                        parent_span_id=span.parent_span_id.hex(),
                        name=span.name,
                        kind=span.kind,
                        start_ns=_moment(span.start_time_unix_nano),
                        end_ns=_moment(span.end_time_unix_nano),
                        attributes=plain_attributes(span.attributes, limits),
                        resource=resource,
                        scope_name=scope.name,
                        scope_version=scope.version,
                        events=events,
                        status_code=span.status.code,
                        dropped_attributes=_dropped(
                            span.attributes, span.dropped_attributes_count, limits
                        ),
                    )
                )
    return spans


def log_records_of(
    request: ExportLogsServiceRequest, limits: Limits = DEFAULT_LIMITS
) -> list[LogRecord]:
    """Every log record of a logs export request, flattened."""
    records = []
    for resource_logs in request.resource_logs:
        resource = plain_attributes(resource_logs.resource.attributes, limits)
        for scope_logs in resource_logs.scope_logs:
            for record in scope_logs.log_records:
                attributes = plain_attributes(record.attributes, limits)
                # The event.name attribute is deprecated for the eventName field; read both.
                event_name = record.event_name or attributes.get("event.name") or ""
                trace_id, span_id = record.trace_id.hex(), record.span_id.hex()
                if id_problem(trace_id, span_id) is not None:
                    # Invalid ids (wrong length, all zeros): a record tied to no span, as the
                    # OTLP specification says to read it.
                    trace_id = span_id = ""
                records.append(
                    LogRecord(
                        trace_id=trace_id,
                        span_id=span_id,
                        event_name=event_name if isinstance(event_name, str) else "",
                        # Instrumentations leave timeUnixNano 0 and set only the observed time.
                        time_ns=_moment(record.time_unix_nano)
                        or _moment(record.observed_time_unix_nano),
                        body=plain_value(record.body, limits),
                        attributes=attributes,
                        resource=resource,
                        scope_name=scope_logs.scope.name,
                        severity_number=record.severity_number,
                        dropped_attributes=_dropped(
                            record.attributes, record.dropped_attributes_count, limits
                        ),
                    )
                )
    return records
