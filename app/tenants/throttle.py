"""Failed authentications per client address: past LOUPE_AUTH_FAILURE_LIMIT in a window of
LOUPE_AUTH_FAILURE_WINDOW_SECONDS, requests from that address that bring no valid key are
answered 429 until the window ends.

Only failures count, and a valid key is still accepted from a throttled address (it is looked
up as usual): the throttle slows down key guessing and floods of bad keys without locking out
a tenant who shares an address (a NAT, a proxy) with whoever is failing. Requests without a
key, or with one that is not of Loupe's form, are refused without reading the database.

Counts are fixed windows. With LOUPE_REDIS_URL they are shared by every API process through
Redis (one INCR per failure, one GET per refused request); without it, or while Redis is away,
each process counts its own.
"""

import logging
import math
import threading
import time
from typing import TYPE_CHECKING, Any

from app.config import Settings
from app.problems import ProblemError

if TYPE_CHECKING:
    from redis import Redis

logger = logging.getLogger("loupe.auth")

# An address that cannot be told (no peer address, e.g. a test transport) counts as one.
UNKNOWN_ADDRESS = "unknown"


class Throttled(Exception):
    """An address over the limit; `retry_after` seconds until its window ends."""

    def __init__(self, address: str, retry_after: int) -> None:
        super().__init__(f"{address}: retry after {retry_after} s")
        self.address = address
        self.retry_after = retry_after


class AuthThrottle:
    """Counts failed authentications per address in fixed windows."""

    def __init__(self, settings: Settings) -> None:
        self.limit = settings.auth_failure_limit
        self.window = settings.auth_failure_window_seconds
        self._redis_url = settings.redis_url
        self._prefix = f"loupe:{settings.queue_name}:auth-failures:"
        self._redis: Redis | None = None
        self._lock = threading.Lock()
        self._local_window = -1
        self._local: dict[str, int] = {}
        self._redis_down_window = -1

    def note_failure(self, address: str) -> None:
        """Count a failed authentication from `address`, or raise Throttled (not counting it)
        when the address has already failed LOUPE_AUTH_FAILURE_LIMIT times this window."""
        wait = self.retry_after(address)
        if wait is not None:
            raise Throttled(address, wait)
        self.failed(address)

    def retry_after(self, address: str) -> int | None:
        """Seconds until `address` may fail again, or None when it is under the limit."""
        if self.limit == 0:
            return None
        now = time.time()
        window = int(now // self.window)
        if self._count(address, window) < self.limit:
            return None
        return max(1, math.ceil((window + 1) * self.window - now))

    def failed(self, address: str) -> None:
        """Count one failed authentication from `address`."""
        if self.limit == 0:
            return
        window = int(time.time() // self.window)
        redis = self._shared()
        if redis is not None:
            key = f"{self._prefix}{address}:{window}"
            try:
                with redis.pipeline() as pipe:
                    pipe.incr(key)
                    pipe.expire(key, self.window + 1)
                    pipe.execute()
                return
            except Exception as exc:  # noqa: BLE001 - any Redis failure: count locally
                self._redis_away(window, exc)
        with self._lock:
            self._roll(window)
            self._local[address] = self._local.get(address, 0) + 1

    def _count(self, address: str, window: int) -> int:
        redis = self._shared()
        if redis is not None:
            try:
                shared = int(redis.get(f"{self._prefix}{address}:{window}") or 0)
            except Exception as exc:  # noqa: BLE001 - any Redis failure: local counts only
                self._redis_away(window, exc)
            else:
                with self._lock:
                    self._roll(window)
                    return shared + self._local.get(address, 0)
        with self._lock:
            self._roll(window)
            return self._local.get(address, 0)

    def _roll(self, window: int) -> None:
        # Counts of past windows are dropped whole, so memory stays one window's addresses.
        if window != self._local_window:
            self._local_window = window
            self._local = {}

    def _shared(self) -> "Redis | None":
        if not self._redis_url:
            return None
        with self._lock:
            if self._redis is None:
                from redis import Redis

                # Short timeouts: a refused request must not wait on an unreachable Redis.
                self._redis = Redis.from_url(
                    self._redis_url, socket_timeout=1, socket_connect_timeout=1
                )
            return self._redis

    def _redis_away(self, window: int, exc: Exception) -> None:
        # One line per window while Redis is away, not one per refused request.
        if window != self._redis_down_window:
            self._redis_down_window = window
            logger.warning(
                "auth failure counts are per process while Redis is unreachable: %s",
                type(exc).__name__,
            )

    def close(self) -> None:
        if self._redis is not None:
            self._redis.close()


_created = threading.Lock()


def app_throttle(app: Any) -> AuthThrottle:
    """The throttle of one app (every request of an API process shares it)."""
    throttle = getattr(app.state, "auth_throttle", None)
    if throttle is None:
        with _created:
            throttle = getattr(app.state, "auth_throttle", None)
            if throttle is None:
                throttle = app.state.auth_throttle = AuthThrottle(app.state.runtime.settings)
    return throttle


def client_address(request: Any) -> str:
    """The request's peer address (behind a proxy named in LOUPE_FORWARDED_ALLOW_IPS, the
    client's as the proxy forwards it)."""
    return request.client.host if request.client is not None else UNKNOWN_ADDRESS


def refusal(throttled: Throttled) -> ProblemError:
    """The 429 for a request without a valid key from a throttled address."""
    return ProblemError(
        429,
        "Too Many Requests",
        f"Too many requests without a valid API key from {throttled.address}; try again in "
        f"{throttled.retry_after} s (a valid key is still accepted).",
        slug="auth-throttled",
        headers={"Retry-After": str(throttled.retry_after)},
        field=["header", "Authorization"],
    )
