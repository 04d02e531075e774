"""Verdict lists as judges return them: schemas, normalisation, strict-mode clamp."""

import re
from functools import lru_cache
from typing import Any

from pydantic import BaseModel, ConfigDict

_WORD = re.compile(r"[a-z]+")


class Verdict(BaseModel):
    verdict: str
    reason: str | None = None


def read(verdict: Any, allowed: dict[str, str]) -> str | None:
    """The verdict's leading word (lower case) mapped through `allowed`; None if it is not
    in the vocabulary."""
    match = _WORD.match(str(verdict).strip().lower())
    return allowed.get(match.group(0)) if match else None


def normalise_verdicts(
    raw: list[dict[str, Any]], allowed: dict[str, str]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Verdicts with their value mapped through `allowed` (leading word, lower case);
    returns (kept, dropped). Values outside the vocabulary are dropped, as deepeval does."""
    kept, dropped = [], []
    for item in raw:
        value = read(item.get("verdict", ""), allowed)
        if value is None:
            dropped.append(item)
        else:
            kept.append({**item, "verdict": value})
    return kept, dropped


def refuse_unreadable(verdicts: list[str], allowed: dict[str, str]) -> None:
    """Raises ValueError naming the verdicts outside the vocabulary. In a reply schema's
    validator this makes the reply malformed: the judge client asks once for a repair, then the
    result is `judge_malformed`, as for any other unusable answer."""
    unreadable = [verdict for verdict in verdicts if read(verdict, allowed) is None]
    if unreadable:
        words = ", ".join(sorted(allowed))
        shown = ", ".join(repr(verdict) for verdict in unreadable[:3])
        raise ValueError(f"{len(unreadable)} verdict(s) are not one of {words}: {shown}")


def strict_clamp(score: float, threshold: float, strict_mode: bool) -> float:
    """In strict mode a score under the threshold is 0."""
    return 0.0 if strict_mode and score < threshold else score


@lru_cache
def schema(title: str, *, with_reason: bool) -> type[BaseModel]:
    """A `{verdicts: [...], reason?: str}` schema named for its task."""

    if with_reason:

        class WithReason(BaseModel):
            model_config = ConfigDict(title=title)
            verdicts: list[Verdict]
            reason: str

        return WithReason

    class Bare(BaseModel):
        model_config = ConfigDict(title=title)
        verdicts: list[Verdict]

    return Bare


def answer_shape(with_reason: bool) -> str:
    """The JSON shape a verdicts prompt asks for."""
    shape = '{"verdicts": [{"verdict": "yes|no", "reason": "..."}]'
    return shape + (', "reason": "..."}' if with_reason else "}")
