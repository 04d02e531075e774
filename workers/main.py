"""`loupe worker`: an RQ worker that scores in-process, plus the upkeep ticker.

Redis going away (a restart, a failover) does not end the worker: RQ's work loop quits on a
Redis error outside its dequeue, so the worker waits for Redis (with backoff, up to
WORKER_PATIENCE_SECONDS, then exits for its supervisor to restart it), registers again (a
restarted Redis without persistence has forgotten it) and listens on. A worker that sees Redis
restart (a new run id) re-enqueues what the restart lost (`RestartWatch`). A worker started
while Redis is away waits for it the same way.
"""

import importlib
import logging
import os
import time
import uuid
from collections.abc import Callable
from contextlib import suppress
from typing import Any, TypeVar

from redis import Redis
from rq import Queue, SimpleWorker, worker_registration
from rq.exceptions import StopRequested
from rq.scheduler import RQScheduler

from app import heap
from app.config import Settings
from app.dispatch import RQDispatcher
from app.evaluations import recovery
from app.fair_queue import FairQueue
from app.redis_outage import REDIS_AWAY, REDIS_SOCKET_TIMEOUT_SECONDS, patiently, redis_away
from app.runtime import Runtime, configure
from app.telemetry.exposition import QueueCollector, serve_worker_metrics
from workers.ticker import Ticker

logger = logging.getLogger("loupe.worker")

# How long the worker waits for Redis to come back before exiting.
WORKER_PATIENCE_SECONDS = 300.0

_T = TypeVar("_T")


class LoupeWorker(SimpleWorker):
    """RQ's SimpleWorker (jobs in this process) that notes when Redis went away under its
    loop, and registers again when a restarted Redis has forgotten it."""

    redis_lost = False
    # Called when the worker is asked to stop (SIGTERM, SIGINT), before RQ's warm shutdown
    # waits for the job in hand (`RQDispatcher.hand_back`).
    on_stop: Callable[[], None] | None = None

    def request_stop(self, signum: int, frame: Any) -> None:
        if self.on_stop is not None:
            self.on_stop()
        super().request_stop(signum, frame)

    def _watching(self, call: Callable[..., _T], *args: Any) -> _T:
        try:
            answer = call(*args)
        except REDIS_AWAY as error:
            redis_away("worker", error)
            self.redis_lost = True
            raise
        # A blip RQ rode out (its dequeue retries) does not count against the loop.
        self.redis_lost = False
        return answer

    # Every step of RQ's work loop that talks to Redis: any of them failing ends the loop.
    def check_for_suspension(self, burst: bool) -> None:
        self._watching(super().check_for_suspension, burst)

    def run_maintenance_tasks(self) -> None:
        self._watching(super().run_maintenance_tasks)

    def dequeue_job_and_maintain_ttl(
        self, timeout: int | None, max_idle_time: int | None = None
    ) -> Any:
        return self._watching(super().dequeue_job_and_maintain_ttl, timeout, max_idle_time)

    def execute_job(self, job: Any, queue: Any) -> None:
        self._watching(super().execute_job, job, queue)

    def heartbeat(self, timeout: int | None = None, pipeline: Any = None) -> None:
        self._watching(self._beat, timeout, pipeline)

    def _beat(self, timeout: int | None, pipeline: Any) -> None:
        super().heartbeat(timeout, pipeline)
        if pipeline is None and not self.connection.sismember(self.redis_workers_keys, self.key):
            # Redis restarted without persistence and the beat wrote a bare hash: `loupe
            # worker-health` and RQ's tools find workers through the registry.
            logger.info("Redis forgot worker %s: registering it again", self.name)
            with self.connection.pipeline() as registering:
                registering.hset(self.key, mapping=self.serialize())
                worker_registration.register(self, registering)
                registering.expire(self.key, timeout or self.worker_ttl + 60)
                registering.execute()


class RestartWatch:
    """Notices Redis restarting under a running worker (its run id changes) and has one worker
    re-enqueue the jobs the restart lost, once running jobs have written their leases again.

    A Redis without persistence comes back empty: the waiting jobs are gone, and so are the
    leases of jobs that died meanwhile. Without this, the stuck-evaluation sweep finds them only
    once the evaluation's other jobs have ended and its heartbeat has gone stale.
    """

    def __init__(self, runtime: Runtime, dispatcher: RQDispatcher) -> None:
        self.runtime = runtime
        self.dispatcher = dispatcher
        self.run_id: str | None = None
        # When to look for lost jobs (monotonic); None: no restart to recover from.
        self.due: float | None = None

    def look(self) -> None:
        """Called every tick; a Redis error is left to the ticker (tried again next tick)."""
        redis = self.dispatcher.redis
        run_id = str(redis.info("server")["run_id"])
        if self.run_id is not None and run_id != self.run_id:
            settings = self.runtime.settings
            # Of the workers that saw the restart, one recovers.
            claim = f"loupe:restarted:{settings.queue_name}:{run_id}"
            if redis.set(claim, os.getpid(), nx=True, ex=3600):
                # Live jobs write their leases again within a beat; one missed beat allowed.
                self.due = time.monotonic() + 2 * settings.heartbeat_seconds + settings.tick_seconds
                logger.warning("Redis restarted: jobs it lost are enqueued again shortly")
        self.run_id = run_id
        if self.due is not None and time.monotonic() >= self.due:
            acted = recovery.resume_forgotten(self.runtime, self.dispatcher.live_work())
            self.due = None
            logger.info("Redis restart: jobs of %d evaluations enqueued again", len(acted))


