"""Calls a cancel cut off: sent (or being sent) when their caller was canceled, so no answer,
and no token count, ever came back, though the provider may have answered and billed them.

No reply or JudgeError carries such a call's usage (the request counted in `failed_calls`,
with any call answered before it, such as the first answer of a repaired one). It is noted
for whoever collects: a judged metric's session, which its canceled item then counts. A
context variable, as the metrics' `_abandoned`: tasks started under `collecting()` note into
the same list.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from app.judges._types import JudgeUsage

_CUT: ContextVar[list[JudgeUsage] | None] = ContextVar("loupe_cut_off_usage", default=None)


@contextmanager
def collecting() -> Iterator[list[JudgeUsage]]:
    """The usage of each call a cancel cuts off while the block runs (its tasks' too)."""
    cut: list[JudgeUsage] = []
    token = _CUT.set(cut)
    try:
        yield cut
    finally:
        _CUT.reset(token)


def note(usage: JudgeUsage) -> None:
    """Note a cut-off call's usage, if it sent anything and someone is collecting."""
    cut = _CUT.get()
    if cut is not None and (usage.calls or usage.failed_calls):
        cut.append(usage)
