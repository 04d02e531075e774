"""score_model (OpenAI Evals): a judge scores the rendered messages within `range`.

The judge answers OpenAI's documented `{"result": float, "steps": [{"description",
"conclusion"}]}` (asked steps first). The score is `result`, which must lie in `range` (default
[0, 1]): a result outside it gets one repair request saying so, then the result is an error
(`invalid_answer`), never clamped into a pass. `passed = score >= pass_threshold`, which
defaults to the range's midpoint.
`sampling_params` go to the judge call; `max_completions_tokens` (OpenAI's spelling) and
`max_completion_tokens` are both accepted. A reply with no usable number after the judge
client's repair request is an errored result, not a 0: Loupe never reports a score the judge
did not give.
"""

from functools import lru_cache
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from app.judges import JudgeError
from app.metrics import _verdicts
from app.metrics._graders import (
    GraderInput,
    GraderSpecBase,
    SamplingParams,
    Step,
    grader_sample,
    images,
    namespaces,
    reason_of,
    render_failure,
    wire,
)
from app.metrics._judged import JudgeSession, run_judged
from app.metrics._plan import Completion, PlannedCall
from app.metrics._templates import RenderError, flatten, render_messages
from app.metrics._types import MetricContext, MetricError, MetricResult, MetricTestCase

FiniteFloat = Annotated[float, Field(allow_inf_nan=False)]


class ScoreModelSpec(GraderSpecBase):
    type: Literal["score_model"]
    model: str = Field(min_length=1, description="The judge model.")
    input: GraderInput
    range: tuple[FiniteFloat, FiniteFloat] = (0.0, 1.0)
    sampling_params: SamplingParams | None = None
    pass_threshold: float | None = Field(default=None, allow_inf_nan=False)

    @field_validator("range")
    @classmethod
    def _ordered(cls, bounds: tuple[float, float]) -> tuple[float, float]:
        # A field validator, so that an error names `range`, not the grader.
        if not bounds[0] < bounds[1]:
            raise ValueError("range must be [low, high] with low < high")
        return bounds

    @model_validator(mode="after")
    def _threshold(self) -> "ScoreModelSpec":
        low, high = self.range
        self.threshold = (low + high) / 2 if self.pass_threshold is None else self.pass_threshold
        return self

    def score_bounds(self) -> tuple[float, float]:
        return self.range


class ScoreGrade(BaseModel):
    model_config = ConfigDict(title="score_model")
    steps: list[Step]
    result: _verdicts.JudgeNumber
    # The range the judge is asked for (set per subclass).
    low: ClassVar[float] = 0.0
    high: ClassVar[float] = 1.0

    @model_validator(mode="after")
    def _in_range(self) -> "ScoreGrade":
        _verdicts.refuse_out_of_range(self.result, self.low, self.high, "result")
        return self


@lru_cache(maxsize=256)
def grade_schema(low: float, high: float) -> type[BaseModel]:
    """The answer's schema for one range (classes cached: the client caches their schema)."""
    namespace = {"model_config": ConfigDict(title="score_model"), "low": low, "high": high}
    return type("ScoreGrade", (ScoreGrade,), namespace)


def instructions(low: float, high: float) -> str:
    return (
        "Loupe task: score_model\n"
        "You are a grader. The messages after this one are the grading task: follow them and "
        f"give one numeric score from {low:g} to {high:g} (inclusive).\n"
        "Work in steps; for each, say what you checked (description) and what you found "
        "(conclusion). Then give the score.\n"
        'Answer with JSON only: {"steps": [{"description": "...", "conclusion": "..."}], '
        '"result": <number>}'
    )


def plan(spec: ScoreModelSpec, case: MetricTestCase) -> list[PlannedCall]:
    """One call (none when the row does not render). Completion: OpenAI's steps, a few of a
    description and a conclusion (about 40 tokens each), and the result."""
    try:
        messages = render_messages(wire(spec.input), namespaces(case), images(case))
    except RenderError:
        return []
    low, high = spec.range
    asked = [{"role": "system", "content": instructions(low, high)}, *messages]
    return [PlannedCall("score_model", asked, Completion(fixed=15, per_item=40, items=3))]


async def measure(spec: ScoreModelSpec, case: MetricTestCase, ctx: MetricContext) -> MetricResult:
    """The judge's score within the range; passed when at least pass_threshold."""
    try:
        messages = render_messages(wire(spec.input), namespaces(case), images(case))
    except RenderError as error:
        return render_failure(spec.threshold, error)
    low, high = spec.range
    asked = [{"role": "system", "content": instructions(low, high)}, *messages]
    shown = flatten(messages)
    params = spec.sampling_params.request_fields() if spec.sampling_params else None

    async def body(judge: JudgeSession) -> MetricResult:
        try:
            reply = await judge.ask("score", asked, grade_schema(low, high), params=params)
        except JudgeError as error:
            result = MetricResult.failure(spec.threshold, MetricError(error.type, error.message))
            result.logs["grader_sample"] = grader_sample(spec.model, shown, None, judge.usage)
            return result
        score, steps = reply.data["result"], reply.data["steps"]
        logs: dict[str, Any] = {
            "result": score,
            "range": [low, high],
            "pass_threshold": spec.threshold,
            "steps": steps,
            "grader_sample": grader_sample(spec.model, shown, reply.content, judge.usage),
        }
        reason = reason_of(steps) or f"the judge gave {score:g}"
        return MetricResult.scored(score, spec.threshold, reason, logs)

    # run_judged reads only `model` and `threshold`, which this spec has.
    return await run_judged(spec, ctx, body)  # type: ignore[arg-type]
