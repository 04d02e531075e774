"""OTLP/HTTP export request bodies, protobuf or OTLP/JSON, to flattened spans and log records."""

import base64
import json
from dataclasses import dataclass
from typing import Any

from google.protobuf import json_format
from google.protobuf.message import DecodeError, Message
from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

from app.otlp._body import decompress
from app.otlp._errors import OtlpDecodeError, UnsupportedContentType
from app.otlp._limits import DEFAULT_LIMITS, Limits
from app.otlp._records import LogRecord, Span, id_problem, log_records_of, spans_of

PROTOBUF = "application/x-protobuf"
JSON = "application/json"
# The body limit the OTLP specification recommends, applied after decompression.
DEFAULT_MAX_BODY = 64 * 1024 * 1024

# Where OTLP/JSON holds ids (hex there, base64 in protobuf's own JSON mapping): the list keys
# leading to the records, then each record's id fields and its sub-records' (span links).
_TRACE_PATH = ("resourceSpans", "scopeSpans", "spans")
_SPAN_IDS = ("traceId", "spanId", "parentSpanId")
_LINK_IDS = ("traceId", "spanId")
_LOGS_PATH = ("resourceLogs", "scopeLogs", "logRecords")
_LOG_IDS = ("traceId", "spanId")


def media_type(content_type: str | None) -> str:
    """The bare media type of a Content-Type header, refusing those OTLP/HTTP does not define."""
    kind = (content_type or "").split(";", 1)[0].strip().lower()
    if kind not in (PROTOBUF, JSON):
        said = f"Content-Type {content_type[:64]!r} is not supported" if content_type else None
        raise UnsupportedContentType(
            f"{said or 'The request has no Content-Type'}: send {PROTOBUF} or {JSON}"
        )
    return kind


@dataclass(frozen=True)
class Traces:
    """The spans of an export request whose ids are valid, and why each other one was
    rejected (the export answer's `partial_success`), one reason per span."""

    spans: list[Span]
    rejected: list[str]


def read_traces(
    body: bytes | bytearray,
    content_type: str | None,
    content_encoding: str | None = None,
    *,
    max_body: int = DEFAULT_MAX_BODY,
    limits: Limits = DEFAULT_LIMITS,
) -> Traces:
    """The spans of an ExportTraceServiceRequest body (POST /v1/traces), a span with invalid
    ids (not hex, the wrong length, all zeros) rejected alone, in protobuf and OTLP/JSON alike."""
    request = ExportTraceServiceRequest()
    rejected = _decode(request, body, content_type, content_encoding, max_body, limits)
    spans = []
    for span in spans_of(request, limits):
        problem = id_problem(span.trace_id, span.span_id)
        if problem is None:
            spans.append(span)
        else:
            rejected.append(f"span {span.name[:64]!r} has {problem}")
    return Traces(spans, rejected)


def decode_traces(
    body: bytes | bytearray,
    content_type: str | None,
    content_encoding: str | None = None,
    *,
    max_body: int = DEFAULT_MAX_BODY,
    limits: Limits = DEFAULT_LIMITS,
) -> list[Span]:
    """The spans with valid ids of an ExportTraceServiceRequest body (see read_traces)."""
    return read_traces(body, content_type, content_encoding, max_body=max_body, limits=limits).spans


def decode_logs(
    body: bytes | bytearray,
    content_type: str | None,
    content_encoding: str | None = None,
    *,
    max_body: int = DEFAULT_MAX_BODY,
    limits: Limits = DEFAULT_LIMITS,
) -> list[LogRecord]:
    """The log records of an ExportLogsServiceRequest body (POST /v1/logs)."""
    request = ExportLogsServiceRequest()
    _decode(request, body, content_type, content_encoding, max_body, limits)
    return log_records_of(request, limits)


def _decode(
    request: Message,
    body: bytes | bytearray,
    content_type: str | None,
    content_encoding: str | None,
    max_body: int,
    limits: Limits,
) -> list[str]:
    """Parses the body into `request`; for OTLP/JSON, why each span left out for its ids was."""
    kind = media_type(content_type)
    raw = decompress(body, content_encoding, max_body)
    name = type(request).__name__
    if kind == PROTOBUF:
        try:
            request.ParseFromString(raw)
        except (DecodeError, RecursionError) as exc:
            raise OtlpDecodeError(f"the body is not a protobuf {name}: {exc}") from None
        return []
    document = _json_document(raw, name)
    if isinstance(request, ExportTraceServiceRequest):
        # A span nested too deep for the parser is rejected alone; anything else too deep
        # refuses the body.
        rejected = _deep_spans_left_out(document, limits)
        _refuse_if_deep(document, limits)
        rejected += _hex_ids_to_base64(document, _TRACE_PATH, _SPAN_IDS, ("links", _LINK_IDS))
    else:
        _refuse_if_deep(document, limits)
        rejected = _hex_ids_to_base64(document, _LOGS_PATH, _LOG_IDS, None)
    try:
        json_format.ParseDict(document, request, ignore_unknown_fields=True)
    except (json_format.ParseError, RecursionError, TypeError, ValueError) as exc:
        raise OtlpDecodeError(f"the body is not an OTLP/JSON {name}: {exc}") from None
    return rejected


