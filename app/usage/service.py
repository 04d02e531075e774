"""A tenant's usage over a range of UTC days, and what it spent today."""

import asyncio
from datetime import UTC, date, datetime, time, timedelta

from sqlalchemy.orm import Session

from app.db import utcnow
from app.models import Tenant
from app.problems import invalid_field
from app.usage import repository
from app.usage.schemas import (
    Estimate,
    Usage,
    UsageBucket,
    UsageGrouping,
    UsageTotals,
    add_costs,
)

DEFAULT_DAYS = 30
MAX_DAYS = 366


def midnight(day: date) -> datetime:
    return datetime.combine(day, time(), tzinfo=UTC)


def usage(
    session: Session,
    tenant_id: str,
    start: date | None,
    end: date | None,
    group_by: UsageGrouping,
    today: date,
) -> Usage:
    """Sums of the tenant's results stored on UTC days start..end (both included)."""
    start, end = _day_range(start, end, today)
    rows = repository.sums(session, tenant_id, start, end, group_by)
    buckets: dict[str, dict[str, UsageTotals]] = {}
    totals = {"judge": UsageTotals(), "candidate": UsageTotals()}
    for row in rows:
        key = row["key"] if row["key"] is not None else "unknown"
        bucket = buckets.setdefault(key, {"judge": UsageTotals(), "candidate": UsageTotals()})
        cost = None if row["unpriced"] else row["cost_usd"]
        for target in (bucket[row["role"]], totals[row["role"]]):
            target.calls += row["calls"]
            target.failed_calls += row["failed_calls"]
            target.prompt_tokens += row["prompt_tokens"]
            target.completion_tokens += row["completion_tokens"]
            target.cached_prompt_tokens += row["cached_prompt_tokens"]
            target.cost_usd = add_costs(target.cost_usd, cost)
    data = [
        UsageBucket(
            key=key,
            judge=parts["judge"],
            candidate=parts["candidate"],
            cost_usd=add_costs(parts["judge"].cost_usd, parts["candidate"].cost_usd),
        )
        for key, parts in sorted(buckets.items())
    ]
    return Usage(
        start=start,
        end=end,
        group_by=group_by,
        data=data,
        judge=totals["judge"],
        candidate=totals["candidate"],
        cost_usd=add_costs(totals["judge"].cost_usd, totals["candidate"].cost_usd),
    )


def _day_range(start: date | None, end: date | None, today: date) -> tuple[date, date]:
    """The days to count, or a 422 naming the query parameter at fault."""
    if end is None:
        end = today
    elif end == date.max:
        # Refused as ever: the range's end is read as the midnight after it, and the last
        # date has none.
        raise invalid_field(["query", "end"], f"must be before {date.max.isoformat()}")
    if start is None:
        # Near year 1 the default range is shorter: a date before 0001-01-01 does not exist.
        start = end - timedelta(days=min(DEFAULT_DAYS - 1, end.toordinal() - 1))
    if start > end:
        raise invalid_field(
            ["query", "start"], f"{start.isoformat()} is after end ({end.isoformat()})"
        )
    days = (end - start).days + 1
    if days > MAX_DAYS:
        raise invalid_field(
            ["query", "start"],
            f"{start.isoformat()}..{end.isoformat()} spans {days} days; at most {MAX_DAYS}",
        )
    return start, end


def spent_today(session: Session, tenant_id: str, now: datetime) -> tuple[float, int]:
    """The USD the tenant's priced results cost since UTC midnight, and how many had no price."""
    today = now.astimezone(UTC).date()
    rows = repository.sums(session, tenant_id, today, today, "day")
    return sum(row["cost_usd"] for row in rows), sum(row["unpriced"] for row in rows)


