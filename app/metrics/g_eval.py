"""g_eval: a judge scores the test case against criteria or evaluation steps.

Steps are generated once per evaluation per spec (shared by every test case). The score is the
judge's integer weighted by the probabilities of its digit tokens, normalised by the rubric's
span; without logprobs the raw integer is used and `logs.score_mode` says so. A score outside
the asked range (strict mode: 0 to 1) gets one repair request saying so, then the result is an
error (`invalid_answer`), never clamped; only digit alternatives within the range are weighed.
"""

import string
from functools import lru_cache
from typing import ClassVar, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from app.metrics import _render as render
from app.metrics._judged import JudgeSession, passed, run_judged
from app.metrics._plan import Completion, PlannedCall
from app.metrics._rubric import (
    GEvalChecks,
    NonEmpty,
    RubricItem,
    Steps,
    asked_steps,
    numbered,
    planned_steps,
    rubric_span,
    rubric_text,
    scored,
    wants_logprobs,
)
from app.metrics._types import (
    MetricContext,
    MetricResult,
    MetricTestCase,
    SingleTurnField,
    TestCaseField,
)
from app.metrics._verdicts import JudgeNumber, Reason, refuse_out_of_range

STEPS_FIELDS = {"criteria", "parameters"}
RESULTS_FIELDS = {"steps", "rubric", "parameters", "score_min", "score_max", "test_case"}
STRICT_FIELDS = {"steps", "parameters", "test_case"}
_ALLOWED = {"steps": STEPS_FIELDS, "results": RESULTS_FIELDS, "strict_results": STRICT_FIELDS}


# Each placeholder inserts a value (the criteria, the test case): bounded, so no template
# multiplies a request into gigabytes of prompt.
MAX_PLACEHOLDERS = 16


def _plain_placeholders(template: str) -> list[str]:
    """The `{name}` placeholders of a str.format template, in order; raises ValueError for
    anything else in braces.

    A format spec (`{criteria:>300000000}` built a 300 MB prompt from a 300-byte request), a
    conversion (`{criteria!r}`) or attribute and index access (`{criteria.__class__}`) is refused.
    """
    try:
        fields = list(string.Formatter().parse(template))
    except ValueError as exc:
        raise ValueError(f"{exc} (write literal braces as {{{{ and }}}})") from exc
    names = []
    for _, name, spec, conversion in fields:
        if name is None:
            continue
        if spec or conversion is not None or not name.isidentifier():
            shown = name + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "")
            raise ValueError(
                f"only plain {{name}} placeholders are allowed, not {{{shown}}} (no format "
                "specs, conversions, attribute or index access; write literal braces as {{ and }})"
            )
        names.append(name)
    if len(names) > MAX_PLACEHOLDERS:
        raise ValueError(f"a template may hold at most {MAX_PLACEHOLDERS} placeholders")
    return names


class GEvalTemplate(BaseModel):
    """Your own wording for the three prompts; `{name}` placeholders are filled in."""

    model_config = ConfigDict(extra="forbid")

    steps: str | None = Field(default=None, description="Placeholders: {criteria}, {parameters}.")
    results: str | None = Field(
        default=None,
        description="Placeholders: {steps}, {rubric}, {parameters}, {score_min}, {score_max}, "
        "{test_case} (where the test case goes; appended when absent).",
    )
    strict_results: str | None = Field(
        default=None, description="Placeholders: {steps}, {parameters}, {test_case}."
    )

    @field_validator("steps", "results", "strict_results")
    @classmethod
    def _placeholders(cls, template: str | None, info: ValidationInfo) -> str | None:
        # A field validator, so a 422 names the template that is wrong.
        if template is None:
            return None
        allowed = _ALLOWED[info.field_name or ""]
        used = _plain_placeholders(template)
        unknown = set(used) - allowed
        if unknown:
            raise ValueError(
                f"unknown placeholder(s) {sorted(unknown)}; allowed: {sorted(allowed)}"
            )
        return template


class GEvalSpec(GEvalChecks):
    type: Literal["g_eval"]
    name: NonEmpty = Field(max_length=128, description="Results are reported under this name.")
    criteria: NonEmpty | None = None
    evaluation_steps: list[NonEmpty] | None = Field(default=None, min_length=1)
    evaluation_params: list[SingleTurnField] = Field(min_length=1)
    rubric: list[RubricItem] | None = Field(default=None, min_length=1)
    top_logprobs: int = Field(default=20, ge=0, le=20)
    evaluation_template: GEvalTemplate | None = None
    include_reason: ClassVar[bool] = True  # type: ignore[misc]
    required_fields: ClassVar[tuple[TestCaseField, ...]] = ()

    def required_test_case_fields(self) -> tuple[TestCaseField, ...]:
        return tuple(self.evaluation_params)

    def score_range(self) -> tuple[int, int]:
        return rubric_span(self.rubric)


class Score(BaseModel):
    model_config = ConfigDict(title="g_eval_score")
    # Reason first, so the score is the last thing the judge writes.
    reason: Reason
    score: JudgeNumber
    # The range the judge is asked for (set per subclass).
    low: ClassVar[int] = 0
    high: ClassVar[int] = 10

    @model_validator(mode="after")
    def _in_range(self) -> "Score":
        # Clamped, a 12 on a 0-10 scale scored 1 and passed.
        refuse_out_of_range(self.score, self.low, self.high)
        return self


