"""Spans (with their log records) to the calls Loupe judges, or the reason a span gives none."""

import json
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.otlp import _conventions as conventions
from app.otlp._content import Image, Message, Notes, ToolCall, parse_json
from app.otlp._documents import is_retrieval, retrieval_documents
from app.otlp._limits import DEFAULT_LIMITS, Limits
from app.otlp._packing import pack
from app.otlp._records import LogRecord, Span, id_problem
from app.otlp._skips import Skipped, SkipReason, skip, unjudgeable, unread


@dataclass(frozen=True)
class JudgedCall:
    """One model call as Loupe judges it, with where it came from."""

    trace_id: str
    span_id: str
    service_name: str | None
    model: str | None
    operation: str | None
    provider: str | None
    convention: str
    system_instructions: tuple[str, ...]
    input_messages: tuple[Message, ...]
    output_messages: tuple[Message, ...]
    retrieval_context: tuple[str, ...]
    conversation_id: str | None
    images: tuple[Image, ...]
    tool_calls: tuple[ToolCall, ...]
    attributes: dict[str, Any]
    resource: dict[str, Any]
    # Content lost on the way, e.g. "attributes_dropped: 47" or "messages_truncated".
    warnings: tuple[str, ...] = ()
    # When the span started (Unix ns; 0 unknown): a conversation's calls are put in this order.
    start_ns: int = 0
    # The provider's id of the response (`gen_ai.response.id`), which scores sent back carry.
    response_id: str | None = None

    @property
    def input_text(self) -> str:
        """The last user message's text: what the call was asked."""
        for message in reversed(self.input_messages):
            if message.role == "user":
                return message.text
        return ""

    @property
    def output_text(self) -> str:
        """The output messages' text, joined by newlines."""
        return "\n".join(message.text for message in self.output_messages if message.text)


@dataclass(frozen=True)
class Unread:
    """A model call whose content was not read: the caller said no rule would sample it, so
    only what filters and sampling look at is kept (the reason it would be skipped is unknown)."""

    trace_id: str
    span_id: str
    service_name: str | None
    attributes: dict[str, Any]
    resource: dict[str, Any]
    # Attributes the span's SDK dropped past its limit (the oldest first).
    dropped_attributes: int = 0


_NOT_CALL_OPERATIONS = frozenset(
    {"embeddings", "retrieval", "execute_tool", "create_agent", "embedding", "rerank"}
)
_CALL_REQUEST_TYPES = frozenset({"chat", "completion"})


def message_record(record: LogRecord) -> bool:
    """Whether a log record carries a call's messages (and names the span it belongs to)."""
    return bool(record.span_id) and conventions.message_events_named(record.event_name)


def judged_calls(
    spans: Sequence[Span],
    logs: Sequence[LogRecord] = (),
    limits: Limits = DEFAULT_LIMITS,
    *,
    read: Callable[[Span], bool] | None = None,
) -> list[JudgedCall | Skipped | Unread]:
    """One JudgedCall or Skipped per model-call span of a batch, in the spans' order.

    Args:
        spans: every span of the batch; retrieval spans give the calls of their trace
            their retrieval_context and are not returned themselves.
        logs: log records received for these spans (joined on trace and span id): the
            instrumentations that put content in log records send them in other requests.
        read: which model-call spans to read the content of (default: all); the others are
            returned as Unread, their messages never parsed (the cost of a span no rule samples
            stays that of its attributes, however long its messages).
    """
    by_span: dict[tuple[str, str], list[LogRecord]] = defaultdict(list)
    seen: set[str] = set()
    for record in logs:
        if message_record(record) and not _sent_again(record, seen):
            by_span[(record.trace_id, record.span_id)].append(record)
    roles = [_role(span, by_span.get((span.trace_id, span.span_id), [])) for span in spans]
    unread = {
        index
        for index, (span, role) in enumerate(zip(spans, roles, strict=True))
        if role == "call" and read is not None and not read(span)
    }
    read_traces = {
        span.trace_id
        for index, (span, role) in enumerate(zip(spans, roles, strict=True))
        if role == "call" and index not in unread
    }
    documents = retrieval_documents(
        [span for span in spans if span.trace_id in read_traces], limits
    )
    results: list[JudgedCall | Skipped | Unread] = []
    for index, (span, role) in enumerate(zip(spans, roles, strict=True)):
        if role == "retrieval":
            continue
        if role != "call":
            results.append(skip(span, SkipReason.NOT_A_MODEL_CALL, "no GenAI call attributes"))
        elif index in unread:
            results.append(
                Unread(
                    span.trace_id,
                    span.span_id,
                    span.service_name,
                    span.attributes,
                    span.resource,
                    span.dropped_attributes,
                )
            )
        else:
            records = by_span.get((span.trace_id, span.span_id), [])
            results.append(_judged_call(span, records, documents.get(span.trace_id, []), limits))
    return results