def _json_document(raw: bytes | bytearray, name: str) -> dict[str, Any]:
    try:
        document = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        # ValueError: undecodable bytes, bad JSON, or an integer of more digits than Python
        # converts (a 5,000-digit intValue was a 500).
        raise OtlpDecodeError(f"the body is not JSON: {exc}") from None
    if not isinstance(document, dict):
        raise OtlpDecodeError(f"the body is not an OTLP/JSON {name}: not a JSON object")
    return document


def _refuse_if_deep(document: dict[str, Any], limits: Limits) -> None:
    if _depth(document, limits.max_json_depth) > limits.max_json_depth:
        raise OtlpDecodeError(f"the JSON body nests deeper than {limits.max_json_depth} levels")


def _deep_spans_left_out(document: dict[str, Any], limits: Limits) -> list[str]:
    """Leaves out each span nesting deeper than `max_span_json_depth` (an attribute's arrays
    in arrays), as protobuf's JSON parser would refuse the whole body for it; why each."""
    rejected = []
    outer, middle, inner = _TRACE_PATH
    for i, first in enumerate(_list(document, outer)):
        for j, second in enumerate(_list(first, middle)):
            spans = _list(second, inner)
            kept = []
            for k, span in enumerate(spans):
                if _depth(span, limits.max_span_json_depth) > limits.max_span_json_depth:
                    rejected.append(
                        f"{outer}[{i}].{middle}[{j}].{inner}[{k}] nests deeper than "
                        f"{limits.max_span_json_depth} levels"
                    )
                else:
                    kept.append(span)
            if len(kept) != len(spans):
                second[inner] = kept
    return rejected


def _depth(document: Any, cap: int) -> int:
    """How deep a JSON document nests, counted without recursion and stopping past `cap`."""
    deepest = 0
    pending = [(document, 1)]
    while pending:
        value, depth = pending.pop()
        deepest = max(deepest, depth)
        if depth > cap:
            return depth
        if isinstance(value, dict):
            pending.extend((item, depth + 1) for item in value.values())
        elif isinstance(value, list):
            pending.extend((item, depth + 1) for item in value)
    return deepest


def _hex_ids_to_base64(
    document: dict[str, Any],
    path: tuple[str, str, str],
    id_fields: tuple[str, ...],
    sub_records: tuple[str, tuple[str, ...]] | None,
) -> list[str]:
    """Rewrites OTLP/JSON's hex ids as the base64 protobuf's JSON parser reads.

    json_format would otherwise base64-decode a 32-character hex trace id into 24 bytes of
    garbage without complaint. A bad id (not a hex string of its length) leaves out the span
    it names, as protobuf's answer rejects a span of bad ids alone, and says so (the returned
    reasons); a bad parent or link id, and a log record's, is read as absent (a record then
    tied to no span, as OTLP says).
    """
    rejected = []
    outer, middle, inner = path
    for i, first in enumerate(_list(document, outer)):
        for j, second in enumerate(_list(first, middle)):
            records = _list(second, inner)
            kept = []
            for k, record in enumerate(records):
                where = f"{outer}[{i}].{middle}[{j}].{inner}[{k}]"
                problem = _rewrite(record, id_fields, where)
                if problem is not None:
                    field, reason = problem
                    if inner == "spans" and field != "parentSpanId":
                        rejected.append(reason)
                        continue
                    for key in (field,) if inner == "spans" else id_fields:
                        record.pop(key, None)
                kept.append(record)
                if sub_records is None:
                    continue
                key, sub_fields = sub_records
                for m, sub in enumerate(_list(record, key)):
                    if _rewrite(sub, sub_fields, f"{where}.{key}[{m}]") is not None:
                        for field in sub_fields:
                            sub.pop(field, None)
            if len(kept) != len(records):
                second[inner] = kept
    return rejected


def _list(container: Any, key: str) -> list[Any]:
    value = container.get(key) if isinstance(container, dict) else None
    return value if isinstance(value, list) else []


def _rewrite(record: Any, fields: tuple[str, ...], where: str) -> tuple[str, str] | None:
    """Rewrites the record's hex ids in place; the first bad one's field and why it is bad."""
    if not isinstance(record, dict):
        return None
    for key in fields:
        value = record.get(key)
        if value is None:
            continue
        if not isinstance(value, str):
            return key, f"{where}.{key} must be a hex string"
        digits = 32 if key == "traceId" else 16
        # Empty means absent (a root span's parentSpanId); no other length is converted.
        if len(value) not in (0, digits):
            return key, f"{where}.{key} must be {digits} hex digits, not {len(value)}"
        try:
            record[key] = base64.b64encode(bytes.fromhex(value)).decode("ascii")
        except ValueError:
            return key, f"{where}.{key} is not hex: {value[:40]!r}"
    return None
