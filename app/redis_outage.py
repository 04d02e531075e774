"""Redis going away for a while (a restart, a failover, a full memory): which errors say so,
how long an operation waits for it, and the one place each wait is logged and counted
(`loupe_redis_unavailable_total{operation}`)."""

import logging
import time
from collections.abc import Callable
from typing import TypeVar

from redis import exceptions as redis_errors

from app.telemetry.metrics import REDIS_UNAVAILABLE

logger = logging.getLogger("loupe.redis")

# Redis away: how long an operation that must happen (an enqueue) waits for it, and the waits
# between tries (doubling from the first to the cap). A restart takes seconds; past this, the
# caller's own recovery takes over (the sweep re-enqueues what was not queued).
REDIS_PATIENCE_SECONDS = 60.0
REDIS_RETRY_FIRST_SECONDS = 0.1
REDIS_RETRY_CAP_SECONDS = 5.0
REDIS_SOCKET_TIMEOUT_SECONDS = 10.0
# Errors that mean Redis is away (refused, reset, not answering) or cannot take writes for now
# (its memory full under RQ's `noeviction`, a replica a failover left read-only), not that a
# command was wrong: each passes, and is waited out like a restart.
REDIS_AWAY = (
    redis_errors.ConnectionError,
    redis_errors.TimeoutError,
    redis_errors.OutOfMemoryError,
    redis_errors.ReadOnlyError,
)

_T = TypeVar("_T")


def redis_away(operation: str, error: BaseException) -> None:
    """Log and count that `operation` found Redis away."""
    REDIS_UNAVAILABLE.labels(operation).inc()
    logger.warning("Redis away during %s: %s", operation, error)


def patiently(
    operation: str, call: Callable[[], _T], patience: float = REDIS_PATIENCE_SECONDS
) -> _T:
    """`call()`, tried again with backoff while Redis is away, for up to `patience` seconds;
    then its last error is raised. Each failed try is logged and counted under `operation`."""
    deadline = time.monotonic() + patience
    delay = REDIS_RETRY_FIRST_SECONDS
    while True:
        try:
            return call()
        except REDIS_AWAY as error:
            redis_away(operation, error)
            left = deadline - time.monotonic()
            if left <= 0:
                raise
            time.sleep(min(delay, left))
            delay = min(delay * 2, REDIS_RETRY_CAP_SECONDS)
