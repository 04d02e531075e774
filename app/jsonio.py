"""JSON on the judge's hot path: orjson, with the standard library's answers where they differ.

A judge call serialises its request, parses the provider's reply and the judge's answer, and
its result and cache rows are written out for the database: with the standard library's `json`
that was about a tenth of a worker's CPU per call (docs/benchmarks.md, issue 31); orjson does
the same work in C several times faster. Where orjson refuses what `json` takes (integers past
64 bits when writing; NaN, lone surrogates, a byte order mark or more than 1,024 levels when
reading) the standard library does it, so callers see `json`'s results and errors. Two
differences remain: a NaN or infinity is written as null (`json` writes NaN, which PostgreSQL's
jsonb refuses), and an integer past 64 bits is read as a float.
"""

import json
import re
from datetime import UTC, datetime
from typing import Any

import orjson

# Keys that are not strings are written as `json` writes them (their str()), not refused.
_OPTIONS = orjson.OPT_NON_STR_KEYS
_SURROGATE = re.compile("[\ud800-\udfff]")


def dumps(value: Any) -> bytes:
    """`value` as compact UTF-8 JSON (non-ASCII characters as they are, not escaped).

    A lone surrogate in a string (no UTF-8 text holds one) is written as U+FFFD: requests that
    carry one are refused where they are read, so only a model's output can bring one here,
    and like its U+0000 it is kept as the replacement character rather than fail the write.
    """
    try:
        return orjson.dumps(value, option=_OPTIONS)
    except TypeError:  # orjson.JSONEncodeError: past 64 bits, a lone surrogate, another type
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        return _SURROGATE.sub("\ufffd", text).encode()


def dumps_text(value: Any) -> str:
    """`dumps` as a str."""
    return dumps(value).decode()


# What a model's U+0000 (NUL) is stored as: PostgreSQL's text and jsonb cannot hold it (a job
# storing a judge's reason with one failed, in distributed mode only). Requests are refused
# for it at parsing; model output cannot be, so it is replaced, alike on both databases.
NUL_STANDIN = "\ufffd"


def without_nul(value: Any) -> Any:
    """`value` with U+0000 replaced in every string (keys and nested values too)."""
    if isinstance(value, str):
        return value.replace("\x00", NUL_STANDIN) if "\x00" in value else value
    if isinstance(value, dict):
        return {without_nul(k): without_nul(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [without_nul(item) for item in value]
    return value


def dumps_stored(value: Any) -> bytes:
    """`dumps` for a JSON column (the engine's serializer): a U+0000 anywhere in `value` is
    stored as NUL_STANDIN. Looked for in what was written (JSON escapes it), so nearly every
    value is written once and walked never."""
    written = dumps(value)
    if b"\\u0000" in written:
        # Or a backslash written before "u0000": the walk finds nothing and changes nothing.
        written = dumps(without_nul(value))
    return written


def dumps_stored_text(value: Any) -> str:
    """`dumps_stored` as a str (SQLite's JSON columns are text)."""
    return dumps_stored(value).decode()


def loads(text: str | bytes) -> Any:
    """`json.loads`: what orjson refuses is handed to the standard library, whose result or
    error (JSONDecodeError, RecursionError) the caller gets."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


def utc_text(moment: datetime) -> str:
    """A moment as the API writes it (pydantic's form): UTC, ending in `Z`, not `+00:00`; what
    webhook payloads carry too, so a receiver parses one form."""
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")
