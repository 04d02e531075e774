"""Log lines: readable text by default, one JSON object per line with LOUPE_LOG_FORMAT=json.

Lifecycle events carry their fields (`evaluation_id`, `tenant_id`, `request_id`, ...) as the
record's `extra`; the request id of the HTTP request being served is added from a context
variable. Known secrets (API keys, the secret key) are replaced before a line is written.
"""

import contextvars
import json
import logging
import sys
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

# The X-Request-Id of the request this code runs for (None outside a request).
request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "loupe_request_id", default=None
)

# Attributes every LogRecord has; anything else on a record came from `extra`.
_RECORD_FIELDS = frozenset(
    vars(logging.LogRecord("", 0, "", 0, "", (), None)).keys() | {"message", "asctime"}
)
_REDACTED = "[redacted]"
_secrets: set[str] = set()
# Libraries that log a line per request: a judge call must not cost a log line.
_NOISY = ("httpx", "httpcore", "openai", "aiohttp", "urllib3")


def add_secrets(values: Iterable[str | None]) -> None:
    """Never write these strings in a log line (short ones would mangle ordinary words)."""
    _secrets.update(value for value in values if value and len(value) >= 8)


def _redact(text: str) -> str:
    for secret in _secrets:
        if secret in text:
            text = text.replace(secret, _REDACTED)
    return text


def _fields(record: logging.LogRecord) -> dict[str, Any]:
    fields = {k: v for k, v in vars(record).items() if k not in _RECORD_FIELDS}
    if "request_id" not in fields:
        current = request_id.get()
        if current is not None:
            fields["request_id"] = current
    return fields


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, event (the message) and its fields."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "event": record.getMessage(),
            **_fields(record),
        }
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return _redact(json.dumps(line, default=str, ensure_ascii=False))


class TextFormatter(logging.Formatter):
    """`time level logger message key=value ...`, for people reading a terminal."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        fields = _fields(record)
        if fields:
            pairs = " ".join(f"{key}={value}" for key, value in fields.items())
            first, newline, rest = text.partition("\n")
            text = f"{first} {pairs}{newline}{rest}"
        return _redact(text)


def configure(log_format: str, level: str = "INFO", secrets: Iterable[str | None] = ()) -> None:
    """Send the process's logs to stderr in `log_format` ("text" or "json")."""
    add_secrets(secrets)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if log_format == "json" else TextFormatter())
    root = logging.getLogger()
    for existing in list(root.handlers):
        if getattr(existing, "_loupe", False):
            root.removeHandler(existing)
    handler._loupe = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(level.upper())
    for name in _NOISY:
        logging.getLogger(name).setLevel(logging.WARNING)
