"""Pacing requests to what a provider allows, instead of sending until it answers 429.

Three brakes, all per endpoint (base URL and API key: providers limit per key):
- a request rate learned from `x-ratelimit-limit-requests` (per minute, as OpenAI sends it) and a
  token rate from `x-ratelimit-limit-tokens`, kept as a GCRA schedule (the "theoretical arrival
  time" of the next request; tokens are charged once a reply says how many were used);
- a hold: nobody sends before a 429's `Retry-After`, or before `x-ratelimit-reset-*` when
  `x-ratelimit-remaining-*` reached 0;
- an in-flight limit per process that adapts (AIMD): one request until the endpoint has
  answered once (its headers may state the limits), then the endpoint's concurrency; halved on
  every 429, +1/limit per answer after, never above the endpoint's concurrency.
The schedule and the hold live in Redis when a URL is given, so every worker of a deployment
paces to one shared limit; otherwise in this process. Redis going away (a restart, a failover)
never fails a request: the store is asked again with backoff for up to REDIS_PATIENCE_SECONDS
per outage, then this process paces alone until Redis answers again.
"""

import asyncio
import hashlib
import logging
import math
import re
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from app.redis_outage import REDIS_AWAY, REDIS_PATIENCE_SECONDS, REDIS_RETRY_FIRST_SECONDS
from app.telemetry.metrics import REDIS_UNAVAILABLE

logger = logging.getLogger("loupe.judges")

# Pace a little under the stated rate: clocks and arrival jitter must not cost a 429.
RATE_MARGIN = 0.97
# Requests (in seconds of schedule) that may go out back to back after a quiet spell.
BURST_SECONDS = 0.2
# A hold longer than this is capped: a provider's odd header must not stall a job for hours.
MAX_HOLD_SECONDS = 60.0
# With no stated rate, the shared store is asked at most this often (for another worker's hold).
QUIET_CHECK_SECONDS = 0.1
# Redis away: the waits between asking the shared schedule again top out sooner than a queue
# operation's (app/redis_outage.py), as a judge call is waiting on each.
PACE_RETRY_CAP_SECONDS = 2.0
# A Redis that accepts connections but does not answer counts as away after this long.
PACE_SOCKET_TIMEOUT_SECONDS = 5.0
_DURATION_PART = re.compile(r"(\d+(?:\.\d+)?)(ms|h|m|s)")


def parse_duration(value: str | None) -> float | None:
    """Seconds in a reset header: "1s", "6m0s", "20ms", "1h2m3.5s" or a bare number."""
    if not value:
        return None
    text = value.strip().lower()
    try:
        seconds = float(text)
    except ValueError:
        parts = _DURATION_PART.findall(text)
        if not parts or "".join(number + unit for number, unit in parts) != text:
            return None
        scale = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}
        seconds = sum(float(number) * scale[unit] for number, unit in parts)
    return seconds if math.isfinite(seconds) and seconds >= 0 else None


def _number(headers: Mapping[str, str], name: str) -> float | None:
    try:
        value = float(headers.get(name, ""))
    except ValueError:
        return None
    return value if math.isfinite(value) and value >= 0 else None


@dataclass
class RateHeaders:
    """What one reply said about the endpoint's limits (None: not said)."""

    requests_per_minute: float | None = None
    tokens_per_minute: float | None = None
    # Seconds until requests (tokens) may be sent again, when none remain.
    requests_exhausted_for: float | None = None
    tokens_exhausted_for: float | None = None

    @classmethod
    def read(cls, headers: Mapping[str, str]) -> "RateHeaders":
        said = cls(
            requests_per_minute=_number(headers, "x-ratelimit-limit-requests"),
            tokens_per_minute=_number(headers, "x-ratelimit-limit-tokens"),
        )
        if _number(headers, "x-ratelimit-remaining-requests") == 0:
            said.requests_exhausted_for = parse_duration(headers.get("x-ratelimit-reset-requests"))
        if _number(headers, "x-ratelimit-remaining-tokens") == 0:
            said.tokens_exhausted_for = parse_duration(headers.get("x-ratelimit-reset-tokens"))
        return said


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


def endpoint_key(base_url: str | None, api_key: str) -> str:
    """The shared schedule's name: providers limit per key (the key itself is never stored)."""
    return hashlib.sha256(f"{base_url or ''}\n{api_key}".encode()).hexdigest()[:24]


_TOTAL_TOKENS = re.compile(rb'"total_tokens"\s*:\s*(\d+)')


