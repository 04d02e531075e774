"""Pacing requests to what a provider allows, instead of sending until it answers 429.

Three brakes, all per endpoint (base URL and API key: providers limit per key):
- a request rate learned from `x-ratelimit-limit-requests` (per minute, as OpenAI sends it) and a
  token rate from `x-ratelimit-limit-tokens`, kept as a GCRA schedule (the "theoretical arrival
  time" of the next request; tokens are charged once a reply says how many were used);
- a hold: nobody sends before a 429's `Retry-After`, or before `x-ratelimit-reset-*` when
  `x-ratelimit-remaining-*` reached 0;
- an in-flight limit per process that adapts (AIMD): one request until the endpoint has
  answered once (its headers may state the limits), then the endpoint's concurrency; halved on
  every 429, +1/limit per answer after, never above the endpoint's concurrency once it stated
  a limit or answered 429. An endpoint that has done neither lets the limit grow past that, up
  to its `grow_to`: +1 per answer while requests wait for a slot (doubling per round trip)
  and the process has CPU to spare (more requests in flight than the process can serve only
  make each one slower).
The schedule and the hold live in Redis when a URL is given, so every worker of a deployment
paces to one shared limit; otherwise in this process. Redis going away (a restart, a failover)
never fails a request: the store is asked again with backoff for up to REDIS_PATIENCE_SECONDS
per outage, then this process paces alone until Redis answers again.
"""

import asyncio
import collections
import hashlib
import logging
import math
import re
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from app.judges._pace_stores import PaceStore, RedisPaceStore

logger = logging.getLogger("loupe.judges")

# Pace a little under the stated rate: clocks and arrival jitter must not cost a 429.
RATE_MARGIN = 0.97
# Requests (in seconds of schedule) that may go out back to back after a quiet spell.
BURST_SECONDS = 0.2
# A hold longer than this is capped: a provider's odd header must not stall a job for hours.
MAX_HOLD_SECONDS = 60.0
# With no stated rate, the shared store is asked at most this often (for another worker's hold).
QUIET_CHECK_SECONDS = 0.1
# Growth past the endpoint's concurrency stops while this event loop runs a timer this late
# (or later): the process has no CPU to spare, whether its own work or the machine's other
# processes take it. Measured every LAG_TICK_SECONDS; a late tick counts for a few ticks.
BUSY_LAG_SECONDS = 0.02
LAG_TICK_SECONDS = 0.05
LAG_DECAY = 0.8
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


_RATE_PREFIX = b"x-ratelimit-"


def rate_limit_headers(raw: Iterable[tuple[bytes, bytes]]) -> dict[str, str]:
    """The `x-ratelimit-*` headers of a reply (raw name and value pairs), by lower-case name:
    one pass, where looking each up in httpx's Headers scans them all again."""
    return {
        name.decode("latin-1").lower(): value.decode("latin-1")
        for name, value in raw
        if name[:12].lower() == _RATE_PREFIX
    }


def _number(headers: Mapping[str, str], name: str) -> float | None:
    text = headers.get(name)
    if text is None:
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) and value >= 0 else None


@dataclass(frozen=True)
class RateHeaders:
    """What one reply said about the endpoint's limits (None: not said)."""

    requests_per_minute: float | None = None
    tokens_per_minute: float | None = None
    # Seconds until requests (tokens) may be sent again, when none remain.
    requests_exhausted_for: float | None = None
    tokens_exhausted_for: float | None = None

    @classmethod
    def read(cls, headers: Mapping[str, str]) -> "RateHeaders":
        return cls(
            requests_per_minute=_number(headers, "x-ratelimit-limit-requests"),
            tokens_per_minute=_number(headers, "x-ratelimit-limit-tokens"),
            requests_exhausted_for=(
                parse_duration(headers.get("x-ratelimit-reset-requests"))
                if _number(headers, "x-ratelimit-remaining-requests") == 0
                else None
            ),
            tokens_exhausted_for=(
                parse_duration(headers.get("x-ratelimit-reset-tokens"))
                if _number(headers, "x-ratelimit-remaining-tokens") == 0
                else None
            ),
        )


# What an answer without rate-limit headers said (never changed: read only).
_NOTHING_SAID = RateHeaders()


def endpoint_key(base_url: str | None, api_key: str) -> str:
    """The shared schedule's name: providers limit per key (the key itself is never stored)."""
    return hashlib.sha256(f"{base_url or ''}\n{api_key}".encode()).hexdigest()[:24]


_TOTAL_TOKENS = re.compile(rb'"total_tokens"\s*:\s*(\d+)')


def total_tokens(raw: bytes) -> int:
    """A reply's usage.total_tokens, found without parsing the body (0 when absent)."""
    match = _TOTAL_TOKENS.search(raw)
    return int(match.group(1)) if match else 0


