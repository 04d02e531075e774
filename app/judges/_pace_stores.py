"""Where an endpoint's pace lives: this process, or Redis so every worker of a deployment
paces to one shared limit (app/judges/_pacing.py says how the pace is kept)."""

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar

from app.redis_outage import REDIS_AWAY, REDIS_PATIENCE_SECONDS, REDIS_RETRY_FIRST_SECONDS
from app.telemetry.metrics import REDIS_UNAVAILABLE

logger = logging.getLogger("loupe.judges")

# Redis away: the waits between asking the shared schedule again top out sooner than a queue
# operation's (app/redis_outage.py), as a judge call is waiting on each.
PACE_RETRY_CAP_SECONDS = 2.0
# A Redis that accepts connections but does not answer counts as away after this long.
PACE_SOCKET_TIMEOUT_SECONDS = 5.0


class PaceStore(Protocol):
    """Where an endpoint's schedule and hold live (this process, or Redis for all workers)."""

    async def take(self, key: str, interval: float, burst: float) -> float:
        """Take the next request slot: 0 when taken, else the seconds to wait before asking
        again (a hold, or the schedule being ahead of now)."""

    async def charge(self, key: str, seconds: float, burst: float) -> None:
        """Push the token schedule `seconds` further (tokens a reply used x seconds per token)."""

    async def hold(self, key: str, seconds: float) -> None:
        """Nobody sends on `key` for `seconds` from now (a longer hold already set stays)."""


class LocalPaceStore:
    """The schedule in this process: enough when one process is the only client."""

    def __init__(self) -> None:
        self._state: dict[str, dict[str, float]] = {}

    async def take(self, key: str, interval: float, burst: float) -> float:
        state = self._state.setdefault(key, {"tat": 0.0, "tokens": 0.0, "hold": 0.0})
        now = time.time()
        wait = max(state["hold"] - now, state["tokens"] - burst - now)
        if wait > 0:
            return wait
        tat = max(state["tat"], now)
        if tat - burst > now:
            return tat - burst - now
        state["tat"] = tat + interval
        return 0.0

    async def charge(self, key: str, seconds: float, burst: float) -> None:
        state = self._state.setdefault(key, {"tat": 0.0, "tokens": 0.0, "hold": 0.0})
        state["tokens"] = max(state["tokens"], time.time()) + seconds

    async def hold(self, key: str, seconds: float) -> None:
        state = self._state.setdefault(key, {"tat": 0.0, "tokens": 0.0, "hold": 0.0})
        state["hold"] = max(state["hold"], time.time() + seconds)


# KEYS[1]: the endpoint's hash. Redis's clock, so workers on several hosts agree on "now".
_TAKE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local hold = tonumber(redis.call('HGET', KEYS[1], 'hold') or '0')
local tokens = tonumber(redis.call('HGET', KEYS[1], 'tokens') or '0')
local burst = tonumber(ARGV[2])
local wait = math.max(hold - now, tokens - burst - now)
if wait > 0 then return tostring(wait) end
local tat = math.max(tonumber(redis.call('HGET', KEYS[1], 'tat') or '0'), now)
if tat - burst > now then return tostring(tat - burst - now) end
redis.call('HSET', KEYS[1], 'tat', tostring(tat + tonumber(ARGV[1])))
redis.call('EXPIRE', KEYS[1], 3600)
return '0'
"""
_CHARGE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local tokens = math.max(tonumber(redis.call('HGET', KEYS[1], 'tokens') or '0'), now)
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens + tonumber(ARGV[1])))
redis.call('EXPIRE', KEYS[1], 3600)
return 0
"""
_HOLD = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local hold = math.max(tonumber(redis.call('HGET', KEYS[1], 'hold') or '0'), now + tonumber(ARGV[1]))
redis.call('HSET', KEYS[1], 'hold', tostring(hold))
redis.call('EXPIRE', KEYS[1], 3600)
return 0
"""


_T = TypeVar("_T")


class RedisPaceStore:
    """The schedule in Redis: every worker of a deployment paces to one shared limit.

    While Redis is away, each operation is tried again with backoff; once an outage has lasted
    `patience` seconds, operations fall back to a schedule in this process (one try of Redis
    each, so the shared schedule is used again as soon as Redis answers).
    """

    def __init__(
        self, url: str, prefix: str = "loupe:pace:", patience: float = REDIS_PATIENCE_SECONDS
    ) -> None:
        from redis.asyncio import Redis

        self._redis = Redis.from_url(
            url,
            socket_timeout=PACE_SOCKET_TIMEOUT_SECONDS,
            socket_connect_timeout=PACE_SOCKET_TIMEOUT_SECONDS,
        )
        self._prefix = prefix
        self._take = self._redis.register_script(_TAKE)
        self._charge = self._redis.register_script(_CHARGE)
        self._hold = self._redis.register_script(_HOLD)
        self.patience = patience
        # Where requests are paced while Redis stays away past `patience`.
        self._alone = LocalPaceStore()
        # When the current outage began (monotonic); None while Redis answers.
        self._away_since: float | None = None

    async def take(self, key: str, interval: float, burst: float) -> float:
        return await self._patiently(
            lambda: self._take(keys=[self._prefix + key], args=[interval, burst]),
            lambda: self._alone.take(key, interval, burst),
            float,
        )

    async def charge(self, key: str, seconds: float, burst: float) -> None:
        await self._patiently(
            lambda: self._charge(keys=[self._prefix + key], args=[seconds]),
            lambda: self._alone.charge(key, seconds, burst),
            lambda _: None,
        )

    async def hold(self, key: str, seconds: float) -> None:
        await self._patiently(
            lambda: self._hold(keys=[self._prefix + key], args=[seconds]),
            lambda: self._alone.hold(key, seconds),
            lambda _: None,
        )

    async def _patiently(
        self,
        shared: Callable[[], Awaitable[Any]],
        alone: Callable[[], Awaitable[_T]],
        read: Callable[[Any], _T],
    ) -> _T:
        """`shared()` read by `read`, asked again with backoff while Redis is away; `alone()`
        once the outage has outlasted the patience."""
        delay = REDIS_RETRY_FIRST_SECONDS
        while True:
            try:
                answer = read(await shared())
            except REDIS_AWAY as error:
                REDIS_UNAVAILABLE.labels("pace").inc()
                now = time.monotonic()
                if self._away_since is None:
                    self._away_since = now
                away = now - self._away_since
                if away >= self.patience:
                    logger.warning(
                        "Redis away for %.0f s: pacing in this process until it answers (%s)",
                        away,
                        error,
                    )
                    return await alone()
                logger.warning(
                    "Redis away (%s): the judge pace schedule is asked again in %.1f s",
                    error,
                    delay,
                )
                await asyncio.sleep(min(delay, self.patience - away))
                delay = min(delay * 2, PACE_RETRY_CAP_SECONDS)
                continue
            if self._away_since is not None:
                logger.info(
                    "Redis answers again: the judge pace schedule is shared again after %.1f s",
                    time.monotonic() - self._away_since,
                )
                self._away_since = None
            return answer

    async def close(self) -> None:
        await self._redis.aclose()


# One schedule per endpoint for every client of this process without Redis.
LOCAL_STORE = LocalPaceStore()