def total_tokens(raw: bytes) -> int:
    """A reply's usage.total_tokens, found without parsing the body (0 when absent)."""
    match = _TOTAL_TOKENS.search(raw)
    return int(match.group(1)) if match else 0


# One schedule per endpoint for every client of this process without Redis.
LOCAL_STORE = LocalPaceStore()


class Pacer:
    """Paces one endpoint's requests from this process; safe for every coroutine on one loop."""

    def __init__(self, key: str, max_in_flight: int, store: PaceStore) -> None:
        self.key = key
        self.store = store
        self.max_in_flight = max_in_flight
        # One request until the endpoint has answered: its headers may state the limits.
        self.limit = 1.0
        self._in_flight = 0
        self._answered = False  # has the endpoint answered (anything) yet?
        self._interval = 0.0  # seconds between requests; 0 while no rate is known
        self._token_interval = 0.0  # seconds per token
        self._slots = asyncio.Condition()
        # One coroutine at a time asks the schedule, so waiters do not stampede the store.
        self._schedule = asyncio.Lock()
        # With no rate known and no hold seen, skip the store until then (a round trip per
        # request would cost more than the pacing of an endpoint that states no limits).
        self._quiet_until = 0.0

    @property
    def in_flight(self) -> int:
        return self._in_flight

    @property
    def counts_tokens(self) -> bool:
        """True once the endpoint stated a token limit: replies' token counts then matter."""
        return self._token_interval > 0

    async def acquire(self) -> None:
        """Wait for an in-flight slot and the schedule's turn; pair with `release`."""
        async with self._slots:
            await self._slots.wait_for(lambda: self._in_flight < max(1, int(self.limit)))
            self._in_flight += 1
        try:
            if self._interval or time.monotonic() >= self._quiet_until:
                async with self._schedule:
                    await self._take_turn()
        except BaseException:
            await self._free()
            raise

    async def _take_turn(self) -> None:
        while True:
            wait = await self.store.take(self.key, self._interval, self._burst())
            if wait <= 0:
                break
            await asyncio.sleep(min(wait, MAX_HOLD_SECONDS))
        if not self._interval:
            self._quiet_until = time.monotonic() + QUIET_CHECK_SECONDS

    def _burst(self) -> float:
        return max(BURST_SECONDS, self._interval)

    async def release(
        self,
        *,
        headers: Mapping[str, str] | None,
        rate_limited: bool,
        retry_after: float | None = None,
        tokens: int = 0,
    ) -> None:
        """The request ended: adapt to what the endpoint said (headers: None when it did not
        answer at all, e.g. a timeout)."""
        try:
            said = RateHeaders.read(headers) if headers is not None else RateHeaders()
            if said.requests_per_minute:
                self._interval = 60.0 / (said.requests_per_minute * RATE_MARGIN)
            if said.tokens_per_minute:
                self._token_interval = 60.0 / (said.tokens_per_minute * RATE_MARGIN)
            if tokens and self._token_interval:
                await self.store.charge(self.key, tokens * self._token_interval, self._burst())
            holds = [said.tokens_exhausted_for, retry_after if rate_limited else None]
            if said.requests_exhausted_for is not None:
                # None left now, but the next one comes back a request's interval later, not
                # when the whole window has refilled (what the reset header counts down to).
                holds.append(min(said.requests_exhausted_for, self._interval or math.inf))
            hold = max((h for h in holds if h is not None), default=0.0)
            if hold > 0:
                await self.store.hold(self.key, min(hold, MAX_HOLD_SECONDS))
                self._quiet_until = 0.0
            if headers is not None:
                self._adapt(rate_limited)
        finally:
            await self._free()

    def _adapt(self, rate_limited: bool) -> None:
        if rate_limited:
            self.limit = max(1.0, self.limit / 2)
        elif not self._answered:
            self.limit = float(self.max_in_flight)
        else:
            self.limit = min(float(self.max_in_flight), self.limit + 1 / self.limit)
        self._answered = True

    async def _free(self) -> None:
        async with self._slots:
            self._in_flight -= 1
            self._slots.notify_all()

    async def close(self) -> None:
        if isinstance(self.store, RedisPaceStore):
            await self.store.close()

    def describe(self) -> dict[str, Any]:
        """The pacer's state, for logs and tests."""
        return {
            "limit": self.limit,
            "in_flight": self._in_flight,
            "requests_per_second": 1 / self._interval if self._interval else None,
        }
