"""Log lines: readable text by default, one JSON object per line with LOUPE_LOG_FORMAT=json.

Lifecycle events carry their fields (`evaluation_id`, `tenant_id`, `request_id`, ...) as the
record's `extra`; the request id of the HTTP request being served is added from a context
variable. Secrets are replaced before a line is written: the operator's (API keys, the secret
key, store passwords), the keys of the model endpoints the process is calling, and anything
shaped like a Loupe API key or a bearer token (a client may send its key as a query parameter
or a request id), and OAuth codes, states and tokens in a URL's query.
"""

import contextvars
import json
import logging
import re
import sys
import threading
from collections import Counter
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
# Extras libraries add that are no field of ours: uvicorn's copy of its message with ANSI
# colour escapes.
_DROPPED_FIELDS = frozenset({"color_message"})
REDACTED = "[redacted]"
# Libraries that log a line per request: a judge call must not cost a log line.
_NOISY = ("httpx", "httpcore", "openai", "aiohttp", "urllib3")
# Tenants' API keys are "lp_" + 43 URL-safe characters (app/tenants/service.py). Twenty or more
# after the prefix: the 10-character prefix `loupe keys list` shows stays readable.
_SHAPED = re.compile(
    r"(?<![A-Za-z0-9_-])lp_[A-Za-z0-9_-]{20,}"
    # The credential of an Authorization header, wherever a provider or library echoes it.
    r"|(?<=[Bb]earer )[^\s\"',;}\]]{8,}"
    # An OAuth authorization code, state or token in a URL's query, as the access log writes
    # the identity provider's redirect back (/console/oidc/callback?code=...&state=...).
    + "".join(
        rf"|(?<=[?&]{name}=)[^&\s\"'#]+"
        for name in ("code", "state", "session_state", "id_token", "access_token", "refresh_token")
    )
)
# Characters that would end a text line, or steer a terminal, in a message or a field: shown
# escaped so provider text cannot forge a separate line. Tab stays.
_CONTROL = {
    code: f"\\x{code:02x}" for code in [*range(0x20), 0x7F, *range(0x80, 0xA0)] if code != 0x09
}
_CONTROL.update({0x0A: "\\n", 0x0D: "\\r", 0x2028: "\\u2028", 0x2029: "\\u2029"})


class _Secrets:
    """Strings no line may hold: the operator's for good, endpoints' keys while in use."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._permanent: set[str] = set()
        self._held: Counter[str] = Counter()
        self._pattern: re.Pattern[str] | None = None

    def add(self, values: Iterable[str | None]) -> None:
        with self._lock:
            self._permanent.update(value for value in values if _worth_hiding(value))
            self._pattern = None

    def hold(self, value: str | None) -> None:
        if not _worth_hiding(value):
            return
        with self._lock:
            self._held[value] += 1  # type: ignore[index]
            self._pattern = None

    def release(self, value: str | None) -> None:
        if not _worth_hiding(value):
            return
        with self._lock:
            self._held[value] -= 1  # type: ignore[index]
            if self._held[value] <= 0:  # type: ignore[index]
                del self._held[value]  # type: ignore[arg-type]
            self._pattern = None

    def pattern(self) -> re.Pattern[str] | None:
        pattern = self._pattern
        if pattern is not None:
            return pattern
        with self._lock:
            values = self._permanent | set(self._held)
            if not values:
                return None
            # Longest first: a secret containing another is replaced whole.
            ordered = sorted(values, key=len, reverse=True)
            self._pattern = re.compile("|".join(re.escape(value) for value in ordered))
            return self._pattern


def _worth_hiding(value: str | None) -> bool:
    # Short values would mangle ordinary words.
    return bool(value) and len(value) >= 8  # type: ignore[arg-type]


_secrets = _Secrets()


def add_secrets(values: Iterable[str | None]) -> None:
    """Never write these strings in a log line (short ones would mangle ordinary words)."""
    _secrets.add(values)


def hold_secret(value: str | None) -> None:
    """Redact `value` until as many release_secret calls (a model endpoint's key in use)."""
    _secrets.hold(value)


def release_secret(value: str | None) -> None:
    _secrets.release(value)


def redact(text: str, *also: str | None) -> str:
    """`text` with every known secret, every `also` value and anything shaped like a Loupe
    API key or bearer token replaced by [redacted]."""
    for value in also:
        if _worth_hiding(value) and value in text:  # type: ignore[operator]
            text = text.replace(value, REDACTED)  # type: ignore[arg-type]
    pattern = _secrets.pattern()
    if pattern is not None:
        text = pattern.sub(REDACTED, text)
    return _SHAPED.sub(REDACTED, text)


def escape_controls(text: str) -> str:
    """`text` with line breaks and other control characters written as escapes."""
    return text.translate(_CONTROL)


def _fields(record: logging.LogRecord) -> dict[str, Any]:
    fields = {
        k: v
        for k, v in vars(record).items()
        if k not in _RECORD_FIELDS and k not in _DROPPED_FIELDS
    }
    if "request_id" not in fields:
        current = request_id.get()
        if current is not None:
            fields["request_id"] = current
    return fields


def _redacted(value: Any) -> Any:
    """A field value with its secrets replaced, as JSON types (redacted before serialising:
    json.dumps escapes quotes and backslashes, after which a secret holding one no longer
    matches)."""
    if isinstance(value, str):
        return redact(value)
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, dict):
        return {redact(str(key)): _redacted(item) for key, item in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_redacted(item) for item in value]
    return redact(str(value))


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
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(_redacted(line), ensure_ascii=False)


# A field value is quoted (logfmt) when it would otherwise read as more than one value.
_NEEDS_QUOTES = re.compile(r'[\s"=]|^$')


def _text_value(value: Any) -> str:
    value = _redacted(value)
    # Containers as JSON: repr() would double the backslashes of what was redacted from.
    text = json.dumps(value, ensure_ascii=False) if isinstance(value, dict | list) else str(value)
    if _NEEDS_QUOTES.search(text):
        text = '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return escape_controls(text)


class TextFormatter(logging.Formatter):
    """`time level logger message key=value ...`, for people reading a terminal.

    One record is one line: line breaks in the message or a field are escaped (`\\n`), so text
    from a provider cannot forge a line. A traceback follows on lines of its own, indented,
    so every line that starts at the margin is a record's.
    """

    def format(self, record: logging.LogRecord) -> str:
        message = escape_controls(redact(record.getMessage()))
        line = f"{self.formatTime(record)} {record.levelname} {record.name} {message}"
        fields = _fields(record)
        if fields:
            pairs = " ".join(
                f"{escape_controls(redact(str(key)))}={_text_value(value)}"
                for key, value in fields.items()
            )
            line = f"{line} {pairs}"
        trailer = []
        if record.exc_info:
            trailer.append(self.formatException(record.exc_info))
        if record.stack_info:
            trailer.append(self.formatStack(record.stack_info))
        for block in trailer:
            for part in redact(block).split("\n"):
                line += "\n    " + escape_controls(part)
        return line


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
