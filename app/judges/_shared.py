"""Answers made once for everyone who shares them, across jobs, threads and processes.

G-Eval steps and faithfulness truths are shared by every test case of an evaluation, but an
evaluation is scored by several jobs at once (slices on RQ workers or embedded threads). The
first job to claim an answer asks the judge; the others wait for the stored answer. A claim
whose holder stops refreshing it (a crashed worker) goes stale, and a waiter takes it over.
"""

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

# Waiters poll the store from this interval, doubling up to the cap.
_FIRST_POLL_SECONDS = 0.05
_MAX_POLL_SECONDS = 1.0


class SharedAnswers(Protocol):
    """A durable store of shared judge answers with one claim per key."""

    # A claim not refreshed for this long is taken over by the next caller.
    stale_seconds: float

    async def acquire(self, key: str) -> tuple[bool, dict[str, Any] | None]:
        """(False, answer) when the answer is stored; else (True, None) when this caller now
        holds the claim (new, released or stale), or (False, None) while another holds it."""
        ...

    async def refresh(self, key: str) -> None:
        """Tell waiters this caller's claim on `key` is alive."""
        ...

    async def settle(self, key: str, answer: dict[str, Any]) -> dict[str, Any]:
        """Store the answer durably and drop the claim; returns the answer stored for `key`
        (another caller's, should it have got there first)."""
        ...

    async def release(self, key: str) -> None:
        """Drop this caller's claim without an answer (the judge call failed)."""
        ...


async def answer_once(
    store: SharedAnswers, key: str, make: Callable[[], Awaitable[dict[str, Any]]]
) -> tuple[dict[str, Any], bool]:
    """The answer stored for `key`, made by `make()` only if nobody has made or is making it.

    Returns (answer, True) for the caller that made it. If `make` raises, the claim is dropped
    so a waiter makes the answer instead, and the error propagates.
    """
    delay = _FIRST_POLL_SECONDS
    while True:
        mine, stored = await store.acquire(key)
        if stored is not None:
            return stored, False
        if mine:
            break
        await asyncio.sleep(delay)
        delay = min(delay * 2, _MAX_POLL_SECONDS, store.stale_seconds / 2)
    keeper = asyncio.create_task(_keep_alive(store, key))
    try:
        answer = await make()
    except BaseException:
        keeper.cancel()
        # Shielded: a cancelled job must still let the others take over at once.
        with contextlib.suppress(Exception):
            await asyncio.shield(store.release(key))
        raise
    keeper.cancel()
    return await store.settle(key, answer), True


async def _keep_alive(store: SharedAnswers, key: str) -> None:
    # A slow judge (retries, backoff) must not look like a crashed one.
    while True:
        await asyncio.sleep(store.stale_seconds / 3)
        with contextlib.suppress(Exception):
            await store.refresh(key)
