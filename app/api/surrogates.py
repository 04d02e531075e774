"""Lone UTF-16 surrogates in a JSON body's `\\u` escapes, found as the body streams in.

JSON text may name a character outside the Basic Multilingual Plane as a pair of escapes
(`"\\ud83d\\ude00"`); a high surrogate escape without its low half names no character at all.
The streaming parser (ijson's C backend) turns one into `?` without a word, so the text stored
would not be the text sent. A lone low surrogate already fails there (no UTF-8 for it). This
scan finds the high ones in the raw bytes so the request is refused instead.

The scan jumps from one `\\uD8..`-`\\uDB..` to the next with a regular expression (linear, no
backtracking) and keeps only a few bytes between chunks, so an escape split across chunks is
still seen, and whether a backslash escapes the next one is known across the cut too.
"""

import re

# A high-surrogate escape's six bytes, and a low one's.
_HIGH = re.compile(rb"\\u[dD][89abAB][0-9a-fA-F]{2}")
_LOW = re.compile(rb"\\u[dD][c-fC-F][0-9a-fA-F]{2}")
# A high escape and the low escape that must follow it.
_PAIR = 12


class LoneSurrogate(ValueError):
    """A high surrogate escape at this byte offset with no low surrogate after it."""

    def __init__(self, offset: int, escape: bytes) -> None:
        self.offset = offset
        super().__init__(
            f"lone UTF-16 surrogate {escape.decode('ascii')} at byte {offset}: a high "
            "surrogate escape must be followed by a low one (\\udc00-\\udfff)"
        )


def _backslashes_before(buffer: bytes, end: int) -> int:
    """How many backslashes run back from buffer[end - 1]."""
    start = end
    while start > 0 and buffer[start - 1] == 0x5C:
        start -= 1
    return end - start


class SurrogateScan:
    """Feed the body's chunks in order, then `close()`; either raises LoneSurrogate."""

    def __init__(self) -> None:
        self._tail = b""
        # Offset of the tail's first byte in the body, and the backslashes just before it.
        self._offset = 0
        self._lead = 0

    def feed(self, chunk: bytes) -> None:
        self._scan(self._tail + chunk, final=False)

    def close(self) -> None:
        self._scan(self._tail, final=True)

    def _scan(self, buffer: bytes, final: bool) -> None:
        # Escapes starting here or later may lack their pair's bytes until the next chunk.
        settled = len(buffer) if final else max(0, len(buffer) - (_PAIR - 1))
        for match in _HIGH.finditer(buffer):
            start = match.start()
            if start >= settled:
                break
            before = _backslashes_before(buffer, start)
            if before == start:
                before += self._lead
            if before % 2:
                continue  # an escaped backslash followed by the letters "u d8..", not an escape
            if _LOW.match(buffer, match.end()) is None:
                raise LoneSurrogate(self._offset + start, match.group())
        # Keep the unsettled bytes; know how many backslashes lead into them.
        lead = _backslashes_before(buffer, settled)
        self._lead = lead + self._lead if lead == settled else lead
        self._offset += settled
        self._tail = buffer[settled:]
