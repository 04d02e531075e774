"""What JSON Loupe takes, in any request body and in any uploaded JSONL line: at most MAX_DEPTH
levels of objects and arrays, and no string or object key holding U+0000.

Python's json and every later step (storing as JSON, validating, rendering) recurse once per
level, so a body nested 1,000 deep ended as a RecursionError (a 500). No field Loupe takes needs
more than a few dozen levels; the limit names the first value past it.

PostgreSQL's text and jsonb cannot hold U+0000 (NUL), so a string with one reached the
database and failed there (a 500) in distributed mode while SQLite stored it. Such a string is
refused before anything is stored, in both modes, naming where it is.
"""

import io
import json
from typing import Any

import ijson

MAX_DEPTH = 64
NUL = "\x00"
# How U+0000 is written in JSON text: json.loads refuses a raw NUL inside a string.
_ESCAPED_NUL = "\\u0000"


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


class NulCharacter(RefusedJson):
    """A string, or an object key (`key`), holding U+0000; `path` leads to it."""

    code = "nul_character"

    def __init__(self, path: list[str | int], *, key: bool = False) -> None:
        what = "the key" if key else "the text"
        super().__init__(path, f"{what} holds U+0000 (NUL), which Loupe cannot store")
        self.key = key


class JsonGuard:
    """Follows an ijson event stream and raises TooDeep at the first container past
    MAX_DEPTH, or NulCharacter at the first string or key holding U+0000, with the path to it."""

    def __init__(self) -> None:
        # Per open container: the key or index of the value being read in it.
        self._path: list[str | int] = []
        self._in_array: list[bool] = []

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
    """An object key waiting in `first_nul`'s stack, checked before its value."""


def first_nul(value: Any) -> NulCharacter | None:
    """The first string or key (in document order) of a parsed JSON value holding U+0000."""
    pending: list[tuple[Any, list[str | int]]] = [(value, [])]
    while pending:
        node, path = pending.pop()
        if isinstance(node, str):
            if NUL in node:
                return NulCharacter(path, key=isinstance(node, _Key))
        elif isinstance(node, dict):
            for key, item in reversed(node.items()):
                pending.append((item, [*path, key]))
                pending.append((_Key(key), [*path, key]))
        elif isinstance(node, list):
            pending.extend((item, [*path, i]) for i, item in reversed(list(enumerate(node))))
    return None


def loads(text: str) -> Any:
    """`json.loads`, raising TooDeep for a document nested past MAX_DEPTH and NulCharacter for
    one holding U+0000 (both RefusedJson, a ValueError)."""
    try:
        value = json.loads(text)
    except RecursionError:
        pass  # far too deep for Python's parser; find where below
    else:
        if isinstance(value, (dict, list)) and _too_deep(value):
            pass  # find where below
        else:
            # Only a document with the escape can hold NUL; most are never walked.
            nul = first_nul(value) if _ESCAPED_NUL in text else None
            if nul is not None:
                raise nul
            return value
    guard = JsonGuard()
    for event, item in ijson.basic_parse(io.BytesIO(text.encode()), use_float=True):
        guard.event(event, item)
    raise TooDeep([])  # unreachable: the guard raised on the same document
