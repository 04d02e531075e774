"""What `/metrics` serves: the process's metric families (every process's, in multiprocess
mode) plus the queue's backlog, read from the queue at scrape time."""

import logging
import os
import time
from collections.abc import Callable, Iterator

from prometheus_client import REGISTRY, CollectorRegistry, generate_latest, start_http_server
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

logger = logging.getLogger("loupe.telemetry")

# (jobs waiting, seconds the oldest has waited); raises when the queue cannot be read.
Backlog = Callable[[], tuple[int, float]]


class QueueCollector(Collector):
    """`loupe_queue_jobs` and `loupe_queue_oldest_job_age_seconds` for one queue."""

    def __init__(self, queue_name: str, backlog: Backlog) -> None:
        self.queue_name = queue_name
        self.backlog = backlog

    def collect(self) -> Iterator[GaugeMetricFamily]:
        try:
            waiting, oldest = self.backlog()
        except Exception:  # noqa: BLE001 - a scrape must not fail because Redis blinked
            logger.warning("could not read the queue's backlog", exc_info=True)
            return
        jobs = GaugeMetricFamily(
            "loupe_queue_jobs", "Jobs waiting in the queue to be run.", labels=["queue"]
        )
        jobs.add_metric([self.queue_name], waiting)
        age = GaugeMetricFamily(
            "loupe_queue_oldest_job_age_seconds",
            "How long the oldest waiting job has waited (0 when none waits).",
            labels=["queue"],
        )
        age.add_metric([self.queue_name], oldest)
        yield jobs
        yield age


def _process_registry() -> CollectorRegistry:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        # Several API processes (`loupe serve --workers N`): sum what each one wrote.
        registry = CollectorRegistry()
        MultiProcessCollector(registry)
        return registry
    return REGISTRY


def render(queue: QueueCollector | None) -> bytes:
    """The Prometheus text exposition for this process (and its queue, if given)."""
    text = generate_latest(_process_registry())
    if queue is not None:
        own = CollectorRegistry(auto_describe=False)
        own.register(queue)
        text += generate_latest(own)
    return text


def serve_worker_metrics(host: str, port: int, queue: QueueCollector) -> bool:
    """Serve `/metrics` for a worker process on host:port; False (logged) if it cannot bind."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(_Everything(_process_registry()))
    registry.register(queue)
    try:
        start_http_server(port, addr=host, registry=registry)
    except OSError as error:
        # Several workers on one host need a port each; scoring goes on without metrics.
        logger.warning("worker metrics not served on %s:%d: %s", host, port, error)
        return False
    logger.info("worker metrics on http://%s:%d/metrics", host, port)
    return True


class _Everything(Collector):
    def __init__(self, registry: CollectorRegistry) -> None:
        self.registry = registry

    def collect(self) -> Iterator:  # type: ignore[type-arg]
        return self.registry.collect()


def age_since(enqueued_at: float | None) -> float:
    """Seconds since a wall-clock timestamp (0 for None)."""
    return max(0.0, time.time() - enqueued_at) if enqueued_at is not None else 0.0
