"""The process's slots for decoding images: at most a few images are decoded at once, whichever
request, event loop or thread asks.

Every intake runs on an event loop of its own (`ingest._run`: services are sync), so an
asyncio.Semaphore, per request or per loop, would bound nothing across requests; a
threading.Semaphore would block the threads that wait. These slots are awaited: a waiter holds
a future on its own loop, and a slot given back is handed to the first waiter in line through
that loop.
"""

import asyncio
import functools
import os
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from app.telemetry.metrics import IMAGE_DECODES, IMAGE_DECODES_WAITING

# Decoding and resizing release the GIL; more decodes than cores only add memory (a decoded
# image is up to LOUPE_MAX_IMAGE_PIXELS x 4 bytes, and a premultiplied copy as much again).
DECODE_SLOTS = max(1, min(4, os.cpu_count() or 1))
T = TypeVar("T")


class DecodeSlots:
    """A process-wide limit on images decoded at once, awaited from any event loop."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.in_use = 0
        # The most ever in use at once: what tests and benchmarks read to see the bound hold.
        self.peak = 0
        self._lock = threading.Lock()
        # Threads of their own, as many as the slots: the same few threads decode every image,
        # so the allocator's per-thread arenas that hold freed image memory are reused rather
        # than one set per request's event loop (each loop has its own default executor).
        self._threads = ThreadPoolExecutor(size, thread_name_prefix="loupe-decode")
        self._waiting: deque[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]] = deque()

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """`function(*args)` in a worker thread once a slot is free; the slot is held until the
        function returns, even if the caller stops waiting for it."""
        await self._acquire()
        try:
            done = asyncio.get_running_loop().run_in_executor(
                self._threads, functools.partial(self._holding, function, *args)
            )
        except BaseException:
            self._give_back()
            raise
        return await done

    @property
    def waiting(self) -> int:
        """How many decodes wait for a slot now."""
        return len(self._waiting)

    def _holding(self, function: Callable[..., T], *args: Any) -> T:
        try:
            return function(*args)
        finally:
            self._give_back()

    async def _acquire(self) -> None:
        loop = asyncio.get_running_loop()
        with self._lock:
            if self.in_use < self.size and not self._waiting:
                self._take()
                return
            turn: asyncio.Future[None] = loop.create_future()
            self._waiting.append((loop, turn))
            IMAGE_DECODES_WAITING.inc()
        try:
            await turn
        except asyncio.CancelledError:
            with self._lock:
                if (loop, turn) in self._waiting:
                    self._waiting.remove((loop, turn))
                    IMAGE_DECODES_WAITING.dec()
                    raise
            if turn.done() and not turn.cancelled():
                self._give_back()  # handed over just as the wait was cancelled
            raise

    def _take(self) -> None:
        self.in_use += 1
        self.peak = max(self.peak, self.in_use)
        IMAGE_DECODES.inc()

    def _give_back(self) -> None:
        with self._lock:
            self.in_use -= 1
            IMAGE_DECODES.dec()
            while self._waiting:
                loop, turn = self._waiting.popleft()
                IMAGE_DECODES_WAITING.dec()
                try:
                    loop.call_soon_threadsafe(self._hand_over, turn)
                except RuntimeError:
                    continue  # the waiter's loop is closed: nobody is waiting there any more
                self._take()
                return

    def _hand_over(self, turn: asyncio.Future[None]) -> None:
        # On the waiter's loop; a wait cancelled since it was chosen passes the slot on.
        if turn.cancelled():
            self._give_back()
        else:
            turn.set_result(None)


SLOTS = DecodeSlots(DECODE_SLOTS)
