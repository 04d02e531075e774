"""All SQL about usage: sums of a tenant's usage days (app/models/usage_day.py), which the
scoring write keeps as it stores results."""

from datetime import date
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.db import add_into
from app.models import UsageDay
from app.models.usage_day import USAGE_SUMMED


def sums(
    session: Session, tenant_id: str, start: date, end: date, group_by: str
) -> list[dict[str, Any]]:
    """Per bucket (a UTC day, or a model; None: results naming no model) and role ("judge",
    "candidate"): calls, failed calls, tokens, the priced cost and how many results with calls
    had no price. Results stored on the UTC days start..end, both included."""
    key = UsageDay.day if group_by == "day" else UsageDay.model
    statement = (
        select(
            key,
            UsageDay.role,
            func.sum(UsageDay.calls),
            func.sum(UsageDay.failed_calls),
            func.sum(UsageDay.prompt_tokens),
            func.sum(UsageDay.completion_tokens),
            func.sum(UsageDay.cached_prompt_tokens),
            func.sum(UsageDay.cost_usd),
            func.sum(UsageDay.unpriced),
        )
        .where(UsageDay.tenant_id == tenant_id, UsageDay.day >= start, UsageDay.day <= end)
        .group_by(key, UsageDay.role)
        .order_by(UsageDay.role, key)
    )
    return [
        {
            "key": (str(bucket) or None) if bucket is not None else None,
            "role": role,
            "calls": int(n or 0),
            "failed_calls": int(f or 0),
            "prompt_tokens": int(p or 0),
            "completion_tokens": int(c or 0),
            "cached_prompt_tokens": int(cached or 0),
            "cost_usd": float(usd or 0.0),
            "unpriced": int(unpriced or 0),
        }
        for bucket, role, n, f, p, c, cached, usd, unpriced in session.execute(statement)
    ]


def add_calls(
    session: Session,
    tenant_id: str,
    evaluation_id: str,
    day: date,
    model: str | None,
    counted: dict[str, Any],
) -> None:
    """Count judge calls made outside a result (an alignment's rubric notes) on the tenant's
    usage day under `evaluation_id`, as the scoring write counts its results' (added to a
    row already there). `counted`: calls, failed_calls, the three token counts, cost_usd
    (None: no price, counted as unpriced)."""
    cost = counted.get("cost_usd")
    add_into(
        session,
        UsageDay,
        [
            {
                "evaluation_id": evaluation_id,
                "day": day,
                "role": "judge",
                "model": model or "",
                "tenant_id": tenant_id,
                "calls": counted["calls"],
                "failed_calls": counted["failed_calls"],
                "prompt_tokens": counted["prompt_tokens"],
                "completion_tokens": counted["completion_tokens"],
                "cached_prompt_tokens": counted["cached_prompt_tokens"],
                "cost_usd": cost or 0.0,
                "unpriced": int(cost is None and counted["calls"] > 0),
            }
        ],
        keys=("evaluation_id", "day", "role", "model"),
        added=USAGE_SUMMED,
    )
