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
    cached_prompt_tokens: int = Field(
        default=0,
        description="Of `prompt_tokens`, those the provider answered from its prompt cache "
        "(`usage.prompt_tokens_details.cached_tokens`; priced as `cached_input` where set).",
    )
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


class EstimateTotals(BaseModel):
    """Judge calls, tokens and dollars an estimate expects."""

    calls: int = Field(description="Requests to the model, as `usage.calls` will count them.")
    prompt_tokens: int = Field(
        description="Counted by rendering each call's prompt with the model family's tokenizer "
        "(tiktoken), images by OpenAI's tile rule."
    )
    completion_tokens: int = Field(description="What each call's answer typically takes.")
    usd: float | None = Field(
        description="From LOUPE_MODEL_PRICES; null when a model called has no price."
    )


class JudgeEstimate(EstimateTotals):
    """One judge's share of a metric: a panel's members are priced by their own models."""

    model: str | None
    model_id: str | None = Field(description="The registered model; null: the server's judge.")
    encoding: str = Field(description="The tokenizer the prompts were counted with.")


class MetricEstimate(EstimateTotals):
    """One metric's calls: per test case, each sample of each judge makes them all."""

    metric: str = Field(description="The metric's name (what its results are reported under).")
    type: str
    samples: int = Field(description="`judge.samples`: judge calls on the same output.")
    panel: int | None = Field(description="`judge.panel`'s members; null without a panel.")
    multiplier: int = Field(
        description="samples x members: how many times each test case is judged (shared "
        "answers such as G-Eval steps and faithfulness truths are made once per judge)."
    )
    judges: list[JudgeEstimate] = Field(description="Per judge (a panel's members).")


class Estimate(EstimateTotals):
    """What a submission would cost before it runs: nothing is stored, no model is called."""

    object: Literal["estimate"] = "estimate"
    metrics: list[MetricEstimate]
    candidate: EstimateTotals | None = Field(
        default=None, description="A run's candidate model: one call per sample."
    )
    notes: list[str] = Field(
        description="Where the figures are bounds or guesses (judge cache, unknown tokenizer, "
        "images of unknown size)."
    )
