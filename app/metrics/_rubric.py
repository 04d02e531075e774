"""What g_eval and conversational_g_eval share: the rubric, their generated steps (asked once
and shared by every case, or planned), and the score made from the judge's integer
(logprob-weighted where it can be, normalised by the rubric's span) with the logs saying how."""

import math
from collections.abc import Callable
from typing import Annotated, Any, Protocol

from pydantic import (
    BaseModel,
    ConfigDict,
    StringConstraints,
    ValidationError,
    ValidatorFunctionWrapHandler,
    field_validator,
    model_validator,
)
from pydantic_core import InitErrorDetails, PydanticCustomError

from app.judges import JudgeReply, weighted_score
from app.metrics._judged import JudgedSpecBase, JudgeSession
from app.metrics._plan import Completion, PlannedCall

NonEmpty = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]


class RubricItem(BaseModel):
    model_config = ConfigDict(extra="forbid")

    score_range: tuple[int, int]
    expected_outcome: NonEmpty

    @field_validator("score_range")
    @classmethod
    def _range(cls, value: tuple[int, int]) -> tuple[int, int]:
        start, end = value
        if not (0 <= start <= 10 and 0 <= end <= 10):
            raise ValueError("both ends must be between 0 and 10")
        if start > end:
            raise ValueError("start must not be greater than end")
        return value


def ordered_rubric(rubric: list[RubricItem] | None) -> list[RubricItem] | None:
    """The rubric sorted by its ranges' start; raises ValueError when two ranges overlap."""
    if not rubric:
        return rubric
    ordered = sorted(rubric, key=lambda item: item.score_range[0])
    for before, after in zip(ordered, ordered[1:], strict=False):
        if before.score_range[1] >= after.score_range[0]:
            raise ValueError(
                f"rubric ranges {list(before.score_range)} and {list(after.score_range)} overlap"
            )
    return ordered


def rubric_span(rubric: list[RubricItem] | None) -> tuple[int, int]:
    """The lowest and highest score the judge may give: the rubric's ends, else 0 to 10."""
    if not rubric:
        return 0, 10
    return rubric[0].score_range[0], rubric[-1].score_range[1]


def rubric_text(rubric: list[RubricItem] | None) -> str:
    """The rubric as prompt lines (empty without one)."""
    if not rubric:
        return ""
    lines = [f"{r.score_range[0]}-{r.score_range[1]}: {r.expected_outcome}" for r in rubric]
    return "Rubric:\n" + "\n".join(lines) + "\n"


class Steps(BaseModel):
    model_config = ConfigDict(title="g_eval_steps")
    steps: list[str]


def numbered(steps: list[str]) -> str:
    return "\n".join(f"{i}. {s}" for i, s in enumerate(steps, start=1))


class GEval(Protocol):
    """The fields of a G-Eval's spec the steps and the score read."""

    model: str | None
    evaluation_steps: list[str] | None
    rubric: list[RubricItem] | None
    top_logprobs: int
    strict_mode: bool


def planned_steps(
    spec: GEval, schema: type[Steps], prompt: Callable[[Any], str], typical: list[str]
) -> tuple[list[str], list[PlannedCall]]:
    """The steps a plan's scoring call shows and the calls getting them: the spec's own and
    none, else `typical` steps and the steps call (titled as `schema`), shared by every case.
    Completion: the steps' JSON, about 25 tokens a step."""
    if spec.evaluation_steps:
        return list(spec.evaluation_steps), []
    task = schema.model_config["title"]
    asked = prompt(spec)
    call = PlannedCall(
        task,
        [{"role": "user", "content": asked}],
        Completion(fixed=8, per_item=25, items=len(typical)),
        shared=(task, asked),
    )
    return typical, [call]


async def asked_steps(
    judge: JudgeSession, spec: GEval, schema: type[Steps], prompt: Callable[[Any], str]
) -> tuple[list[str], str]:
    """The steps and where they came from: the spec's own (`given`), else the judge's answer to
    `prompt`, asked once per judge model and prompt and shared by every case (`generated` for
    the case that asked, `shared` for the rest and answers from the judge cache)."""
    if spec.evaluation_steps:
        return list(spec.evaluation_steps), "given"
    asked = prompt(spec)
    key = (schema.model_config["title"], spec.model or judge.ctx.judge_model, asked)
    messages = [{"role": "user", "content": asked}]
    reply, first = await judge.ask_shared("steps", key, messages, schema)
    steps = [s for s in reply.data["steps"] if s.strip()]
    return steps, "generated" if first and not reply.cached else "shared"


def wants_logprobs(spec: GEval) -> bool:
    """Whether the scoring call asks for logprobs (strict mode's 0-or-1 weighs none)."""
    return not spec.strict_mode and spec.top_logprobs > 0


