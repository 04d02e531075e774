"""OTLP/HTTP export requests read into the model calls Loupe judges.

Pure: no database, FastAPI or domain imports. Decoding (protobuf or OTLP/JSON, gzip or deflate
with a cap on the decompressed size) gives flat Span and LogRecord values; `judged_calls` maps
every message convention the instrumentations emit to a JudgedCall, or a Skipped with its reason.
"""

from app.otlp._body import Decompressor, content_encoding, decompress
from app.otlp._calls import (
    JudgedCall,
    Unread,
    judged_calls,
    message_record,
    model_of,
    operation_of,
    provider_of,
)
from app.otlp._content import Image, Message, Text, ToolCall, ToolResult, decode_json
from app.otlp._decode import (
    DEFAULT_MAX_BODY,
    JSON,
    PROTOBUF,
    Traces,
    decode_logs,
    decode_traces,
    media_type,
    read_traces,
)
from app.otlp._documents import is_retrieval, retrieval_documents
from app.otlp._errors import (
    BodyTooLarge,
    OtlpDecodeError,
    UnsupportedContentEncoding,
    UnsupportedContentType,
)
from app.otlp._limits import DEFAULT_LIMITS, Limits
from app.otlp._packing import pack, unpack_record, unpack_span
from app.otlp._records import LogRecord, Span, SpanEvent, id_problem, plain_value
from app.otlp._skips import Skipped, SkipReason

__all__ = [
    "DEFAULT_LIMITS",
    "DEFAULT_MAX_BODY",
    "JSON",
    "PROTOBUF",
    "BodyTooLarge",
    "Decompressor",
    "Image",
    "JudgedCall",
    "Limits",
    "LogRecord",
    "Message",
    "OtlpDecodeError",
    "SkipReason",
    "Skipped",
    "Span",
    "SpanEvent",
    "Text",
    "ToolCall",
    "ToolResult",
    "Traces",
    "Unread",
    "UnsupportedContentEncoding",
    "UnsupportedContentType",
    "content_encoding",
    "decode_json",
    "decode_logs",
    "decode_traces",
    "decompress",
    "id_problem",
    "is_retrieval",
    "judged_calls",
    "media_type",
    "message_record",
    "model_of",
    "operation_of",
    "provider_of",
    "pack",
    "plain_value",
    "read_traces",
    "retrieval_documents",
    "unpack_record",
    "unpack_span",
]
