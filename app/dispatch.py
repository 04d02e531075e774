"""Where jobs go: RQ on Redis in distributed mode, a thread pool in the embedded mode.

Both call the same job functions in `workers.jobs` with ids only.
"""

import logging
import queue
import threading
import time
from collections.abc import Callable
from datetime import UTC
from typing import Any, Protocol

from app.config import Settings

logger = logging.getLogger("loupe.dispatch")


class Dispatcher(Protocol):
    def enqueue(self, func: str, *args: str | int, job_id: str) -> bool:
        """Queue `func` (a dotted path in `workers.jobs`) with id arguments.

        Returns False when a job with this id is still waiting to run, so a re-dispatch
        never stacks copies of the same work behind a backlog.
        """

    def ping(self) -> None:
        """Raise if the queue cannot take work."""

    def backlog(self) -> tuple[int, float]:
        """Jobs waiting to run, and how many seconds the oldest of them has waited."""

    def close(self) -> None: ...


def _resolve(func: str) -> Callable[..., Any]:
    module_name, _, attr = func.rpartition(".")
    module = __import__(module_name, fromlist=[attr])
    return getattr(module, attr)


class RQDispatcher:
    """Enqueues to an RQ queue; `loupe worker` processes consume it."""

    def __init__(self, settings: Settings) -> None:
        from redis import Redis
        from rq import Queue

        self.settings = settings
        self.redis = Redis.from_url(settings.redis_url)  # type: ignore[arg-type]
        self.queue = Queue(settings.queue_name, connection=self.redis)

    def enqueue(self, func: str, *args: str | int, job_id: str) -> bool:
        from rq import Retry
        from rq.exceptions import DuplicateJobError, NoSuchJobError
        from rq.job import Job, JobStatus

        options: dict[str, Any] = {
            "job_id": job_id,
            "job_timeout": self.settings.job_timeout_seconds,
            "retry": Retry(max=self.settings.job_retries, interval=[2, 10, 30])
            if self.settings.job_retries
            else None,
            # Our database holds the outcome; RQ's copy only needs to outlive a debugging glance.
            "result_ttl": 60,
            "failure_ttl": 7 * 24 * 3600,
            "unique": True,
        }
        try:
            self.queue.enqueue(func, *args, **options)
            return True
        except DuplicateJobError:
            pass
        try:
            existing = Job.fetch(job_id, connection=self.redis)
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

    def ping(self) -> None:
        self.redis.ping()

    def backlog(self) -> tuple[int, float]:
        from rq.job import Job

        waiting = self.queue.count
        oldest = 0.0
        # The queue is FIFO: its head is the job that has waited longest.
        for job_id in self.queue.get_job_ids(0, 0):
            job = Job.fetch(job_id, connection=self.redis)
            if job.enqueued_at is not None:
                enqueued = job.enqueued_at.replace(tzinfo=job.enqueued_at.tzinfo or UTC)
                oldest = max(0.0, time.time() - enqueued.timestamp())
        return waiting, oldest

    def close(self) -> None:
        self.redis.close()


class EmbeddedDispatcher:
    """Runs jobs on threads in this process, retrying failures like RQ does."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._jobs: queue.Queue[tuple[str, tuple[Any, ...], str, int] | None] = queue.Queue()
        # Waiting job ids, with when each was enqueued (monotonic).
        self._waiting: dict[str, float] = {}
        self._waiting_lock = threading.Lock()
        self._threads = [
            threading.Thread(target=self._loop, name=f"loupe-worker-{i}", daemon=True)
            for i in range(settings.embedded_worker_threads)
        ]
        self._stopped = threading.Event()
        for thread in self._threads:
            thread.start()

    def enqueue(self, func: str, *args: str | int, job_id: str) -> bool:
        with self._waiting_lock:
            if job_id in self._waiting:
                return False
            self._waiting[job_id] = time.monotonic()
        self._jobs.put((func, args, job_id, 0))
        return True

    def ping(self) -> None:
        if self._stopped.is_set() or not all(t.is_alive() for t in self._threads):
            raise RuntimeError("embedded worker is not running")

    def backlog(self) -> tuple[int, float]:
        with self._waiting_lock:
            first = min(self._waiting.values(), default=None)
            waiting = len(self._waiting)
        return waiting, 0.0 if first is None else time.monotonic() - first

    def close(self) -> None:
        self._stopped.set()
        for _ in self._threads:
            self._jobs.put(None)
        for thread in self._threads:
            thread.join(timeout=10)

    def _loop(self) -> None:
        while True:
            item = self._jobs.get()
            if item is None or self._stopped.is_set():
                return
            func, args, job_id, attempt = item
            with self._waiting_lock:
                self._waiting.pop(job_id, None)
            try:
                _resolve(func)(*args)
            except Exception:
                logger.exception("job %s%r failed (attempt %d)", func, args, attempt + 1)
                if attempt < self.settings.job_retries and not self._stopped.is_set():
                    delay = [2, 10, 30][min(attempt, 2)]
                    timer = threading.Timer(
                        delay, self._jobs.put, args=((func, args, job_id, attempt + 1),)
                    )
                    timer.daemon = True
                    timer.start()


def make_dispatcher(settings: Settings) -> Dispatcher:
    return EmbeddedDispatcher(settings) if settings.embedded else RQDispatcher(settings)
