"""G-Eval's probability-weighted score from the logprobs of the score token."""

import math
from typing import Any

# Alternatives below 1 % probability are noise, as in deepeval.
_MIN_LOGPROB = math.log(0.01)


def weighted_score(
    raw_score: float,
    tokens: list[dict[str, Any]] | None,
    bounds: tuple[float, float] | None = None,
) -> float | None:
    """Σ value·p / Σ p over digit alternatives at the last token spelling the raw score.

    Tokens match as deepeval matches them: the score token's text must equal the score
    exactly, and only alternatives made of digits alone count (" 7" is neither). With
    `bounds`, only alternatives within them count: a "9" among the alternatives of a 1-to-5
    score is no answer to the question, and weighing it in pushed the score past the range
    (where a clamp then hid it).

    Returns None when the weighting cannot be computed (no logprobs, score token not found,
    non-integer score); the caller then uses the raw score and says so.
    """
    if not tokens or not math.isfinite(raw_score) or raw_score != int(raw_score):
        return None
    target = str(int(raw_score))
    # Search from the end: the reason text may contain the same digit earlier (deepeval #3000).
    for token in reversed(tokens):
        if token.get("token") != target:
            continue
        weights: dict[int, float] = {}
        for alternative in token.get("top_logprobs") or []:
            text = alternative.get("token") or ""
            logprob = alternative.get("logprob")
            if not text.isdecimal() or not isinstance(logprob, int | float):
                continue
            # NaN or an infinity is no probability: it would make the weighted score NaN.
            if not math.isfinite(logprob) or logprob < _MIN_LOGPROB:
                continue
            if bounds is not None and not bounds[0] <= int(text) <= bounds[1]:
                continue
            weights[int(text)] = weights.get(int(text), 0.0) + math.exp(logprob)
        total = sum(weights.values())
        if total == 0:
            return None
        return sum(value * p for value, p in weights.items()) / total
    return None
