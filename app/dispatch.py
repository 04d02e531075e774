"""Where jobs go: RQ on Redis in distributed mode, a thread pool in the embedded mode.

Both call the same job functions in `workers.jobs` with ids only, and both order waiting jobs
fairly between tenants and tell a running job when to give its worker up (`app/fair_queue.py`).

Redis going away for a while (a restart, a failover) costs time, never work: an enqueue waits
for it (`patiently`, up to REDIS_PATIENCE_SECONDS), a running job keeps its turn and renews its
lease once Redis answers, and the sweep for lapsed leases tries again on the next tick. Each
time Redis is found away it is logged and counted (`loupe_redis_unavailable_total`).
"""

import logging
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from datetime import UTC
from typing import Any, Protocol

from app.config import Settings
from app.fair_queue import (
    FairQueue,
    claim_key,
    owner_of,
    queued_id,
    running_key,
    should_give_way,
    waiting_position,
    work_of,
)
from app.redis_outage import (
    REDIS_AWAY,
    REDIS_PATIENCE_SECONDS,
    REDIS_SOCKET_TIMEOUT_SECONDS,
    patiently,
    redis_away,
)

logger = logging.getLogger("loupe.dispatch")

# How long a lapsed lease (a job whose process died) is kept for the sweep to find, seconds.
LAPSED_KEPT = 600.0


class Turn(Protocol):
    """A running job's turn on its worker."""

    def should_give_way(self) -> bool:
        """True once the job has had its turn and another tenant's job waits for a worker
        (claimed: no other running job gives way to the same waiting job)."""


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


def _resolve(func: str) -> Callable[..., Any]:
    module_name, _, attr = func.rpartition(".")
    module = __import__(module_name, fromlist=[attr])
    return getattr(module, attr)


class _JobTurn:
    """A running job's turn: it may give way once it has run for LOUPE_JOB_TURN_SECONDS."""

    def __init__(self, settings: Settings, give_way: Callable[[], bool]) -> None:
        self.fair = settings.fair_sharing
        self.turn_seconds = settings.job_turn_seconds
        self.started = time.monotonic()
        # Asks the line whether to give way, and claims the waiting job if so.
        self._give_way = give_way

    def should_give_way(self) -> bool:
        had_turn = time.monotonic() - self.started >= self.turn_seconds
        return self.fair and had_turn and self._give_way()