@lru_cache(maxsize=256)
def score_schema(low: int, high: int) -> type[BaseModel]:
    """The score answer's schema for one range (strict mode: 0 to 1)."""
    namespace = {"model_config": ConfigDict(title="g_eval_score"), "low": low, "high": high}
    return type("Score", (Score,), namespace)


def _parameters(spec: GEvalSpec) -> str:
    names = [render.LABELS[p] for p in spec.evaluation_params]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


DEFAULT_STEPS = (
    "Loupe task: g_eval_steps\n"
    "You will grade how well a test case meets some criteria, looking at its {parameters}. "
    "Write 3 or 4 short, concrete evaluation steps a grader should follow to judge that.\n"
    "Criteria: {criteria}\n"
    'Answer with JSON only: {{"steps": ["...", ...]}}'
)
DEFAULT_RESULTS = (
    "Loupe task: g_eval_score\n"
    "Grade the test case below by following these evaluation steps, looking at its "
    "{parameters}.\nSteps:\n{steps}\n{rubric}"
    "Give an integer score from {score_min} (does not meet the steps at all) to {score_max} "
    "(fully meets them), and a reason in one or two sentences that names specifics from the "
    "test case without stating the score. {image_rules}\n"
    'Answer with JSON only, reason first: {{"reason": "...", "score": <integer>}}\n'
    "{test_case}"
)
DEFAULT_STRICT = (
    "Loupe task: g_eval_score\n"
    "Grade the test case below by following these evaluation steps, looking at its "
    "{parameters}.\nSteps:\n{steps}\n"
    "Give score 1 only if the test case fully meets every step, else 0, and a reason in one "
    "or two sentences. {image_rules}\n"
    'Answer with JSON only, reason first: {{"reason": "...", "score": 0 or 1}}\n'
    "{test_case}"
)


def _fill(template: str, values: dict[str, str], case_parts: list[dict]) -> list[dict]:
    """The filled template as parts, the test case (with images) at `{test_case}`."""
    marker = "\x00TEST_CASE\x00"
    filled = template.format(**values, test_case=marker)
    if marker not in filled:
        filled += "\n" + marker
    before, after = filled.split(marker, 1)
    parts = [render.text(before)] if before.strip() else []
    parts += case_parts
    if after.strip():
        parts.append(render.text(after))
    return parts


def _steps_prompt(spec: GEvalSpec) -> str:
    template = (spec.evaluation_template and spec.evaluation_template.steps) or DEFAULT_STEPS
    return template.format(criteria=spec.criteria, parameters=_parameters(spec))


def _score_messages(spec: GEvalSpec, case: MetricTestCase, steps: list[str]) -> list[dict]:
    """The scoring call's messages: the filled results template, the test case at its place."""
    low, high = spec.score_range()
    case_parts: list[dict] = []
    for param in spec.evaluation_params:
        case_parts += render.field_parts(case, param)
    values = {
        "steps": numbered(steps),
        "rubric": rubric_text(spec.rubric),
        "parameters": _parameters(spec),
        "score_min": str(low),
        "score_max": str(high),
    }
    templates = spec.evaluation_template or GEvalTemplate()
    if spec.strict_mode:
        template = templates.strict_results or DEFAULT_STRICT
        values = {k: values[k] for k in ("steps", "parameters")}
    else:
        template = templates.results or DEFAULT_RESULTS
    # The default templates' image rules, said only where the test case shows an image (not
    # a placeholder a template of your own may name).
    values["image_rules"] = render.IMAGE_RULES if render.is_multimodal(case_parts) else ""
    return [{"role": "user", "content": render.merge_text(_fill(template, values, case_parts))}]


# What generated steps typically look like (3 or 4 short, concrete steps are asked for).
TYPICAL_STEPS = [
    "Read the input and note every part of what it asks for.",
    "Check whether the actual output addresses each of those parts directly and correctly.",
    "Look for statements in the output that are wrong, unsupported or beside the point.",
    "Judge how fully and precisely the output meets the criteria overall.",
]


def plan(spec: GEvalSpec, case: MetricTestCase) -> list[PlannedCall]:
    """Steps (unless given; shared by every case), then the scoring call.

    Completions: the steps' JSON and a one- or two-sentence reason with the score (about 45
    tokens)."""
    steps, calls = planned_steps(spec, Steps, _steps_prompt, TYPICAL_STEPS)
    calls.append(
        PlannedCall("g_eval_score", _score_messages(spec, case, steps), Completion(fixed=45))
    )
    return calls


async def measure(spec: GEvalSpec, case: MetricTestCase, ctx: MetricContext) -> MetricResult:
    """Steps (shared) then one scoring call that returns the reason with the score."""

    async def body(judge: JudgeSession) -> MetricResult:
        steps, steps_source = await asked_steps(judge, spec, Steps, _steps_prompt)
        low, high = spec.score_range()
        want_logprobs = wants_logprobs(spec)
        reply = await judge.ask(
            "score",
            _score_messages(spec, case, steps),
            score_schema(0, 1) if spec.strict_mode else score_schema(low, high),
            top_logprobs=spec.top_logprobs if want_logprobs else None,
        )
        score, logs = scored(spec, reply, steps, steps_source)
        # Not strict_result: strict mode's score is already 0 or 1, and a NaN (overflowing
        # logprobs) is left for `storable` to make the result's error, with no strict note.
        reason = reply.data["reason"]
        return MetricResult(score, passed(score, spec.threshold), spec.threshold, reason, logs=logs)

    return await run_judged(spec, ctx, body)