def run_worker(settings: Settings, *, burst: bool = False) -> None:
    """Consume the queue until stopped (or until empty with `burst`)."""
    if settings.embedded:
        raise SystemExit(
            "loupe worker needs LOUPE_REDIS_URL (the embedded mode has its own worker)"
        )
    runtime = configure(settings)
    redis = Redis.from_url(settings.redis_url)  # type: ignore[arg-type]
    # Requeued jobs (a retry, an abandoned job) take their fair place in line too.
    queue_class = FairQueue if settings.fair_sharing else Queue
    queue = queue_class(settings.queue_name, connection=redis)
    if settings.metrics_port:
        serve_worker_metrics(
            settings.metrics_host,
            settings.metrics_port,
            QueueCollector(settings.queue_name, runtime.dispatcher.backlog),
            token=settings.metrics_token,
        )
    # SimpleWorker runs jobs in this process: judge clients and the in-flight limit stay
    # shared across jobs instead of being rebuilt in a forked child per job. RQ names its
    # connection in Redis as it is built: a worker started (or restarted by its supervisor)
    # while Redis restarts waits for it as a running one does, rather than exiting.
    worker = patiently(
        "worker",
        lambda: LoupeWorker([queue], connection=redis, queue_class=queue_class),
        patience=WORKER_PATIENCE_SECONDS,
    )
    # RQ's own scheduler runs in a forked child, which a SIGKILLed worker would leave behind:
    # the ticker thread enqueues due retries instead, under RQ's scheduler lock.
    scheduler = RQScheduler([queue], connection=redis)

    dispatcher = runtime.dispatcher
    assert isinstance(dispatcher, RQDispatcher)
    worker.on_stop = dispatcher.hand_back
    restarts = RestartWatch(runtime, dispatcher)

    def upkeep() -> None:
        if scheduler.acquire_locks():
            scheduler.enqueue_scheduled_jobs()
        restarts.look()

    ticker = Ticker(runtime, upkeep=upkeep)
    # Everything alive now lives as long as the worker (the job functions and every kind,
    # imported here rather than by the first job): the collector skips it from here on.
    importlib.import_module("workers.jobs")
    heap.settle(settings.gc_young_threshold)
    ticker.start()
    try:
        _work(worker, settings.redis_url, burst)  # type: ignore[arg-type]
    finally:
        ticker.stop()
        with suppress(*REDIS_AWAY):
            scheduler.release_locks()
        runtime.close()


def _work(worker: LoupeWorker, redis_url: str, burst: bool) -> None:
    """RQ's work loop, started again each time Redis going away ended it."""
    while True:
        worker.redis_lost = False
        try:
            worker.work(burst=burst, with_scheduler=False, logging_level="INFO")
        except REDIS_AWAY as error:
            # The loop's teardown could not record the worker's death.
            worker.redis_lost = True
            redis_away("worker", error)
            with suppress(Exception):
                worker.unsubscribe()
        if not worker.redis_lost or worker._stop_requested:
            return
        logger.warning("Redis went away under the worker loop: waiting for it to answer")
        try:
            _wait_for_redis(redis_url)
        except StopRequested:
            return
        # A bare hash left by a beat would read as another live worker of the same name.
        with suppress(*REDIS_AWAY):
            worker.connection.delete(worker.key)
        logger.info("Redis answers again: worker %s listens again", worker.name)


def _wait_for_redis(redis_url: str) -> None:
    """Return once Redis takes a write; raise its error after WORKER_PATIENCE_SECONDS.

    A write, not a PING: a Redis whose memory is full (or a replica a failover left read-only)
    answers a PING but refuses the worker's registration, and the loop would start and fail
    again without a pause."""
    probe = Redis.from_url(
        redis_url,
        socket_timeout=REDIS_SOCKET_TIMEOUT_SECONDS,
        socket_connect_timeout=REDIS_SOCKET_TIMEOUT_SECONDS,
    )
    key = f"loupe:worker-probe:{uuid.uuid4().hex}"
    try:
        patiently("worker", lambda: probe.set(key, 1, px=1000), patience=WORKER_PATIENCE_SECONDS)
    finally:
        probe.close()