def scored(
    spec: GEval, reply: JudgeReply, steps: list[str], steps_source: str
) -> tuple[float, dict]:
    """The score of the scoring call's reply (`rubric_score` over the rubric's span) and the
    logs saying how it was made: the steps, the judge's integer, the rubric."""
    raw = float(reply.data["score"])
    logs: dict = {"steps": steps, "steps_source": steps_source, "raw_score": raw}
    if reply.top_logprobs is not None and reply.top_logprobs != spec.top_logprobs:
        # The model takes fewer alternatives than asked for (deepeval caps them too).
        logs["top_logprobs"] = reply.top_logprobs
    if spec.rubric:
        logs["rubric"] = [r.model_dump() for r in spec.rubric]
    score, how = rubric_score(
        raw,
        reply,
        rubric_span(spec.rubric),
        want_logprobs=wants_logprobs(spec),
        strict_mode=spec.strict_mode,
    )
    logs.update(how)
    return score, logs


def raw_reason(want_logprobs: bool, reply: JudgeReply) -> str:
    """Why the raw integer was used instead of the logprob-weighted score."""
    if not want_logprobs:
        return "top_logprobs is 0"
    if reply.logprobs_refusal:
        return f"the judge endpoint refuses logprobs for this model: {reply.logprobs_refusal}"
    if not reply.logprobs:
        return "the judge returned no logprobs"
    return "no token in the logprobs spells the score exactly"


def rubric_score(
    raw: float,
    reply: JudgeReply,
    span: tuple[int, int],
    *,
    want_logprobs: bool,
    strict_mode: bool,
) -> tuple[float, dict]:
    """The score in [0, 1] from the judge's integer `raw` (already refused outside the asked
    range), and the logs saying how it was made.

    Strict mode: 1 for a 1, else 0. Otherwise the logprob-weighted integer when the logprobs
    spell it (the last such token: a digit in the reason comes earlier), else the integer,
    normalised by the span and clamped (the weighting reads only alternatives in the span, so
    the clamp only guards rounding).
    """
    low, high = span
    logs: dict = {}
    if strict_mode:
        logs["score_mode"] = "strict_binary"
        return (1.0 if raw >= 1 else 0.0), logs
    weighted = weighted_score(raw, reply.logprobs, (low, high)) if want_logprobs else None
    if weighted is not None:
        logs["score_mode"] = "logprob_weighted"
        logs["weighted_score"] = weighted
        value = weighted
    else:
        logs["score_mode"] = "raw_integer"
        logs["score_mode_reason"] = raw_reason(want_logprobs, reply)
        value = raw
    if high == low:
        # A single-point rubric has no span: the case meets that point or it does not.
        return (1.0 if round(value) == low else 0.0), logs
    score = (value - low) / (high - low)
    # A NaN (overflowing logprobs) stays one, for `measure` to store as the result's error;
    # min/max would turn it into a score.
    return (score if math.isnan(score) else min(1.0, max(0.0, score))), logs


class GEvalChecks(JudgedSpecBase):
    """The checks both G-Evals' specs make (each declares its own fields): criteria or steps
    given, no evaluation parameter twice, the rubric sorted and without overlaps."""

    @field_validator("evaluation_params", check_fields=False)
    @classmethod
    def _distinct_params(cls, params: list[Any]) -> list[Any]:
        if len(set(params)) != len(params):
            raise ValueError("evaluation_params lists a field twice")
        return params

    @field_validator("rubric", check_fields=False)
    @classmethod
    def _sorted_without_overlap(cls, rubric: list[RubricItem] | None) -> list[RubricItem] | None:
        return ordered_rubric(rubric)

    @model_validator(mode="wrap")
    @classmethod
    def _criteria_or_steps_beside_other_faults(
        cls, data: Any, handler: ValidatorFunctionWrapHandler
    ) -> Any:
        # A spec failing on another field never reaches the check below: its answer would name
        # that field and, only once it was mended, the missing criteria (one answer names all).
        try:
            return handler(data)
        except ValidationError as error:
            if not isinstance(data, dict) or any(
                data.get(name) is not None for name in ("criteria", "evaluation_steps")
            ):
                raise
            details = [_detail(fault) for fault in error.errors()]
            details.append(
                InitErrorDetails(
                    type=PydanticCustomError("value_error", _NEITHER), loc=(), input=data
                )
            )
            raise ValidationError.from_exception_data(error.title, details) from None

    @model_validator(mode="after")
    def _criteria_or_steps(self) -> "GEvalChecks":
        if (
            getattr(self, "criteria", None) is None
            and getattr(self, "evaluation_steps", None) is None
        ):
            raise ValueError(_NEITHER.removeprefix("Value error, "))
        return self


_NEITHER = "Value error, give `criteria` or `evaluation_steps`"


def _detail(fault: Any) -> InitErrorDetails:
    """A fault of `ValidationError.errors()` as raised again (a type pydantic does not know,
    one of ours, as a custom error of the same type and words)."""
    known = InitErrorDetails(type=fault["type"], loc=fault["loc"], input=fault["input"])
    if "ctx" in fault:
        known["ctx"] = fault["ctx"]
    try:
        ValidationError.from_exception_data("check", [known])
    except (KeyError, TypeError, ValueError):
        custom = PydanticCustomError(fault["type"], fault["msg"])
        return InitErrorDetails(type=custom, loc=fault["loc"], input=fault["input"])
    return known
