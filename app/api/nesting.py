"""How deep JSON may nest: at most MAX_DEPTH levels of objects and arrays, in any request body
and in any uploaded JSONL line.

Python's json and every later step (storing as JSON, validating, rendering) recurse once per
level, so a body nested 1,000 deep ended as a RecursionError (a 500). No field Loupe takes needs
more than a few dozen levels; the limit names the first value past it.
"""

import io
import json
from typing import Any

import ijson

MAX_DEPTH = 64


class TooDeep(ValueError):
    """A JSON document nested past MAX_DEPTH; `path` leads to the first container too deep."""

    def __init__(self, path: list[str | int]) -> None:
        super().__init__(
            f"nested deeper than {MAX_DEPTH} levels of objects and arrays (Loupe's limit for JSON)"
        )
        self.path = path


class DepthGuard:
    """Follows an ijson event stream and raises TooDeep at the first container past
    MAX_DEPTH, with the path to it."""

    def __init__(self) -> None:
        # Per open container: the key or index of the value being read in it.
        self._path: list[str | int] = []
        self._in_array: list[bool] = []

    def event(self, event: str, value: Any) -> None:
        if event == "map_key":
            self._path[-1] = value
            return
        if event in ("end_map", "end_array"):
            self._path.pop()
            self._in_array.pop()
            return
        if self._in_array and self._in_array[-1]:
            self._path[-1] = int(self._path[-1]) + 1
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


def loads(text: str) -> Any:
    """`json.loads`, raising TooDeep (a ValueError) for a document nested past MAX_DEPTH."""
    try:
        value = json.loads(text)
    except RecursionError:
        pass  # far too deep for Python's parser; find where below
    else:
        if not isinstance(value, (dict, list)) or not _too_deep(value):
            return value
    guard = DepthGuard()
    for event, item in ijson.basic_parse(io.BytesIO(text.encode()), use_float=True):
        guard.event(event, item)
    raise TooDeep([])  # unreachable: the guard raised on the same document
