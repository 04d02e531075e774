"""The process's decoding slots: a bound shared by every event loop and thread, held while an
image is really being decoded, and one that requests through the API stay within."""

import asyncio
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from app.media.decoding import SLOTS, DecodeSlots
from app.media.images import ImageLimits, NormalisedImage, normalise
from tests.fixtures.api import Api
from tests.media.loopback import data_url, png
from tests.media.test_ingest import case, image

LIMITS = ImageLimits()


def eventually(condition: Callable[[], bool]) -> None:
    """Wait for another thread to get there (a liveness guard, not a measurement)."""
    deadline = time.monotonic() + 30
    while not condition():
        assert time.monotonic() < deadline, "the other thread never got there"
        time.sleep(0.005)


def in_own_loop(slots: DecodeSlots, results: dict[str, Any], name: str, *call: Any) -> None:
    """Run `call` through `slots` on an event loop of its own, as each intake does."""
    results[name] = asyncio.run(slots.run(*call))


class TestDecodeSlots:
    def test_loops_in_other_threads_share_the_slots(self) -> None:
        slots = DecodeSlots(1)
        release = threading.Event()
        results: dict[str, Any] = {}
        holder = threading.Thread(target=in_own_loop, args=(slots, results, "holder", release.wait))
        holder.start()
        eventually(lambda: slots.in_use == 1)
        decoder = threading.Thread(
            target=in_own_loop,
            args=(slots, results, "decoded", normalise, png((3000, 1000)), "png", LIMITS),
        )
        decoder.start()
        eventually(lambda: slots.waiting == 1)
        assert "decoded" not in results and slots.in_use == 1
        release.set()
        holder.join()
        decoder.join()
        decoded: NormalisedImage = results["decoded"]
        assert decoded.changes == ("downscaled",) and decoded.sent.width == 2048
        assert (slots.in_use, slots.waiting, slots.peak) == (0, 0, 1)

    def test_a_wait_cancelled_takes_no_slot_with_it(self) -> None:
        slots = DecodeSlots(1)
        release = threading.Event()

        async def scenario() -> NormalisedImage:
            holder = asyncio.ensure_future(slots.run(release.wait))
            while slots.in_use == 0:
                await asyncio.sleep(0)
            waiter = asyncio.ensure_future(slots.run(normalise, png(), "png", LIMITS))
            while slots.waiting == 0:
                await asyncio.sleep(0)
            waiter.cancel()
            with pytest.raises(asyncio.CancelledError):
                await waiter
            release.set()
            await holder
            return await slots.run(normalise, png((3000, 10)), "png", LIMITS)

        assert asyncio.run(scenario()).sent.width == 2048
        assert (slots.in_use, slots.waiting, slots.peak) == (0, 0, 1)

    def test_the_slot_is_held_until_the_decode_ends_though_its_caller_stopped_waiting(
        self,
    ) -> None:
        slots = DecodeSlots(1)
        release = threading.Event()

        async def scenario() -> None:
            holder = asyncio.ensure_future(slots.run(release.wait))
            while slots.in_use == 0:
                await asyncio.sleep(0)
            holder.cancel()
            with pytest.raises(asyncio.CancelledError):
                await holder
            # The work still runs in its thread: its slot is not handed on yet.
            assert slots.in_use == 1
            release.set()

        asyncio.run(scenario())
        eventually(lambda: slots.in_use == 0)
        assert slots.waiting == 0


class TestThroughTheApi:
    def test_parallel_requests_share_the_process_bound(self, api: Api) -> None:
        """Three requests of three images each, all needing a downscale: at most the process's
        slots decode at once, whichever request they belong to."""
        shade = abs(hash(api.mode + "slots")) % 0xFFFFFF

        def request(number: int) -> int:
            contents = [
                [
                    image(
                        data_url(
                            png((3000, 1500), color=f"#{(shade + 3 * number + i) % 0xFFFFFF:06x}")
                        )
                    )
                ]
                for i in range(3)
            ]
            body = {
                "test_cases": [case(actual_output=content) for content in contents],
                "metrics": [{"type": "exact_match"}],
            }
            return api.tenant_client().post("/v1/evaluations", json=body).status_code

        with ThreadPoolExecutor(3) as pool:
            assert list(pool.map(request, range(3))) == [202, 202, 202]
        assert SLOTS.in_use == 0 and SLOTS.waiting == 0
        assert 1 <= SLOTS.peak <= SLOTS.size