class RQDispatcher:
    """Enqueues to an RQ queue; `loupe worker` processes consume it."""

    def __init__(self, settings: Settings) -> None:
        from redis import Redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry
        from rq import Queue

        self.settings = settings
        # A Redis that accepts connections but never answers is away too, not a hung thread.
        # One immediate retry (a pooled connection a restart closed); waiting for a Redis that
        # is away is `patiently`'s and the callers' (a lease is written again on the next beat).
        self.redis = Redis.from_url(
            settings.redis_url,  # type: ignore[arg-type]
            socket_timeout=REDIS_SOCKET_TIMEOUT_SECONDS,
            socket_connect_timeout=REDIS_SOCKET_TIMEOUT_SECONDS,
            retry=Retry(NoBackoff(), 1),
        )
        queue_class = FairQueue if settings.fair_sharing else Queue
        self.queue = queue_class(settings.queue_name, connection=self.redis)
        self._running_key = running_key(settings.queue_name)

    def enqueue(
        self,
        func: str,
        *args: str | int,
        job_id: str,
        owner: str = "",
        patience: float = REDIS_PATIENCE_SECONDS,
    ) -> bool:
        return patiently(
            "enqueue", lambda: self._enqueue(func, *args, job_id=job_id, owner=owner), patience
        )

    def _enqueue(self, func: str, *args: str | int, job_id: str, owner: str = "") -> bool:
        from redis.exceptions import LockNotOwnedError
        from rq import Retry
        from rq.exceptions import NoSuchJobError
        from rq.job import Job, JobStatus

        queued = queued_id(owner, job_id)
        work = work_of(queued)
        options: dict[str, Any] = {
            "job_id": queued,
            "job_timeout": self.settings.job_timeout_seconds,
            "retry": Retry(max=self.settings.job_retries, interval=[2, 10, 30])
            if self.settings.job_retries
            else None,
            # Our database holds the outcome; RQ's copy only needs to outlive a debugging glance.
            "result_ttl": 60,
            "failure_ttl": 7 * 24 * 3600,
        }
        # One enqueue of a piece of work at a time: the check below and the push are not atomic.
        lock = self.redis.lock(f"loupe:enqueue:{self.settings.queue_name}:{work}", timeout=30)
        lock.acquire()
        try:
            if any(
                work_of(waiting.decode()) == work
                for waiting in self.redis.lrange(self.queue.key, 0, -1)
            ):
                return False
            try:
                existing = Job.fetch(queued, connection=self.redis)
                waiting = existing.get_status(refresh=True) in (
                    JobStatus.QUEUED,
                    JobStatus.SCHEDULED,
                    JobStatus.DEFERRED,
                )
            except NoSuchJobError:
                existing, waiting = None, False
            if waiting:
                return False
            # Finished, failed, or "started" on a worker that died: replace it with a fresh job.
            if existing is not None:
                existing.delete(remove_from_queue=True)
            self.queue.enqueue(func, *args, **options)
            return True
        finally:
            try:
                lock.release()
            except LockNotOwnedError:
                # Redis restarted (keeping nothing) or the lock expired meanwhile: nothing to free.
                pass
            except REDIS_AWAY as error:
                # It expires by itself; the enqueue's own outcome stands.
                redis_away("enqueue", error)

    @contextmanager
    def running(self, job_id: str, owner: str) -> Iterator[Turn]:
        """Hold a lease in the queue's running set, renewed every heartbeat; a killed job's
        lease lapses after LOUPE_STUCK_AFTER_SECONDS and stops counting for its owner."""
        queued = queued_id(owner, job_id)
        lease = self.settings.stuck_after_seconds
        stop = threading.Event()

        def renew() -> None:
            # A lease lost with Redis (a restart keeps nothing) is written again on the next beat.
            try:
                self.redis.zadd(self._running_key, {queued: time.time() + lease})
                # Lapsed leases stay a while for `lapsed()` to find (a sweep may be slow).
                self.redis.zremrangebyscore(self._running_key, "-inf", time.time() - LAPSED_KEPT)
            except REDIS_AWAY as error:
                redis_away("lease", error)
            except Exception:  # noqa: BLE001 - Redis blips must not end the job
                logger.warning("could not renew the running lease of %s", queued, exc_info=True)

        def renewing() -> None:
            while not stop.wait(self.settings.heartbeat_seconds):
                renew()

        renew()
        thread = threading.Thread(target=renewing, name=f"loupe-lease-{job_id}", daemon=True)
        thread.start()
        try:
            yield _JobTurn(self.settings, lambda: self._give_way(queued, owner))
        finally:
            stop.set()
            thread.join(timeout=self.settings.heartbeat_seconds + 5)
            try:
                self.redis.zrem(self._running_key, queued)
            except REDIS_AWAY as error:
                # Gone with Redis, or it lapses by itself (and its sweep finds the slice done).
                redis_away("lease", error)
            except Exception:  # noqa: BLE001 - the lease lapses by itself
                logger.warning("could not drop the running lease of %s", queued, exc_info=True)

    def lapsed(self) -> list[tuple[str, str]]:
        now = time.time()
        found: list[tuple[str, str]] = []
        try:
            for member in self.redis.zrangebyscore(self._running_key, now - LAPSED_KEPT, now):
                queued = member.decode()
                # Of several tickers, the one whose ZREM removes the lease takes the job.
                if self.redis.zrem(self._running_key, queued):
                    owner = owner_of(queued)
                    found.append((owner, queued.removeprefix(f"{owner}-") if owner else queued))
        except REDIS_AWAY as error:
            # The next tick looks again; the leases taken so far are handed over now.
            redis_away("lapsed", error)
        return found

    def live_work(self) -> set[str]:
        """The work ids (`work_of`) of the jobs holding a live lease."""
        live = self.redis.zrangebyscore(self._running_key, time.time(), "+inf")
        return {work_of(queued.decode()) for queued in live}

    def _give_way(self, queued: str, owner: str) -> bool:
        try:
            return self._claim_turn(queued, owner)
        except REDIS_AWAY as error:
            # The job keeps its worker until Redis answers; it asks again in half a second.
            redis_away("give_way", error)
            return False

    def _claim_turn(self, queued: str, owner: str) -> bool:
        head = self.redis.lindex(self.queue.key, 0)
        if head is None:
            return False
        head_id = head.decode()
        if not should_give_way(owner_of(head_id), self._running_owners(), owner):
            return False
        claim = claim_key(self.settings.queue_name, head_id)
        ttl = max(1, int(self.settings.job_turn_seconds * 2))
        return bool(self.redis.set(claim, queued, nx=True, ex=ttl))

    def _running_owners(self) -> dict[str, int]:
        live = self.redis.zrangebyscore(self._running_key, time.time(), "+inf")
        return dict(Counter(owner_of(queued.decode()) for queued in live))

    def ping(self) -> None:
        self.redis.ping()

    def backlog(self) -> tuple[int, float]:
        from rq.job import Job

        waiting = self.queue.count
        oldest = 0.0
        # The head of the line is not always the oldest job: fair order moves newcomers up.
        for job in Job.fetch_many(self.queue.get_job_ids(0, 99), connection=self.redis):
            if job is not None and job.enqueued_at is not None:
                enqueued = job.enqueued_at.replace(tzinfo=job.enqueued_at.tzinfo or UTC)
                oldest = max(oldest, time.time() - enqueued.timestamp())
        return waiting, oldest

    def close(self) -> None:
        self.redis.close()


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
            yield _JobTurn(self.settings, lambda: self._give_way(queued, owner))
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


def make_dispatcher(settings: Settings) -> Dispatcher:
    return EmbeddedDispatcher(settings) if settings.embedded else RQDispatcher(settings)
