"""What `/metrics` serves: the process's metric families (every process's, in multiprocess
mode) plus the queue's backlog, read from the queue at scrape time; and who may read it (with
LOUPE_METRICS_TOKEN set, only a scraper sending it as a bearer token)."""

import hmac
import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, make_server

from prometheus_client import REGISTRY, CollectorRegistry, generate_latest, make_wsgi_app
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.exposition import ThreadingWSGIServer
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

from app.problems import PROBLEM_BASE, PROBLEM_MEDIA_TYPE, Problem, field_error

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


# Sent with a refused scrape (RFC 6750), so a scraper knows a bearer token is wanted.
CHALLENGE = 'Bearer realm="loupe-metrics"'


def scrape_refusal(token: str | None, authorization: str | None) -> str | None:
    """Why a scrape sending `authorization` may not read /metrics, or None when it may (no
    token is set, or the header carries it)."""
    if token is None:
        return None
    scheme, _, given = (authorization or "").strip().partition(" ")
    if scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), token.encode()):
        return None
    if scheme.lower() != "bearer" or not given.strip():
        return "Send LOUPE_METRICS_TOKEN as `Authorization: Bearer <token>` to read /metrics."
    return "The token in Authorization is not LOUPE_METRICS_TOKEN."


def refusal_problem(detail: str) -> Problem:
    """The 401 problem of a refused scrape, naming the Authorization header."""
    return Problem(
        type=PROBLEM_BASE + "unauthorized",
        title="Unauthorized",
        status=401,
        detail=detail,
        instance="/metrics",
        errors=[field_error(["header", "Authorization"], detail, "unauthorized")],
    )


def serve_worker_metrics(
    host: str, port: int, queue: QueueCollector, token: str | None = None
) -> bool:
    """Serve `/metrics` for a worker process on host:port (to holders of `token` only, when
    set); False (logged) if it cannot bind."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(_Everything(_process_registry()))
    registry.register(queue)

    class Server(ThreadingWSGIServer):
        address_family = _family(host, port)

    try:
        httpd = make_server(
            host, port, _guarded(make_wsgi_app(registry), token), Server, _QuietHandler
        )
    except OSError as error:
        # Several workers on one host need a port each; scoring goes on without metrics.
        logger.warning("worker metrics not served on %s:%d: %s", host, port, error)
        return False
    threading.Thread(target=httpd.serve_forever, name="metrics", daemon=True).start()
    logger.info("worker metrics on http://%s:%d/metrics", host, port)
    return True


WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def _guarded(app: WsgiApp, token: str | None) -> WsgiApp:
    def guarded(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        refusal = scrape_refusal(token, environ.get("HTTP_AUTHORIZATION"))
        if refusal is None:
            return app(environ, start_response)
        body = refusal_problem(refusal).model_dump_json(exclude_none=True).encode()
        start_response(
            "401 Unauthorized",
            [
                ("Content-Type", PROBLEM_MEDIA_TYPE),
                ("Content-Length", str(len(body))),
                ("WWW-Authenticate", CHALLENGE),
            ],
        )
        return [body]

    return guarded


def _family(host: str, port: int) -> socket.AddressFamily:
    # As prometheus-client's own server: an IPv6 host needs an IPv6 socket.
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    return infos[0][0]


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base's name
        pass


class _Everything(Collector):
    def __init__(self, registry: CollectorRegistry) -> None:
        self.registry = registry

    def collect(self) -> Iterator:  # type: ignore[type-arg]
        return self.registry.collect()


def age_since(enqueued_at: float | None) -> float:
    """Seconds since a wall-clock timestamp (0 for None)."""
    return max(0.0, time.time() - enqueued_at) if enqueued_at is not None else 0.0
