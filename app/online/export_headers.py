"""A rule's `export_headers`: what its own collector is sent to authenticate each export
(`x-honeycomb-team`, `Authorization: Basic ...`, `DD-API-KEY`). The values are secrets: checked
without ever being repeated, stored as one Fernet token (app/crypto.py, LOUPE_SECRET_KEY) beside
their names in clear, and opened only by the export job. Responses, pages, the audit trail and
log lines name the headers, never their values.
"""

import json
import re
from collections.abc import Mapping
from typing import Any

from app import crypto
from app.config import Settings
from app.models import OnlineRule
from app.problems import FieldError, field_error

FIELD = "export_headers"
MAX_HEADERS = 16
MAX_NAME = 128
MAX_VALUE = 4096
# Names and values together: collectors and their proxies refuse requests whose headers pass
# 8 KiB, the common default of nginx, Envoy and Go's net/http.
MAX_TOTAL_BYTES = 8192
# Hop-by-hop and framing headers, and those the exporter or the pinned connection sets: a
# tenant's value would break the request or redirect it (Host names the checked origin).
RESERVED = frozenset(
    {
        "host",
        "content-length",
        "content-type",
        "content-encoding",
        "transfer-encoding",
        "connection",
        "keep-alive",
        "proxy-connection",
        "proxy-authorization",
        "proxy-authenticate",
        "te",
        "trailer",
        "upgrade",
        "expect",
    }
)
# RFC 9110 section 5.6.2: token = 1*tchar.
_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
# Visible ASCII, spaces and tabs inside (RFC 9110 field-content, obs-text left out: a secret
# with other bytes is a paste gone wrong); no CR, LF, NUL or other control character.
_VALUE = re.compile(r"[\x21-\x7e](?:[\x20-\x7e\t]*[\x21-\x7e])?")


def problems(headers: Any, endpoint_set: bool) -> list[FieldError]:
    """What is wrong with a body's `export_headers` (None: none given), each fault at its
    header's path; a value is never quoted.

    Args:
        endpoint_set: the rule has (or gets) its own `export_endpoint`, the only collector
            the headers are sent to.
    """
    if headers is None:
        return []
    if not isinstance(headers, Mapping):
        return [field_error([FIELD], "must be an object of header names to values", "dict_type")]
    errors: list[FieldError] = []
    if headers and not endpoint_set:
        errors.append(
            field_error(
                [FIELD],
                "export_headers are sent to the rule's own export_endpoint only: set one",
                "export_endpoint_missing",
            )
        )
    if len(headers) > MAX_HEADERS:
        errors.append(
            field_error([FIELD], f"at most {MAX_HEADERS} headers, not {len(headers)}", "too_long")
        )
    seen: dict[str, str] = {}
    total = 0
    for name, value in headers.items():
        path: list[str | int] = [FIELD, name]
        total += len(str(name).encode()) + len(str(value).encode())
        fault = _name_problem(name) or _value_problem(value)
        if fault is None and name.lower() in seen:
            fault = f"the same header as {seen[name.lower()]!r}: names are case-insensitive"
        if fault is not None:
            errors.append(field_error(path, fault, "invalid_header"))
        seen.setdefault(str(name).lower(), str(name))
    if total > MAX_TOTAL_BYTES:
        errors.append(
            field_error(
                [FIELD],
                f"names and values together take at most {MAX_TOTAL_BYTES} bytes",
                "too_long",
            )
        )
    return errors


def moved_problems(rule: OnlineRule, endpoint: str | None, headers_given: bool) -> list[FieldError]:
    """A change sending the rule's scores to another collector while it keeps its headers:
    refused, so a key is never sent to a collector it was not given for (whoever may change
    the endpoint cannot read the values, and must not be able to collect them)."""
    if headers_given or not endpoint or rule.export_headers_encrypted is None:
        return []
    if endpoint == rule.export_endpoint:
        return []
    return [
        field_error(
            [FIELD],
            "the rule's export_headers were given for its current export_endpoint: give them "
            "again with another endpoint, or remove them (null)",
            "export_headers_required",
        )
    ]


def _name_problem(name: str) -> str | None:
    if len(name) > MAX_NAME:
        return f"a header name takes at most {MAX_NAME} characters"
    if not _TOKEN.fullmatch(name):
        return (
            "not a header name: an RFC 9110 token (letters, digits and !#$%&'*+-.^_`|~), "
            "without ':' or spaces"
        )
    if name.lower() in RESERVED:
        return f"{name!r} is set by the exporter or the connection, not by a rule"
    return None


def _value_problem(value: Any) -> str | None:
    if not isinstance(value, str):
        return "the value must be a string"
    if len(value) > MAX_VALUE:
        return f"the value takes at most {MAX_VALUE} characters"
    if not value:
        return "the value is empty: leave the header out"
    if not _VALUE.fullmatch(value):
        return (
            "the value must be visible ASCII characters, spaces and tabs, without leading or "
            "trailing whitespace (no CR, LF, NUL or other control character)"
        )
    return None


def seal(rule: OnlineRule, settings: Settings, headers: Mapping[str, str] | None) -> None:
    """Keep `headers` on the rule, their values encrypted; None or {}: none."""
    if not headers:
        rule.export_header_names = None
        rule.export_headers_encrypted = None
        return
    rule.export_header_names = list(headers)
    rule.export_headers_encrypted = crypto.encrypt(settings, json.dumps(dict(headers)))


def opened(rule: OnlineRule, settings: Settings) -> dict[str, str]:
    """The rule's headers with their values; raises crypto.SecretUnavailable when this
    process's LOUPE_SECRET_KEY is not the one they were stored with."""
    if rule.export_headers_encrypted is None:
        return {}
    return dict(json.loads(crypto.decrypt(settings, rule.export_headers_encrypted)))


def names(rule: OnlineRule) -> list[str]:
    """The names of the headers the rule's collector is sent (their values are never shown)."""
    return list(rule.export_header_names or [])


def unreadable_warning(rule: OnlineRule, settings: Settings) -> str | None:
    """Why the rule's export is held back when its headers cannot be decrypted, else None."""
    if rule.export_headers_encrypted is None or not rule.export_endpoint:
        return None
    try:
        opened(rule, settings)
    except crypto.SecretUnavailable:
        return (
            "scores are not exported: the export_headers cannot be decrypted with this "
            "server's LOUPE_SECRET_KEY (not the key they were stored with); set them again, "
            "the results waiting are sent then"
        )
    return None
