"""What JSON Loupe takes, in any request body and in any uploaded JSONL line: at most MAX_DEPTH
levels of objects and arrays, no string or object key holding U+0000 or a lone surrogate, and
(in lines, which Python's json reads) no NaN, infinity, or integer past 64 bits, which the
body's streaming parser refuses already.

Python's json and every later step (storing as JSON, validating, rendering) recurse once per
level, so a body nested 1,000 deep ended as a RecursionError (a 500). No field Loupe takes needs
more than a few dozen levels; the limit names the first value past it.

PostgreSQL's text and jsonb cannot hold U+0000 (NUL), so a string with one reached the
database and failed there (a 500) in distributed mode while SQLite stored it. Such a string is
refused before anything is stored, in both modes, naming where it is.
"""

import io
import json
import math
import re
import sys
from typing import Any

import ijson

MAX_DEPTH = 64
NUL = "\x00"
# How U+0000 is written in JSON text: json.loads refuses a raw NUL inside a string.
_ESCAPED_NUL = "\\u0000"
# A surrogate can only come from an escape too (UTF-8 text cannot hold one); paired ones are
# joined by the parser, so a surrogate left in a string stood alone.
_ESCAPED_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")
# What a document must spell to hold NaN, an infinity, a float past a double's range (an
# exponent of three digits, or 309 digits before it) or an integer past 64 bits (19 digits or
# more); inside strings too, which costs a walk.
_SUSPECT_NUMBER = re.compile(r"NaN|Infinity|[eE]\+?0*[1-9]\d\d|\d{19}")
_INT64 = (-(2**63), 2**63 - 1)


class RefusedJson(ValueError):
    """A JSON document Loupe does not take; `path` leads to the value at fault, `code` says
    why (a problem's errors[].type)."""

    code = "invalid_json"

    def __init__(self, path: list[str | int], message: str) -> None:
        super().__init__(message)
        self.path = path


class TooDeep(RefusedJson):
    """A JSON document nested past MAX_DEPTH; `path` leads to the first container too deep."""

    code = "json_too_deep"

    def __init__(self, path: list[str | int]) -> None:
        super().__init__(
            path,
            f"nested deeper than {MAX_DEPTH} levels of objects and arrays (Loupe's limit for JSON)",
        )


class UnstorableText(RefusedJson):
    """A string, or an object key (`key`), holding what no stored text can; `path` leads to
    it: U+0000 (NulCharacter) or a lone UTF-16 surrogate (LoneSurrogate)."""

    what = "a character Loupe cannot store"

    def __init__(self, path: list[str | int], *, key: bool = False) -> None:
        holder = "the key" if key else "the text"
        super().__init__(path, f"{holder} holds {self.what}")
        self.key = key


class NulCharacter(UnstorableText):
    code = "nul_character"
    what = "U+0000 (NUL), which Loupe cannot store"


class LoneSurrogate(UnstorableText):
    # `"\ud800"` is valid JSON syntax but names no character: no UTF-8 text holds it, so it
    # failed where the row was written (a 500).
    code = "lone_surrogate"
    what = "a lone UTF-16 surrogate (a \\u escape of half a pair), which is no character"


class UnreadableNumber(RefusedJson):
    """A number no JSON Loupe stores can hold as it was written: NaN or an infinity (which
    RFC 8259 JSON has no words for, and which a JSON column stored as null), a literal too
    large for a double (read as an infinity), or an integer past 64 bits (read back as a
    float) or of more digits than Python converts; `path` leads to it. A request body's parser
    refuses them all as malformed."""

    code = "invalid_number"

    def __init__(self, path: list[str | int], literal: str) -> None:
        shown = literal if len(literal) <= 24 else f"{literal[:20]}... ({len(literal)} characters)"
        digits = literal.lstrip("-")
        if digits in ("NaN", "Infinity"):
            why = "JSON has no NaN or infinity; send null or a string"
        elif set(digits) <= set("0123456789") and len(digits) > sys.get_int_max_str_digits():
            why = (
                f"an integer of more than {sys.get_int_max_str_digits()} digits, more than "
                "Python reads; send it as a string"
            )
        elif set(digits) <= set("0123456789"):
            why = (
                "an integer past 64 bits, which would be read back as a float; send it as a string"
            )
        else:
            why = "too large for a double (it would be read as an infinity); send it as a string"
        super().__init__(path, f"the number {shown} cannot be stored: {why}")


class NumberTooLarge(RefusedJson):
    """A request body's number the parser cannot read (a literal past a double's range, or an
    integer past 64 bits); `path` leads to it. Valid JSON, so a 422 naming its field, as a
    value out of range is (a `daily_usd` of 1e400 was a 400 naming the body)."""

    code = "invalid_number"

    def __init__(self, path: list[str | int]) -> None:
        super().__init__(
            path,
            "a number too large to read (an integer must fit in 64 bits, any other number in a "
            "double); send it as a string if it is not meant as a number",
        )


