"""The bounds every reader of untrusted telemetry keeps, whatever the body holds."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """How much of a span the readers look at; past these, the rest is dropped and noted."""

    # Nesting of arrays and kvlists (and of JSON inside a string) read before a value is cut.
    max_depth: int = 16
    # Items read from one array or kvlist value.
    max_items: int = 4096
    # Attributes read from one span, event or log record (the SDK keeps 128 by default).
    max_attributes: int = 4096
    # Events read from one span.
    max_events: int = 1024
    # Messages kept per call: the latest ones, as the end of a conversation is what is judged.
    max_messages: int = 512
    # Parts read from one message.
    max_parts: int = 256
    # Images kept per call.
    max_images: int = 32
    # Tool calls kept per message.
    max_tool_calls: int = 128
    # Documents kept per retrieval span.
    max_documents: int = 256
    # A JSON string attribute (gen_ai.input.messages, ...) longer than this is not parsed.
    max_json_chars: int = 64 * 1024 * 1024
    # Nesting of a JSON document in the body (OTLP/JSON) before it is refused.
    max_json_depth: int = 160
    # Nesting of one span in OTLP/JSON before it alone is rejected: below what protobuf's JSON
    # parser takes (100 messages; an arrayValue in an arrayValue is 3 JSON levels and 2
    # messages, a kvlistValue's 4 and 3), and far below what the readers read (`max_depth`).
    max_span_json_depth: int = 120


DEFAULT_LIMITS = Limits()
