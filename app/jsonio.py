"""JSON on the judge's hot path: orjson, with the standard library's answers where they differ.

A judge call serialises its request, parses the provider's reply and the judge's answer, and
its result and cache rows are written out for the database: with the standard library's `json`
that was about a tenth of a worker's CPU per call (docs/benchmarks.md, issue 31); orjson does
the same work in C several times faster. Where orjson refuses what `json` takes (integers past
64 bits when writing; NaN, lone surrogates, a byte order mark or more than 1,024 levels when
reading) the standard library does it, so every caller sees `json`'s behaviour and errors.
"""

import json
from typing import Any

import orjson

# Keys that are not strings are written as `json` writes them (their str()), not refused.
_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(value: Any) -> bytes:
    """`value` as compact UTF-8 JSON (non-ASCII characters as they are, not escaped)."""
    try:
        return orjson.dumps(value, option=_OPTIONS)
    except TypeError:  # orjson.JSONEncodeError: past 64 bits, or a type JSON cannot write
        return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def dumps_text(value: Any) -> str:
    """`dumps` as a str (for SQLite's JSON columns, stored as text)."""
    return dumps(value).decode()


def loads(text: str | bytes) -> Any:
    """`json.loads`: what orjson refuses is handed to the standard library, whose result or
    error (JSONDecodeError, RecursionError) the caller gets."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)