class JsonGuard:
    """Follows an ijson event stream and raises TooDeep at the first container past
    MAX_DEPTH, or NulCharacter at the first string or key holding U+0000, with the path to it."""

    def __init__(self) -> None:
        # Per open container: the key or index of the value being read in it.
        self._path: list[str | int] = []
        self._in_array: list[bool] = []

    def next_path(self) -> list[str | int]:
        """The path of the value the parser is reading now (the next item of an array)."""
        path = list(self._path)
        if self._in_array and self._in_array[-1]:
            path[-1] = int(path[-1]) + 1
        return path

    def event(self, event: str, value: Any) -> None:
        if event == "map_key":
            self._path[-1] = value
            if NUL in value:
                raise NulCharacter(list(self._path), key=True)
            return
        if event in ("end_map", "end_array"):
            self._path.pop()
            self._in_array.pop()
            return
        if self._in_array and self._in_array[-1]:
            self._path[-1] = int(self._path[-1]) + 1
        if event == "string" and NUL in value:
            raise NulCharacter(list(self._path))
        if event in ("start_map", "start_array"):
            if len(self._path) >= MAX_DEPTH:
                raise TooDeep(list(self._path))
            array = event == "start_array"
            self._path.append(-1 if array else "")
            self._in_array.append(array)


def _too_deep(value: Any) -> bool:
    pending = [(value, 1)]
    while pending:
        node, depth = pending.pop()
        children = node.values() if isinstance(node, dict) else node
        if depth > MAX_DEPTH:
            return True
        pending.extend((c, depth + 1) for c in children if isinstance(c, (dict, list)))
    return False


class _Key(str):
    """An object key waiting in `first_unstorable`'s stack, checked before its value."""


def first_unstorable(value: Any) -> UnstorableText | None:
    """The first string or key (in document order) of a parsed JSON value holding U+0000 or a
    lone surrogate."""
    pending: list[tuple[Any, list[str | int]]] = [(value, [])]
    while pending:
        node, path = pending.pop()
        if isinstance(node, str):
            if NUL in node:
                return NulCharacter(path, key=isinstance(node, _Key))
            if _SURROGATE.search(node):
                return LoneSurrogate(path, key=isinstance(node, _Key))
        elif isinstance(node, dict):
            for key, item in reversed(node.items()):
                pending.append((item, [*path, key]))
                pending.append((_Key(key), [*path, key]))
        elif isinstance(node, list):
            pending.extend((item, [*path, i]) for i, item in reversed(list(enumerate(node))))
    return None


class _Number(str):
    """A number literal `loads` refuses, standing in its place while its path is looked for."""


def _int(literal: str) -> int | _Number:
    if len(literal) - literal.startswith("-") > sys.get_int_max_str_digits():
        return _Number(literal)
    number = int(literal)
    # Past 64 bits a JSON column's reader (orjson, app/jsonio.py) gives a float: a run graded
    # the file's 123456789012345678901234 as 1.2345678901234569e+23. A body refuses it too.
    return number if _INT64[0] <= number <= _INT64[1] else _Number(literal)


def _float(literal: str) -> float | _Number:
    number = float(literal)
    return number if math.isfinite(number) else _Number(literal)


def _unreadable_number(text: str) -> UnreadableNumber | None:
    """The first number of `text` (in document order) that Loupe refuses, with its path."""
    value = json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_Number)
    pending: list[tuple[Any, list[str | int]]] = [(value, [])]
    while pending:
        node, path = pending.pop()
        if isinstance(node, _Number):
            return UnreadableNumber(path, str(node))
        if isinstance(node, dict):
            pending.extend((item, [*path, key]) for key, item in reversed(node.items()))
        elif isinstance(node, list):
            pending.extend((item, [*path, i]) for i, item in reversed(list(enumerate(node))))
    return None


def loads(text: str) -> Any:
    """`json.loads`, raising TooDeep for a document nested past MAX_DEPTH, NulCharacter (or
    LoneSurrogate) for one holding U+0000 (or half a surrogate pair), and UnreadableNumber for
    NaN, an infinity or an integer too long to read (all RefusedJson, a ValueError)."""
    try:
        value = json.loads(text)
    except RecursionError:
        pass  # far too deep for Python's parser; find where below
    except json.JSONDecodeError:
        raise
    except ValueError:
        # An integer of more digits than Python converts (a 500 where the line was read).
        try:
            unreadable = _unreadable_number(text)
        except RecursionError:
            pass  # nested too deep as well, further on; find where below
        else:
            if unreadable is None:
                raise
            raise unreadable from None
    else:
        # Only a document spelling one of them can hold a number Loupe refuses.
        if _SUSPECT_NUMBER.search(text) is not None:
            unreadable = _unreadable_number(text)
            if unreadable is not None:
                raise unreadable
        if isinstance(value, (dict, list)) and _too_deep(value):
            pass  # find where below
        else:
            # Only a document with one of the escapes can hold either; most are never walked.
            escaped = _ESCAPED_NUL in text or _ESCAPED_SURROGATE.search(text) is not None
            unstorable = first_unstorable(value) if escaped else None
            if unstorable is not None:
                raise unstorable
            return value
    guard = JsonGuard()
    try:
        for event, item in ijson.basic_parse(io.BytesIO(text.encode()), use_float=True):
            guard.event(event, item)
    except ijson.JSONError:
        # What the streaming parser refuses before it reaches the depth (NaN, an integer past
        # 64 bits): the document is too deep all the same, as Python's parser found.
        pass
    raise TooDeep([])
