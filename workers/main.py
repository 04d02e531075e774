"""`loupe worker`: an RQ worker that scores in-process, plus the upkeep ticker."""

import logging

from redis import Redis
from rq import Queue, SimpleWorker
from rq.scheduler import RQScheduler

from app.config import Settings
from app.fair_queue import FairQueue
from app.runtime import configure
from app.telemetry.exposition import QueueCollector, serve_worker_metrics
from workers.ticker import Ticker

logger = logging.getLogger("loupe.worker")


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
    # shared across jobs instead of being rebuilt in a forked child per job.
    worker = SimpleWorker([queue], connection=redis, queue_class=queue_class)
    # RQ's own scheduler runs in a forked child, which a SIGKILLed worker would leave behind:
    # the ticker thread enqueues due retries instead, under RQ's scheduler lock.
    scheduler = RQScheduler([queue], connection=redis)

    def enqueue_due_retries() -> None:
        if scheduler.acquire_locks():
            scheduler.enqueue_scheduled_jobs()

    ticker = Ticker(runtime, upkeep=enqueue_due_retries)
    ticker.start()
    try:
        worker.work(burst=burst, with_scheduler=False, logging_level="INFO")
    finally:
        ticker.stop()
        scheduler.release_locks()
        runtime.close()