class Budget:
    """A job's view of its tenant's daily budget: what was spent today, kept current as the job
    stores results (its own and, re-read then, every other job's of the tenant), and what the
    job's items in flight are expected to cost.

    An item is let in while what was spent plus what the items in flight are expected to cost
    is under the limit, so the last one let in passes it by its own cost at most (and by what
    items of other jobs, in flight at once, cost); while only the items in flight fill it, the
    next waits for one of them to finish (`admit`) rather than being refused with the budget
    unspent. An item's expected cost is the mean of the job's priced items of its metric, or
    before one is priced, the estimate's (`expect`)."""

    def __init__(self, tenant_id: str, limit: float | None, spent: float = 0.0) -> None:
        self.tenant_id = tenant_id
        self.limit = limit
        self.spent = spent
        self.reserved = 0.0
        self.in_flight = 0
        self._expected: dict[int, float] = {}
        self._priced: dict[int, tuple[float, int]] = {}
        self._finished = asyncio.Event()

    def exhausted(self) -> bool:
        return self.limit is not None and self.spent + self.reserved >= self.limit

    def expect(self, expected: dict[int, float]) -> None:
        """What one item of each metric (by index) costs before one of them is priced."""
        self._expected = dict(expected)

    async def admit(self, index: int) -> float | None:
        """Reserve an item of metric `index` (what it is expected to cost) once what was spent
        and is in flight leaves room; None once what was spent alone fills the budget."""
        while self.exhausted():
            if not self.in_flight or self.spent >= (self.limit or 0.0):
                return None
            # Only the items in flight fill it: they may cost less than expected.
            await self._finished.wait()
        return self.reserve(index)

    def reserve(self, index: int) -> float:
        """Count an item of metric `index` as in flight; what it is expected to cost."""
        total, count = self._priced.get(index, (0.0, 0))
        amount = total / count if count else self._expected.get(index, 0.0)
        self.reserved += amount
        self.in_flight += 1
        return amount

    def release(self, reserved: float) -> None:
        """An item reserved as `reserved` stopped unfinished."""
        self.in_flight -= 1
        # None left in flight: no rounding left over either.
        self.reserved = max(0.0, self.reserved - reserved) if self.in_flight else 0.0
        # Wake the items waiting for room (`admit`); later waits take a fresh event.
        self._finished.set()
        self._finished = asyncio.Event()

    def settle(self, index: int, reserved: float, *costs: float | None) -> None:
        """The item reserved as `reserved` finished: count its costs (unpriced calls cost
        nothing known) in place of what it was expected to cost."""
        self.release(reserved)
        cost = sum(cost for cost in costs if cost is not None)
        self.spent += cost
        total, count = self._priced.get(index, (0.0, 0))
        self._priced[index] = (total + cost, count + 1)

    def refresh(self, session: Session, now: datetime) -> None:
        """Catch up with what the tenant's other jobs stored."""
        if self.limit is not None:
            self.spent = max(self.spent, spent_today(session, self.tenant_id, now)[0])

    def message(self) -> str:
        return (
            f"the tenant's daily budget of {self.limit:g} USD (UTC day) is spent; "
            "no further model calls are made for it today"
        )


def within_budget(session: Session, tenant: Tenant, found: Estimate) -> Estimate:
    """The estimate, with a note when the tenant's daily budget (`loupe tenants limits
    --daily-usd`) is spent or has less left today (UTC) than the estimate's dollars: a submit
    would answer 429, or the job would stop calling models part way."""
    limit = tenant.daily_usd
    if limit is None:
        return found
    spent, _ = spent_today(session, tenant.id, utcnow())
    left = max(0.0, limit - spent)
    if left <= 0:
        note = (
            f"the tenant's daily budget of {limit:g} USD is spent today (UTC): submitting this "
            "now answers 429 until midnight UTC"
        )
    elif found.usd is not None and found.usd > left:
        note = (
            f"this costs about {found.usd:.6g} USD but {left:.6g} USD of the tenant's daily "
            f"budget of {limit:g} USD is left today (UTC): once it is spent no further model "
            "calls are made today, and the results not yet judged are errored saying so"
        )
    else:
        return found
    return found.model_copy(update={"notes": [*found.notes, note]})


def count_calls(
    session: Session, tenant_id: str, evaluation_id: str, model: str | None, used: UsageTotals
) -> None:
    """Count judge calls made outside a result (an alignment's rubric notes) in the tenant's
    usage today (UTC) under `evaluation_id`: `GET /v1/usage` shows them and the daily budget
    counts them, as every result's."""
    today = utcnow().astimezone(UTC).date()
    repository.add_calls(session, tenant_id, evaluation_id, today, model, used.model_dump())