def _sent_again(record: LogRecord, seen: set[str]) -> bool:
    """Whether a record equal to this one came before: an exporter retrying a request whose
    answer it lost sends its records again, byte for byte, and a message joined twice would
    be judged twice. The SDK stamps each record with the nanosecond it was observed, so two
    messages that only read alike (a user saying "yes" twice) differ; records without a time
    cannot be told apart and are all kept."""
    if not record.time_ns:
        return False
    key = json.dumps(pack(record), sort_keys=True, default=repr)
    if key in seen:
        return True
    seen.add(key)
    return False


def _role(span: Span, records: list[LogRecord]) -> str:
    attributes = span.attributes
    operation = attributes.get("gen_ai.operation.name")
    kind = attributes.get("openinference.span.kind")
    if is_retrieval(span):
        return "retrieval"
    if isinstance(operation, str):
        memory = operation.endswith("_memory") or operation.endswith("_memory_store")
        return "other" if operation in _NOT_CALL_OPERATIONS or memory else "call"
    if isinstance(kind, str):
        return "call" if kind == "LLM" else "other"
    request_type = attributes.get("llm.request.type")
    if isinstance(request_type, str):
        return "call" if request_type in _CALL_REQUEST_TYPES else "other"
    if records or any(conventions.message_events_named(event.name) for event in span.events):
        return "call"
    if any(key.startswith(("gen_ai.", "llm.")) for key in attributes):
        return "call"
    return "other"


def _read(
    span: Span, records: list[LogRecord], notes: Notes, limits: Limits
) -> conventions.Reading | None:
    """The first convention that gives this span's messages, in order of precedence."""
    attributes = span.attributes
    reading = conventions.semconv(attributes, notes, limits)
    if reading is not None:
        return reading
    for event in span.events:
        if event.name == conventions.DETAILS_EVENT:
            reading = conventions.semconv(event.attributes, notes, limits)
            if reading is not None:
                return reading
    for record in records:
        if record.event_name == conventions.DETAILS_EVENT:
            reading = conventions.semconv(record.attributes, notes, limits)
            if reading is not None:
                return reading
    reading = conventions.openinference(attributes, notes, limits)
    if reading is not None:
        return reading
    reading = conventions.openllmetry_indexed(attributes, notes, limits)
    if reading is not None:
        return reading
    events = [
        (event.name, conventions.span_event_body(event.attributes, notes, limits))
        for event in span.events
    ]
    events.extend((record.event_name, record.body) for record in records)
    return conventions.message_events(events, notes, limits)


def _judged_call(
    span: Span, records: list[LogRecord], documents: list[tuple[int, str]], limits: Limits
) -> JudgedCall | Skipped:
    if (problem := id_problem(span.trace_id, span.span_id)) is not None:
        return skip(span, SkipReason.INVALID_IDS, f"the span has {problem}")
    notes = Notes()
    reading = _read(span, records, notes, limits)
    if reading is None:
        return unread(span)
    skipped = unjudgeable(span, reading, notes)
    if skipped is not None:
        return skipped
    attributes = {**reading.attributes, **span.attributes}
    images = [
        part
        for message in reading.input_messages
        for part in message.parts
        if isinstance(part, Image)
    ]
    if len(images) > limits.max_images:
        notes.truncated = True
    warnings = list(notes.malformed)
    if span.dropped_attributes:
        warnings.append(f"attributes_dropped: {span.dropped_attributes}")
    if notes.truncated:
        warnings.append("content_truncated")
    return JudgedCall(
        trace_id=span.trace_id,
        span_id=span.span_id,
        service_name=span.service_name,
        model=model_of(attributes, limits),
        operation=operation_of(attributes),
        provider=_first_string(
            attributes, "gen_ai.provider.name", "gen_ai.system", "llm.provider", "llm.system"
        ),
        convention=reading.convention,
        system_instructions=tuple(reading.system_instructions),
        input_messages=tuple(reading.input_messages),
        output_messages=tuple(reading.output_messages),
        retrieval_context=tuple(
            text for started, text in documents if not span.start_ns or started <= span.start_ns
        ),
        conversation_id=_first_string(attributes, "gen_ai.conversation.id", "session.id"),
        images=tuple(images[: limits.max_images]),
        tool_calls=tuple(
            part
            for message in reading.output_messages
            for part in message.parts
            if isinstance(part, ToolCall)
        ),
        attributes=span.attributes,
        resource=span.resource,
        warnings=tuple(warnings),
        start_ns=span.start_ns or 0,
        response_id=response_id_of(attributes, limits),
    )


