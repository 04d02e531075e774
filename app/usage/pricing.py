"""What a result's calls cost, from their token counts and `LOUPE_MODEL_PRICES`."""

from collections.abc import Mapping

from app.config import ModelPrice

_PER = 1_000_000


def cost_usd(
    prices: Mapping[str, ModelPrice],
    model: str | None,
    *,
    calls: int,
    prompt_tokens: int,
    completion_tokens: int,
    cached_prompt_tokens: int = 0,
) -> float | None:
    """The USD cost of `calls` to `model`, or None when the model has no price.

    No calls cost 0 whatever the model; calls to an unpriced model are never counted as free.
    """
    if calls == 0 and prompt_tokens == 0 and completion_tokens == 0:
        return 0.0
    price = prices.get(model) if model else None
    if price is None:
        return None
    cached = min(cached_prompt_tokens, prompt_tokens) if price.cached_input is not None else 0
    return (
        (prompt_tokens - cached) * price.input
        + cached * (price.cached_input or 0.0)
        + completion_tokens * price.output
    ) / _PER
