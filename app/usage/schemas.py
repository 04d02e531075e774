"""GET /v1/usage: a tenant's tokens, calls and cost over days, by day or by model."""

from datetime import date
from typing import Literal

from pydantic import BaseModel, Field

UsageGrouping = Literal["day", "model"]


class UsageTotals(BaseModel):
    calls: int = Field(default=0, description="Requests the model answered (billed).")
    failed_calls: int = Field(
        default=0,
        description="Requests sent that got no answer (an error status, a timeout, no "
        "connection), each retry counted; not in `calls`, and their tokens are not billed.",
    )
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float | None = Field(
        default=0.0,
        description="USD, from LOUPE_MODEL_PRICES; null when a call's model has no price.",
    )


def add_costs(*costs: float | None) -> float | None:
    """The sum of costs; None (unknown) when any is."""
    if any(cost is None for cost in costs):
        return None
    return sum(cost for cost in costs if cost is not None)


class UsageBucket(BaseModel):
    key: str = Field(description="The UTC day (YYYY-MM-DD) or the model name.")
    judge: UsageTotals = Field(description="Judge calls, tokens and cost in the bucket.")
    candidate: UsageTotals = Field(description="Candidate-model calls, tokens and cost.")
    cost_usd: float | None = Field(description="Judge plus candidate; null when either is.")


class Usage(BaseModel):
    object: Literal["usage"] = "usage"
    start: date = Field(description="First UTC day counted.")
    end: date = Field(description="Last UTC day counted (inclusive).")
    group_by: UsageGrouping
    data: list[UsageBucket] = Field(description="Buckets with calls, days or models in order.")
    judge: UsageTotals
    candidate: UsageTotals
    cost_usd: float | None = Field(description="Everything in the range; null when unknown.")