class LoopLag:
    """How late this event loop runs a timer: a loop with callbacks queued behind each other
    (CPU-bound, or starved by other processes) runs it late."""

    def __init__(self) -> None:
        self.lag = 0.0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._due = 0.0
        self._handle: asyncio.TimerHandle | None = None

    def busy(self) -> bool:
        """True while the loop runs timers BUSY_LAG_SECONDS late or later, and until a first
        tick has been measured (started on the first call, on the running loop)."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # the first call, or a client outliving its loop
            self._loop, self.lag = loop, math.inf
            self._schedule()
        return self.lag >= BUSY_LAG_SECONDS

    def _schedule(self) -> None:
        assert self._loop is not None
        self._due = self._loop.time() + LAG_TICK_SECONDS
        self._handle = self._loop.call_at(self._due, self._tick)

    def _tick(self) -> None:
        assert self._loop is not None
        late = self._loop.time() - self._due
        self.lag = late if self.lag == math.inf else max(late, self.lag * LAG_DECAY)
        self._schedule()

    def close(self) -> None:
        if self._handle is not None:
            self._handle.cancel()


class Pacer:
    """Paces one endpoint's requests from this process; safe for every coroutine on one loop."""

    def __init__(
        self,
        key: str,
        max_in_flight: int,
        store: PaceStore,
        grow_to: int | None = None,
        lag: LoopLag | None = None,
    ) -> None:
        self.key = key
        self.store = store
        # The ceiling once the endpoint stated a limit or answered 429 (and the starting point).
        self.max_in_flight = max_in_flight
        # The ceiling while it has done neither.
        self.grow_to = max(grow_to or max_in_flight, max_in_flight)
        # One request until the endpoint has answered: its headers may state the limits.
        self.limit = 1.0
        self._in_flight = 0
        # Requests waiting for an in-flight slot, first come first served: a freed slot is
        # handed to the next one (waking every waiter on every answer cost O(waiters) each).
        self._waiters: collections.deque[asyncio.Future[None]] = collections.deque()
        self._answered = False  # has the endpoint answered (anything) yet?
        self._limited = False  # has it stated a limit or answered 429?
        self._lag = lag or LoopLag()
        self._interval = 0.0  # seconds between requests; 0 while no rate is known
        self._token_interval = 0.0  # seconds per token
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
        if self._waiters or self._in_flight >= self._slots():
            waiter = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            try:
                await waiter  # the slot is taken for us (counted in _in_flight) when woken
            except BaseException:
                if waiter.done() and not waiter.cancelled():
                    self._give_back()  # woken and cancelled at once: the slot goes on
                elif waiter in self._waiters:  # not passed over by a hand-out already
                    self._waiters.remove(waiter)
                raise
        else:
            self._in_flight += 1
        try:
            if self._asks_store():
                async with self._schedule:
                    # Asked again: those queued behind the one that just asked would each ask
                    # the store in turn (a round trip apiece, one at a time) for nothing.
                    if self._asks_store():
                        await self._take_turn()
        except BaseException:
            self._give_back()
            raise

    def _asks_store(self) -> bool:
        """A known rate is always asked; otherwise once per QUIET_CHECK_SECONDS (another
        worker's hold)."""
        return bool(self._interval) or time.monotonic() >= self._quiet_until

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
            # No x-ratelimit-* header (most answers of an endpoint that states no limits):
            # nothing said, nothing to read.
            said = RateHeaders.read(headers) if headers else _NOTHING_SAID
            if said.requests_per_minute:
                self._interval = 60.0 / (said.requests_per_minute * RATE_MARGIN)
            if said.tokens_per_minute:
                self._token_interval = 60.0 / (said.tokens_per_minute * RATE_MARGIN)
            if tokens and self._token_interval:
                await self.store.charge(self.key, tokens * self._token_interval, self._burst())
            hold = self._hold(said, retry_after if rate_limited else None)
            if hold > 0:
                await self.store.hold(self.key, min(hold, MAX_HOLD_SECONDS))
                self._quiet_until = 0.0
            if headers is not None:
                self._adapt(
                    rate_limited, stated=bool(said.requests_per_minute or said.tokens_per_minute)
                )
        finally:
            self._give_back()

    def _hold(self, said: RateHeaders, retry_after: float | None) -> float:
        """Seconds nobody may send for, from what a reply said (0: none)."""
        holds = [said.tokens_exhausted_for, retry_after]
        if said.requests_exhausted_for is not None:
            # None left now, but the next one comes back a request's interval later, not
            # when the whole window has refilled (what the reset header counts down to).
            holds.append(min(said.requests_exhausted_for, self._interval or math.inf))
        return max((h for h in holds if h is not None), default=0.0)

    def _adapt(self, rate_limited: bool, stated: bool = False) -> None:
        if (rate_limited or stated) and not self._limited:
            self._limited = True
            self.limit = min(self.limit, float(self.max_in_flight))
        if rate_limited:
            self.limit = max(1.0, self.limit / 2)
        elif not self._answered:
            self.limit = float(self.max_in_flight)
        elif self._growing():
            self.limit = min(float(self.grow_to), self.limit + 1)
            if self.limit >= self.grow_to:
                logger.info("judge requests in flight reached their ceiling %d", self.grow_to)
        else:
            self.limit = min(float(self.max_in_flight), self.limit + 1 / self.limit)
        self._answered = True

    def _growing(self) -> bool:
        """Whether the limit grows past the endpoint's concurrency now: no limit stated nor
        429 seen, requests waiting for a slot, and CPU to spare."""
        if self._limited or self.limit < self.max_in_flight or self.limit >= self.grow_to:
            return False
        return bool(self._waiters) and not self._lag.busy()

    def _slots(self) -> int:
        return max(1, int(self.limit))

    def _give_back(self) -> None:
        """A request ended: its slot, and any the limit grew by, go to the next waiters."""
        self._in_flight -= 1
        while self._waiters and self._in_flight < self._slots():
            waiter = self._waiters.popleft()
            if not waiter.done():
                self._in_flight += 1
                waiter.set_result(None)

    async def close(self) -> None:
        self._lag.close()
        if isinstance(self.store, RedisPaceStore):
            await self.store.close()

    def describe(self) -> dict[str, Any]:
        """The pacer's state, for logs and tests."""
        return {
            "limit": self.limit,
            "in_flight": self._in_flight,
            "limited": self._limited,
            "requests_per_second": 1 / self._interval if self._interval else None,
        }
