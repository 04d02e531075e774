"""The embedded mode's dispatcher: jobs on threads of this process, in a fair line kept in
memory, retried like RQ retries them."""

import logging
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from app.config import Settings
from app.dispatch.interface import JobTurn, Turn
from app.fair_queue import owner_of, queued_id, should_give_way, waiting_position, work_of
from app.redis_outage import REDIS_PATIENCE_SECONDS

logger = logging.getLogger("loupe.dispatch")


def _resolve(func: str) -> Callable[..., Any]:
    module_name, _, attr = func.rpartition(".")
    module = __import__(module_name, fromlist=[attr])
    return getattr(module, attr)


@dataclass
class _Waiting:
    queued: str
    func: str
    args: tuple[Any, ...]
    attempt: int
    since: float = field(default_factory=time.monotonic)


class EmbeddedDispatcher:
    """Runs jobs on threads in this process, retrying failures like RQ does."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        # The line, head first, in fair order; guarded by `_ready`.
        self._line: list[_Waiting] = []
        self._running: dict[str, str] = {}
        self._claims: dict[str, float] = {}
        self._ready = threading.Condition()
        self._threads = [
            threading.Thread(target=self._loop, name=f"loupe-worker-{i}", daemon=True)
            for i in range(settings.embedded_worker_threads)
        ]
        self._stopped = threading.Event()
        for thread in self._threads:
            thread.start()

    def enqueue(
        self,
        func: str,
        *args: str | int,
        job_id: str,
        owner: str = "",
        patience: float = REDIS_PATIENCE_SECONDS,
    ) -> bool:
        queued = queued_id(owner, job_id)
        with self._ready:
            if any(work_of(waiting.queued) == work_of(queued) for waiting in self._line):
                return False
            self._put(_Waiting(queued, func, args, 0))
        return True

    def _put(self, waiting: _Waiting) -> None:
        """Insert at the fair place (or at the end, without fairness); hold `_ready`."""
        if self.settings.fair_sharing:
            owners = [owner_of(item.queued) for item in self._line]
            running = Counter(self._running.values())
            position = waiting_position(owners, running, owner_of(waiting.queued))
        else:
            position = len(self._line)
        self._line.insert(position, waiting)
        self._ready.notify()

    @contextmanager
    def running(self, job_id: str, owner: str) -> Iterator[Turn]:
        queued = queued_id(owner, job_id)
        with self._ready:
            self._running[queued] = owner
        try:
            yield JobTurn(self.settings, lambda: self._give_way(queued, owner))
        finally:
            with self._ready:
                self._running.pop(queued, None)

    def lapsed(self) -> list[tuple[str, str]]:
        # Jobs live and die with this process: a dead one took the whole process with it.
        return []

    def _give_way(self, queued: str, owner: str) -> bool:
        with self._ready:
            if not self._line:
                return False
            head = self._line[0].queued
            running = Counter(self._running.values())
            if not should_give_way(owner_of(head), running, owner):
                return False
            now = time.monotonic()
            if self._claims.get(head, 0.0) > now:
                return False
            self._claims = {key: until for key, until in self._claims.items() if until > now}
            self._claims[head] = now + 2 * self.settings.job_turn_seconds
            return True

    def ping(self) -> None:
        if self._stopped.is_set() or not all(t.is_alive() for t in self._threads):
            raise RuntimeError("embedded worker is not running")

    def backlog(self) -> tuple[int, float]:
        with self._ready:
            first = min((waiting.since for waiting in self._line), default=None)
            count = len(self._line)
        return count, 0.0 if first is None else time.monotonic() - first

    def close(self) -> None:
        self._stopped.set()
        with self._ready:
            self._ready.notify_all()
        for thread in self._threads:
            thread.join(timeout=10)

    def _take(self) -> _Waiting | None:
        with self._ready:
            while not self._line and not self._stopped.is_set():
                self._ready.wait()
            if self._stopped.is_set():
                return None
            return self._line.pop(0)

    def _retry_later(self, waiting: _Waiting, delay: float) -> None:
        def put() -> None:
            with self._ready:
                self._put(_Waiting(waiting.queued, waiting.func, waiting.args, waiting.attempt + 1))

        timer = threading.Timer(delay, put)
        timer.daemon = True
        timer.start()

    def _loop(self) -> None:
        while True:
            waiting = self._take()
            if waiting is None:
                return
            try:
                _resolve(waiting.func)(*waiting.args)
            except Exception:
                logger.exception(
                    "job %s%r failed (attempt %d)", waiting.func, waiting.args, waiting.attempt + 1
                )
                if waiting.attempt < self.settings.job_retries and not self._stopped.is_set():
                    self._retry_later(waiting, [2, 10, 30][min(waiting.attempt, 2)])
