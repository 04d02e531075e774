"""All SQL about usage: sums over a tenant's stored results (its evaluations and runs)."""

from datetime import datetime
from typing import Any

from sqlalchemy import case, func, select
from sqlalchemy.orm import Session

from app.models import Evaluation, Result


def _day(session: Session) -> Any:
    """A result's UTC day, as SQL."""
    if session.get_bind().dialect.name == "postgresql":
        return func.date(func.timezone("UTC", Result.created_at))
    return func.date(Result.created_at)


def sums(
    session: Session, tenant_id: str, start: datetime, end: datetime, group_by: str
) -> list[dict[str, Any]]:
    """Per bucket (a UTC day, or a model) and role ("judge", "candidate"): calls, failed
    calls, tokens, the priced cost and how many results with calls had no price. Results in
    [start, end)."""
    rows: list[dict[str, Any]] = []
    for role, calls, failed, prompt, completion, cost, model in (
        (
            "judge",
            Result.judge_calls,
            Result.judge_failed_calls,
            Result.prompt_tokens,
            Result.completion_tokens,
            Result.judge_cost_usd,
            Result.judge_model,
        ),
        (
            "candidate",
            Result.candidate_calls,
            Result.candidate_failed_calls,
            Result.candidate_prompt_tokens,
            Result.candidate_completion_tokens,
            Result.candidate_cost_usd,
            Result.candidate_model,
        ),
    ):
        key = _day(session) if group_by == "day" else model
        statement = (
            select(
                key.label("key"),
                func.sum(calls),
                func.sum(failed),
                func.sum(prompt),
                func.sum(completion),
                func.sum(cost),
                func.sum(case((cost.is_(None), 1), else_=0)),
            )
            .join(Evaluation, Evaluation.id == Result.evaluation_id)
            .where(
                Evaluation.tenant_id == tenant_id,
                Result.created_at >= start,
                Result.created_at < end,
                # Requests that only failed count too (as failed calls, costing nothing).
                (calls > 0) | (failed > 0),
            )
            .group_by(key)
        )
        for bucket, n, f, p, c, usd, unpriced in session.execute(statement):
            rows.append(
                {
                    "key": str(bucket) if bucket is not None else None,
                    "role": role,
                    "calls": int(n or 0),
                    "failed_calls": int(f or 0),
                    "prompt_tokens": int(p or 0),
                    "completion_tokens": int(c or 0),
                    "cost_usd": float(usd or 0.0),
                    "unpriced": int(unpriced or 0),
                }
            )
    return rows
