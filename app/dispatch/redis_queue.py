"""The distributed mode's dispatcher: jobs on an RQ queue in Redis, a lease per running job in a
sorted set, fair places and turns through app/fair_queue.py."""

import logging
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC
from typing import Any

from app.config import Settings
from app.dispatch.interface import JobTurn, Turn
from app.fair_queue import (
    FairQueue,
    claim_key,
    owner_of,
    queued_id,
    running_key,
    should_give_way,
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
# How long an enqueue waits for another one of the same work to let go of its lock, seconds
# (the caller records what it could not queue: `app/evaluations/unqueued.py`).
ENQUEUE_LOCK_WAIT_SECONDS = 5.0


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
        # Set when this process's worker is asked to stop (`hand_back`).
        self._stopping = threading.Event()
        self._probe: Any = None

    def hand_back(self) -> None:
        """This process's worker is stopping: its running jobs take no more items, store those
        in flight and queue the rest of their slices for another worker, as when they give way
        to another tenant's job. A slice of 1,000 test cases takes minutes, longer than any
        supervisor's grace before it kills the worker: calls in flight would be billed but
        never counted, and the slice would wait for its lease to lapse."""
        self._stopping.set()

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
        from redis.exceptions import LockError, LockNotOwnedError
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
        # Held for milliseconds; one held longer was most likely taken by a try that timed out
        # while Redis was frozen and ran once it thawed, and holds until it expires.
        if not lock.acquire(blocking_timeout=ENQUEUE_LOCK_WAIT_SECONDS):
            raise LockError(f"the enqueue lock of {work} stayed taken; try again later")
        try:
            if any(
                work_of(waiting.decode()) == work
                for waiting in self.redis.lrange(self.queue.key, 0, -1)
            ):
                return False
            try:
                existing = Job.fetch(queued, connection=self.redis)
                status = existing.get_status(refresh=True)
            except NoSuchJobError:
                existing, status = None, None
            if status in (JobStatus.QUEUED, JobStatus.SCHEDULED, JobStatus.DEFERRED):
                return False
            if self._running(work, existing if status == JobStatus.STARTED else None):
                # Both sweeps find a dead worker's slice (its lapsed lease, its evaluation's
                # stale heartbeat), and the first one's job may already run: a copy would
                # judge the same items again, billed twice.
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
            yield JobTurn(self.settings, lambda: self._give_way(queued, owner), self._stopping)
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

    def _running(self, work: str, started: Any) -> bool:
        """Whether `work` runs on a live worker: its lease was renewed within
        LOUPE_STUCK_AFTER_SECONDS, or its job (`started`, RQ's) began since then (a job
        writes its lease once it has loaded its evaluation)."""
        if work in self.live_work():
            return True
        began = started.started_at if started is not None else None
        if began is None:
            return False
        began = began.replace(tzinfo=began.tzinfo or UTC)
        return time.time() - began.timestamp() < self.settings.stuck_after_seconds

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
        # Its own client, 2 s at most: a probe must answer inside its timeout when Redis
        # accepts connections and never answers, and a pool the queue's work has filled must
        # not hold it. Kept for the process: probes every few seconds from each orchestrator
        # reuse its connection rather than open one each (a restart is met by the retry).
        if self._probe is None:
            from redis import Redis
            from redis.backoff import NoBackoff
            from redis.retry import Retry

            self._probe = Redis.from_url(
                self.settings.redis_url,  # type: ignore[arg-type]
                socket_timeout=2,
                socket_connect_timeout=2,
                retry=Retry(NoBackoff(), 1),
            )
        self._probe.ping()

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
        if self._probe is not None:
            self._probe.close()
