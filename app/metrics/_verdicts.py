"""Verdict lists as judges return them: schemas that refuse answers not fitting the question,
normalisation, strict-mode clamp."""

import re
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from typing import Annotated, Any, ClassVar, NamedTuple

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    WithJsonSchema,
    field_validator,
    model_validator,
)

from app.judges import MismatchedAnswer

_WORD = re.compile(r"[a-z]+")


def _not_a_boolean(value: Any) -> Any:
    # JSON's true would otherwise be read as 1: a judge naming no item would be scored on one.
    if isinstance(value, bool):
        raise ValueError("give the item's number, not true or false")
    return value


# The number of a turn, tool call or node a judge's verdict is keyed to.
ItemNumber = Annotated[int, BeforeValidator(_not_a_boolean)]


def _a_number(value: Any) -> Any:
    # JSON's true would otherwise be read as 1: "score": true passed a strict G-Eval.
    if isinstance(value, bool):
        raise ValueError("give a number, not true or false")
    return value


# A score a judge gives: a finite number, never a boolean (one repair request, then
# `judge_malformed`).
JudgeNumber = Annotated[float, BeforeValidator(_a_number), Field(allow_inf_nan=False)]

# The reason a judge gives for its score or verdicts: every score is stored with its reason,
# so an empty one (or only spaces) is an answer off its shape (one repair request, then
# `judge_malformed`), not a result without a reason.
Reason = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]


def _words(*allowed: str) -> WithJsonSchema:
    return WithJsonSchema({"type": "string", "enum": list(allowed)})


# Verdict fields: read leniently here (the leading word, any case, through the metric's
# vocabulary), but their JSON schema lists the words, so a judge that decodes to the schema
# (vLLM's guided decoding, a strict structured-output mode) can only answer one of them.
YesNo = Annotated[str, _words("yes", "no")]
YesNoIdk = Annotated[str, _words("yes", "no", "idk")]
AOrBOrTie = Annotated[str, _words("A", "B", "tie")]


class Verdict(BaseModel):
    verdict: YesNo
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
    returns (kept, dropped). The reply schemas refuse values outside the vocabulary first (one
    repair request, then `judge_malformed`), so nothing a metric scores is dropped here."""
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


def strict_scored(
    score: float, threshold: float, strict_mode: bool, reason: str | None, logs: dict[str, Any]
) -> tuple[float, str | None]:
    """`strict_clamp`, and a reason that says so when it clamps: the judge wrote its reason
    before the score was made, so a stored 0 came with "mostly relevant". The formula's own
    score is kept in `logs.unclamped_score`."""
    clamped = strict_clamp(score, threshold, strict_mode)
    if clamped == score:
        return score, reason
    logs["unclamped_score"] = score
    if reason is None:
        return clamped, None
    note = (
        f"Strict mode: the score {score:.4g} is under the threshold {threshold:g}, so it is "
        "stored as 0."
    )
    return clamped, f"{note} {reason}"


def refuse_miscount(given: int, expected: int, unit: str) -> None:
    """Raises MismatchedAnswer unless there is one verdict per `unit` asked about: a verdict
    too many or too few would be scored as if the answer fit (4 verdicts for 1 node scored 1)."""
    if given != expected:
        raise MismatchedAnswer(
            f"{given} verdict(s) for {expected} {unit}(s); give exactly one verdict per {unit}, "
            "in order"
        )


class Misfits(NamedTuple):
    """How keyed answers miss the keys asked about: the keys left out (in the order asked),
    the keys not asked about and the keys answered more than once (each sorted)."""

    missing: list[int]
    extra: list[int]
    twice: list[int]


def misfits(given: Iterable[int], expected: Iterable[int]) -> Misfits:
    """The keys `given` leaves out, adds and repeats against `expected`.

    Counted in one pass: a judge caught in a loop writes verdicts until its reply's cap (8 MB,
    some 250,000 of them), and comparing each with every other held the judge loop that every
    job's calls share for minutes."""
    wanted = list(expected)
    asked = set(wanted)
    counts = Counter(given)
    return Misfits(
        missing=[key for key in wanted if key not in counts],
        extra=sorted(key for key in counts if key not in asked),
        twice=sorted(key for key, times in counts.items() if times > 1),
    )


def some(keys: list[int], shown: int = 10) -> str:
    """Keys as a message lists them: the first `shown`, then how many more (the message is
    sent back to the judge and stored with the result's error)."""
    listed = ", ".join(map(str, keys[:shown]))
    return listed + (f" and {len(keys) - shown} more" if len(keys) > shown else "")


def refuse_out_of_range(value: float, low: float, high: float, what: str = "score") -> None:
    """Raises MismatchedAnswer for a number outside the range the judge was asked for: a clamp
    would turn a judge's 10 on a 0-1 scale into a pass."""
    if not low <= value <= high:
        raise MismatchedAnswer(f"{what} {value:g} is outside the asked range {low:g} to {high:g}")


class _Verdicts(BaseModel):
    verdicts: list[Verdict]
    # The vocabulary and, when the question fixes it, the verdict count (set per subclass).
    allowed: ClassVar[dict[str, str]] = {"yes": "yes", "no": "no"}
    count: ClassVar[int | None] = None
    unit: ClassVar[str] = "node"

    @field_validator("verdicts")
    @classmethod
    def _readable(cls, items: list[Verdict]) -> list[Verdict]:
        refuse_unreadable([item.verdict for item in items], cls.allowed)
        return items

    @model_validator(mode="after")
    def _one_per_unit(self) -> "_Verdicts":
        if self.count is not None:
            refuse_miscount(len(self.verdicts), self.count, self.unit)
        return self


def refuse_empty_reason(reason: str, judged: int) -> str:
    """The reason of a verdict list, stripped; empty is refused (as `Reason` is) when there are
    verdicts for it to explain. With none, the metric says why itself (no claims, no nodes)."""
    reason = reason.strip()
    if judged and not reason:
        raise ValueError("give a reason for the verdicts: it is stored with the score")
    return reason


class _VerdictsWithReason(_Verdicts):
    reason: str

    @model_validator(mode="after")
    def _explained(self) -> "_VerdictsWithReason":
        self.reason = refuse_empty_reason(self.reason, len(self.verdicts))
        return self


@lru_cache(maxsize=256)
def schema(
    title: str, *, with_reason: bool, count: int | None = None, unit: str = "node"
) -> type[BaseModel]:
    """A `{verdicts: [...], reason?: str}` schema named for its task, refusing a verdict outside
    yes/no and, given `count`, any other number of verdicts than one per `unit`."""
    base = _VerdictsWithReason if with_reason else _Verdicts
    namespace = {"model_config": ConfigDict(title=title), "count": count, "unit": unit}
    return type(title, (base,), namespace)


def answer_shape(with_reason: bool) -> str:
    """The JSON shape a verdicts prompt asks for."""
    shape = '{"verdicts": [{"verdict": "yes|no", "reason": "..."}]'
    return shape + (', "reason": "..."}' if with_reason else "}")
