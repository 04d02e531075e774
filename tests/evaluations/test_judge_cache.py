"""Batched database calls of the judge cache and shared answers."""

import asyncio
import threading

import pytest

from app.evaluations.judge_cache import _Batched


def test_keys_asked_while_a_batch_runs_go_in_the_next_batch() -> None:
    batches: list[list[str]] = []
    first_running = threading.Event()
    release_first = threading.Event()

    def run(keys: dict) -> dict:
        batches.append(sorted(keys))
        if len(batches) == 1:
            first_running.set()
            release_first.wait(5)
        return {key: key.upper() for key in keys if key != "missing"}

    async def go() -> list:
        batched = _Batched(run)
        first = [asyncio.ensure_future(batched(key)) for key in ("a", "b")]
        await asyncio.to_thread(first_running.wait, 5)
        # Asked while the first batch runs: they wait for it, then go together.
        later = [asyncio.ensure_future(batched(key)) for key in ("c", "d", "missing")]
        await asyncio.sleep(0.05)
        assert len(batches) == 1
        release_first.set()
        return await asyncio.gather(*first, *later)

    assert asyncio.run(go()) == ["A", "B", "C", "D", None]
    assert batches == [["a", "b"], ["c", "d", "missing"]]


def test_a_failed_batch_fails_its_callers_and_the_next_batch_still_runs() -> None:
    calls = 0

    def run(keys: dict) -> dict:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise RuntimeError("database down")
        return dict.fromkeys(keys, "ok")

    async def go() -> str:
        batched = _Batched(run)
        with pytest.raises(RuntimeError, match="database down"):
            await batched("a")
        return await batched("b")

    assert asyncio.run(go()) == "ok"


def test_a_cancelled_caller_does_not_break_the_batch() -> None:
    gate = threading.Event()

    def run(keys: dict) -> dict:
        gate.wait(5)
        return dict.fromkeys(keys, 1)

    async def go() -> int:
        batched = _Batched(run)
        doomed = asyncio.ensure_future(batched("a"))
        kept = asyncio.ensure_future(batched("b"))
        await asyncio.sleep(0.01)
        doomed.cancel()
        gate.set()
        return await kept

    assert asyncio.run(go()) == 1