def _first_string(attributes: Mapping[str, Any], *keys: str) -> str | None:
    for key in keys:
        value = attributes.get(key)
        if isinstance(value, str) and value:
            return value
    return None


# OpenLLMetry's llm.request.type and OpenInference's span kinds, as the GenAI operation names.
_REQUEST_TYPE_OPERATIONS = {"completion": "text_completion", "embedding": "embeddings"}
_SPAN_KIND_OPERATIONS = {
    "EMBEDDING": "embeddings",
    "RETRIEVER": "retrieval",
    "TOOL": "execute_tool",
    "AGENT": "invoke_agent",
}


def response_id_of(attributes: Mapping[str, Any], limits: Limits = DEFAULT_LIMITS) -> str | None:
    """The provider's response id: `gen_ai.response.id`, else the `id` of the response
    OpenInference keeps as JSON in `output.value`."""
    found = _first_string(attributes, "gen_ai.response.id")
    if found is not None or attributes.get("output.mime_type") != "application/json":
        return found
    response = parse_json(attributes.get("output.value"), "output.value", Notes(), limits)
    identifier = response.get("id") if isinstance(response, dict) else None
    return identifier if isinstance(identifier, str) and identifier else None


def model_of(attributes: Mapping[str, Any], limits: Limits = DEFAULT_LIMITS) -> str | None:
    """The model a call asked for, whichever convention names it: OpenInference's
    `llm.invocation_parameters` model (its `llm.model_name`, and the `gen_ai.request.model` it
    adds, are the response's model), else `gen_ai.request.model`, else the response's model
    (`llm.model_name`, `gen_ai.response.model`)."""
    parameters = attributes.get("llm.invocation_parameters")
    if isinstance(parameters, str) and len(parameters) <= 65536:
        decoded = parse_json(parameters, "llm.invocation_parameters", Notes(), limits)
        if isinstance(decoded, dict) and isinstance(decoded.get("model"), str) and decoded["model"]:
            return decoded["model"]
    return _first_string(
        attributes, "gen_ai.request.model", "llm.model_name", "gen_ai.response.model"
    )


def provider_of(attributes: Mapping[str, Any]) -> str | None:
    """The provider a call went to in any convention: `gen_ai.provider.name` (semantic
    conventions 1.37 on), else `gen_ai.system` (before 1.37; OpenLLMetry), else OpenInference's
    `llm.provider`, else its `llm.system`."""
    return _first_string(
        attributes, "gen_ai.provider.name", "gen_ai.system", "llm.provider", "llm.system"
    )


def operation_of(attributes: Mapping[str, Any]) -> str | None:
    """The GenAI operation name (`chat`, `text_completion`, `embeddings`, ...) of a span in
    any convention: `gen_ai.operation.name` as it is; OpenLLMetry's `llm.request.type`
    `completion` and `embedding` as `text_completion` and `embeddings` (`chat` as it is);
    an OpenInference `LLM` span `text_completion` when it carries prompts (`llm.prompts`) and no
    input messages, else `chat`; its other kinds mapped (`EMBEDDING` embeddings, `RETRIEVER`
    retrieval, `TOOL` execute_tool, `AGENT` invoke_agent) or lower-cased (`chain`, ...)."""
    operation = _first_string(attributes, "gen_ai.operation.name")
    if operation is not None:
        return operation
    request_type = _first_string(attributes, "llm.request.type")
    if request_type is not None:
        return _REQUEST_TYPE_OPERATIONS.get(request_type, request_type)
    kind = _first_string(attributes, "openinference.span.kind")
    if kind is None:
        return None
    if kind != "LLM":
        return _SPAN_KIND_OPERATIONS.get(kind, kind.lower())
    prompts = messages = False
    for key in attributes:
        prompts = prompts or key == "llm.prompts" or key.startswith("llm.prompts.")
        messages = messages or key.startswith("llm.input_messages.")
    return "text_completion" if prompts and not messages else "chat"
