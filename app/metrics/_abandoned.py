"""The judge calls of a metric canceled before it returned (its evaluation was canceled).

The calls it made were answered and billed, but its result is never made, so nothing stored
carries their usage. A job measures each item inside `collecting()`; a judged metric that is
canceled adds what its judge session spent (and on which model) before the cancel goes on.
A context variable, as `_media_seen`: one `MetricContext` serves every metric on a judge.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from app.judges import JudgeUsage

Spent = list[tuple[str | None, JudgeUsage]]

_SPENT: ContextVar[Spent | None] = ContextVar("loupe_abandoned_usage", default=None)


@contextmanager
def collecting() -> Iterator[Spent]:
    """(model, usage) of each judged metric canceled while the block runs (its tasks too)."""
    spent: Spent = []
    token = _SPENT.set(spent)
    try:
        yield spent
    finally:
        _SPENT.reset(token)


def record(model: str | None, usage: JudgeUsage) -> None:
    """Note a canceled metric's calls, if it made any and someone is collecting."""
    spent = _SPENT.get()
    if spent is not None and (usage.calls or usage.failed_calls):
        spent.append((model, usage))
