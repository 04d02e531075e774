"""Why a model-call span gives no call to judge: what its instrumentation left out, hid or
could not say, read from the span and the messages its conventions gave."""

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from app.otlp import _conventions as conventions
from app.otlp._content import REDACTED, Notes
from app.otlp._records import Span

# Keys that look like content in a shape no reader knows (so: unknown, not missing).
_CONTENT_HINTS = ("message", "prompt", "completion", "input.value", "output.value", "content")
# OTLP's Status.code for a span that failed.
_STATUS_ERROR = 2


class SkipReason(StrEnum):
    """Why a span gives no judged call (the receiver adds its own: not sampled, over budget...)."""

    NOT_A_MODEL_CALL = "not_a_model_call"
    NO_CONTENT = "no_content"
    UNKNOWN_CONVENTION = "unknown_convention"
    IMAGE_WITHHELD = "image_withheld"
    MALFORMED_CONTENT = "malformed_content"
    INVALID_IDS = "invalid_ids"
    CALL_FAILED = "call_failed"


@dataclass(frozen=True)
class Skipped:
    """A span that gives no judged call, and why."""

    trace_id: str
    span_id: str
    service_name: str | None
    reason: SkipReason
    detail: str
    attributes: dict[str, Any]
    resource: dict[str, Any]
    # A span without content whose messages may still come in log records sent apart (the
    # official instrumentation's details event, per-message events): it waits for them.
    awaits_records: bool = False
    # Attributes the span's SDK dropped past its limit (the oldest, a conversation id among them).
    dropped_attributes: int = 0


def skip(span: Span, reason: SkipReason, detail: str, awaits_records: bool = False) -> Skipped:
    return Skipped(
        trace_id=span.trace_id,
        span_id=span.span_id,
        service_name=span.service_name,
        reason=reason,
        detail=detail,
        attributes=span.attributes,
        resource=span.resource,
        awaits_records=awaits_records,
        dropped_attributes=span.dropped_attributes,
    )


def unread(span: Span) -> Skipped:
    """Why no convention gave a span's messages: the call failed, its content is in a shape no
    reader knows, or there is none (capture off; it may yet come in log records)."""
    if (failure := _failure(span)) is not None:
        return skip(span, SkipReason.CALL_FAILED, f"the call failed ({failure}): no answer")
    # Content in a shape no reader knows is text under a content-like key: not a token count
    # (OpenInference's llm.token_count.prompt), nor the placeholder of content the
    # instrumentation hid (its input.value with OPENINFERENCE_HIDE_INPUTS): no content.
    hinted = [
        key
        for key, value in span.attributes.items()
        if any(h in key for h in _CONTENT_HINTS) and isinstance(value, str) and value != REDACTED
    ]
    if hinted:
        return skip(
            span,
            SkipReason.UNKNOWN_CONVENTION,
            f"content in no known convention: {', '.join(sorted(hinted)[:5])}",
        )
    return skip(span, SkipReason.NO_CONTENT, "no message content (capture is off?)", _awaits(span))


def unjudgeable(span: Span, reading: conventions.Reading, notes: Notes) -> Skipped | None:
    """Why the messages a convention gave for a span (and its records) give nothing to judge;
    None when they do."""
    outputs = reading.output_messages
    if not outputs and (failure := _failure(span)) is not None:
        return skip(span, SkipReason.CALL_FAILED, f"the call failed ({failure}): no answer")
    awaits = _awaits(span)
    if notes.texts_withheld:
        return skip(
            span,
            SkipReason.NO_CONTENT,
            f"the instrumentation hid {notes.texts_withheld} text(s) behind {REDACTED!r} "
            "(OpenInference's OPENINFERENCE_HIDE_INPUT_TEXT / _OUTPUT_TEXT)",
        )
    if notes.emptied_messages or notes.images_withheld:
        return skip(
            span,
            SkipReason.IMAGE_WITHHELD,
            "the instrumentation withheld content: "
            + (
                f"{notes.emptied_messages} input message(s) sent without parts (the official "
                "openai-v2 instrumentation drops list content, images and text alike)"
                if notes.emptied_messages
                else f"{notes.images_withheld} image(s) redacted, hidden or provider-side"
            ),
        )
    if notes.malformed and not (reading.input_messages and reading.output_messages):
        return skip(span, SkipReason.MALFORMED_CONTENT, "; ".join(notes.malformed[:3]))
    if not reading.input_messages:
        return skip(
            span,
            SkipReason.NO_CONTENT,
            "no input messages (OpenLLMetry drops an image call's input unless "
            "upload_base64_image=None)",
            awaits,
        )
    if not outputs:
        return skip(span, SkipReason.NO_CONTENT, "no output messages", awaits)
    if not any(message.parts for message in reading.input_messages):
        # Per-message events still arrive with capture off, each with an empty body, though a
        # choice keeps the names of the tools it called (without their arguments).
        return skip(
            span, SkipReason.NO_CONTENT, "the messages carry no content (capture is off?)", awaits
        )
    return None


def _awaits(span: Span) -> bool:
    """Whether log records sent apart may still bring a span's messages: not OpenInference's,
    which keeps every message on its span."""
    return "openinference.span.kind" not in span.attributes


def _failure(span: Span) -> str | None:
    """What a failed call's span says went wrong (its error.type, else its exception event's
    type); None when the span did not fail."""
    error_type = span.attributes.get("error.type")
    if isinstance(error_type, str) and error_type:
        return error_type
    if span.status_code != _STATUS_ERROR:
        return None
    for event in span.events:
        if event.name == "exception":
            kind = event.attributes.get("exception.type")
            if isinstance(kind, str) and kind:
                return kind
    return "status ERROR"
