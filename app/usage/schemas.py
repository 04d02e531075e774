"""GET /v1/usage: a tenant's tokens, calls and cost over days, by day or by model."""

from datetime import date
from typing import Literal

from pydantic import BaseModel, Field

from app.evaluations.schemas import UsageTotals

UsageGrouping = Literal["day", "model"]


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
