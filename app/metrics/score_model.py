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

from app.metrics import _model_graders as model_graders
from app.metrics import _verdicts
from app.metrics._graders import GraderInput, GraderSpecBase, SamplingParams, Step, reason_of
from app.metrics._plan import PlannedCall
from app.metrics._types import MetricContext, MetricResult, MetricTestCase

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
    """One call (none when the row does not render)."""
    return model_graders.plan(spec, case, "score_model", instructions(*spec.range))


async def measure(spec: ScoreModelSpec, case: MetricTestCase, ctx: MetricContext) -> MetricResult:
    """The judge's score within the range; passed when at least pass_threshold."""
    low, high = spec.range

    def read(answer: dict[str, Any]) -> tuple[float, str, dict[str, Any]]:
        score, steps = answer["result"], answer["steps"]
        logs: dict[str, Any] = {
            "result": score,
            "range": [low, high],
            "pass_threshold": spec.threshold,
            "steps": steps,
        }
        return score, reason_of(steps) or f"the judge gave {score:g}", logs

    return await model_graders.measure(
        spec,
        case,
        ctx,
        call="score",
        instructions=instructions(low, high),
        schema=grade_schema(low, high),
        read=read,
    )
