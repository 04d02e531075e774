"""Pull the JSON object out of what a judge wrote (fences, prose, trailing commas)."""

import json
import re
from typing import Any

from app import jsonio

_TRAILING_COMMA = re.compile(r",\s*([\]}])")


# Deeper than any answer a schema asks for, and than Loupe takes in a request body: past it
# Python's parser, and every step after it that recurses per level, ends in RecursionError.
MAX_JSON_DEPTH = 64


class JSONExtractionError(ValueError):
    pass


class JSONTooDeep(ValueError):
    """A JSON document nested past MAX_JSON_DEPTH levels of objects and arrays."""

    def __init__(self) -> None:
        super().__init__(f"nested deeper than {MAX_JSON_DEPTH} levels of objects and arrays")


def loads_shallow(text: str | bytes) -> Any:
    """`json.loads`, raising JSONTooDeep (a ValueError) for a document nested past
    MAX_JSON_DEPTH instead of a RecursionError (or a value that later steps cannot walk)."""
    try:
        value = jsonio.loads(text)
    except RecursionError:
        raise JSONTooDeep() from None
    # A document with no more brackets than the limit cannot nest past it: the walk below
    # costs more than the parse on a judge's reply (counted in C).
    opened = (
        text.count(b"{") + text.count(b"[")
        if isinstance(text, bytes)
        else text.count("{") + text.count("[")
    )
    if opened > MAX_JSON_DEPTH and _nests_past_limit(text):
        raise JSONTooDeep()
    return value


# A JSON string (the document parsed, so every one is well formed), and every byte that is not
# a bracket.
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKETS = bytes(byte for byte in range(256) if byte not in b"[]{}")


def _nests_past_limit(text: str | bytes) -> bool:
    """Whether a parsed document nests past MAX_JSON_DEPTH: its brackets outside strings, with
    the innermost pairs removed once per level (each step in C; a walk over every node of a
    reply with logprobs cost more than its parse)."""
    data = text.encode() if isinstance(text, str) else text
    # Without an escaped quote, every other piece between quotes is a string's content.
    outside = _STRING.sub(b"", data) if b'\\"' in data else b"".join(data.split(b'"')[::2])
    brackets = outside.translate(None, _NOT_BRACKETS)
    for _ in range(MAX_JSON_DEPTH):
        if not brackets:
            return False
        # One pass removes only pairs that were innermost before it (one level): a removed
        # pair leaves a NUL until the pass ends, so the brackets around it do not meet yet.
        brackets = brackets.replace(b"{}", b"\0").replace(b"[]", b"\0").replace(b"\0", b"")
    return bool(brackets)


# A UTF-16 surrogate, or a `\u` escape of one, in what the judge wrote.
_SURROGATE = re.compile(r"[\ud800-\udfff]|\\u[dD][89a-fA-F]")


def whole_characters(value: Any) -> Any:
    """`value` with every lone UTF-16 surrogate in its strings replaced by U+FFFD: no text
    encoding holds one, so a reason with half an emoji could never be stored (the job failed
    its write over and over, the evaluation stuck)."""
    if isinstance(value, str):
        if not _SURROGATE.search(value):
            return value
        # Through UTF-16, a pair written as two escapes becomes its character again.
        return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    if isinstance(value, list):
        return [whole_characters(item) for item in value]
    if isinstance(value, dict):
        return {whole_characters(key): whole_characters(item) for key, item in value.items()}
    return value


def extract_json_object(text: str | None) -> dict[str, Any]:
    """The first-to-last-brace JSON object in `text`; raises JSONExtractionError."""
    if not text:
        raise JSONExtractionError("the judge returned no content")
    if _SURROGATE.search(text):
        return whole_characters(_extract(whole_characters(text)))
    return _extract(text)


def _extract(text: str) -> dict[str, Any]:
    start = text.find("{")
    if start == -1:
        raise JSONExtractionError("the judge's reply contains no JSON object")
    end = text.rfind("}")
    candidate = text[start : end + 1] if end > start else text[start:] + "}"
    # Made one at a time, as each is needed: closing what is open walks the reply a character
    # at a time, and nearly every reply parses as it came.
    attempts = (
        lambda: candidate,
        lambda: _TRAILING_COMMA.sub(r"\1", candidate),
        # A reply cut off by max_tokens: close what is still open.
        lambda: _TRAILING_COMMA.sub(r"\1", _close_open(text[start:])),
    )
    for make in attempts:
        attempt = make()
        try:
            value = loads_shallow(attempt)
        except JSONTooDeep as exc:
            raise JSONExtractionError(f"the judge's reply is JSON {exc}") from None
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            return value
        raise JSONExtractionError("the judge's reply is JSON but not an object")
    raise JSONExtractionError("the judge's reply is not valid JSON")


def _close_open(text: str) -> str:
    """`text` with its unclosed strings, arrays and objects closed, in order."""
    stack: list[str] = []
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "{[":
            stack.append("}" if char == "{" else "]")
        elif char in "}]" and stack and stack[-1] == char:
            stack.pop()
    return text + ('"' if in_string else "") + "".join(reversed(stack))
