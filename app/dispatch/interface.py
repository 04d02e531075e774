"""What a dispatcher does (`Dispatcher`), and a running job's turn on its worker (`Turn`, and
`JobTurn`, the one both dispatchers hand out)."""

import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Protocol

from app.config import Settings
from app.redis_outage import REDIS_PATIENCE_SECONDS


class Turn(Protocol):
    """A running job's turn on its worker."""

    def should_give_way(self) -> bool:
        """True once the job has had its turn and another tenant's job waits for a worker
        (claimed: no other running job gives way to the same waiting job), or at once when its
        worker is stopping."""


class Dispatcher(Protocol):
    def enqueue(
        self,
        func: str,
        *args: str | int,
        job_id: str,
        owner: str = "",
        patience: float = REDIS_PATIENCE_SECONDS,
    ) -> bool:
        """Queue `func` (a dotted path in `workers.jobs`) with id arguments, at the fair place
        for `owner` (a tenant id; "" for upkeep).

        Returns False when a job for the same work (this id, or a continuation of it) is still
        waiting to run, so a re-dispatch never stacks copies of the same work behind a backlog.
        Waits up to `patience` seconds for a queue that is away, then raises its error.
        """

    def running(self, job_id: str, owner: str) -> AbstractContextManager[Turn]:
        """Count the job as running for its owner while the block runs; yields its turn."""

    def lapsed(self) -> list[tuple[str, str]]:
        """Running jobs whose lease lapsed (their process died): (owner, job id) each, handed
        to one caller only."""

    def ping(self) -> None:
        """Raise if the queue cannot take work."""

    def backlog(self) -> tuple[int, float]:
        """Jobs waiting to run, and how many seconds the oldest of them has waited."""

    def close(self) -> None: ...


class JobTurn:
    """A running job's turn: it may give way once it has run for LOUPE_JOB_TURN_SECONDS, and
    gives way at once when its worker is stopping (`stopping` set)."""

    def __init__(
        self,
        settings: Settings,
        give_way: Callable[[], bool],
        stopping: threading.Event | None = None,
    ) -> None:
        self.fair = settings.fair_sharing
        self.turn_seconds = settings.job_turn_seconds
        self.started = time.monotonic()
        # Asks the line whether to give way, and claims the waiting job if so.
        self._give_way = give_way
        self._stopping = stopping

    def should_give_way(self) -> bool:
        if self._stopping is not None and self._stopping.is_set():
            return True
        had_turn = time.monotonic() - self.started >= self.turn_seconds
        return self.fair and had_turn and self._give_way()
