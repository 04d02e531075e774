"""What the model graders (label_model, score_model) share: one judge call on the rendered row.

Each grader says what it asks (its instructions, put before the row's rendered messages, and
its answer's schema) and how it reads the answer; the row's rendering, the call, its failure and
the `grader_sample` an output item shows are the same for both.
"""

from collections.abc import Callable
from typing import Any, Protocol

from pydantic import BaseModel

from app.judges import JudgeError
from app.metrics._graders import (
    GraderMessage,
    SamplingParams,
    grader_sample,
    images,
    namespaces,
    render_failure,
    wire,
)
from app.metrics._judged import JudgeSession, run_judged
from app.metrics._plan import Completion, PlannedCall
from app.metrics._templates import RenderError, flatten, render_messages
from app.metrics._types import MetricContext, MetricError, MetricResult, MetricTestCase

# What a grader makes of the judge's answer: its score, reason and logs.
Reading = Callable[[dict[str, Any]], tuple[float, str, dict[str, Any]]]


class ModelGraderSpec(Protocol):
    model: str
    input: list[GraderMessage]
    sampling_params: SamplingParams | None
    threshold: float


def _asked(
    spec: ModelGraderSpec, case: MetricTestCase, instructions: str
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The judge's messages (the instructions, then the row's) and the row's alone; raises
    RenderError when the row does not render."""
    messages = render_messages(wire(spec.input), namespaces(case), images(case))
    return [{"role": "system", "content": instructions}, *messages], messages


def plan(
    spec: ModelGraderSpec, case: MetricTestCase, task: str, instructions: str
) -> list[PlannedCall]:
    """One call (none when the row does not render). Completion: OpenAI's steps, a few of a
    description and a conclusion (about 40 tokens each), and the result."""
    try:
        asked, _ = _asked(spec, case, instructions)
    except RenderError:
        return []
    return [PlannedCall(task, asked, Completion(fixed=15, per_item=40, items=3))]


async def measure(
    spec: ModelGraderSpec,
    case: MetricTestCase,
    ctx: MetricContext,
    *,
    call: str,
    instructions: str,
    schema: type[BaseModel],
    read: Reading,
) -> MetricResult:
    """The judge's answer to the rendered row, read into a result; the call (answered or not)
    is in the logs as `grader_sample`.

    Args:
        call: the call's name (its key in the logs' `judge_json`).
        read: the answer's score, reason and logs.
    """
    try:
        asked, messages = _asked(spec, case, instructions)
    except RenderError as error:
        return render_failure(spec.threshold, error)
    shown = flatten(messages)
    params = spec.sampling_params.request_fields() if spec.sampling_params else None

    async def body(judge: JudgeSession) -> MetricResult:
        try:
            reply = await judge.ask(call, asked, schema, params=params)
        except JudgeError as error:
            result = MetricResult.failure(spec.threshold, MetricError(error.type, error.message))
            result.logs["grader_sample"] = grader_sample(spec.model, shown, None, judge.usage)
            return result
        score, reason, logs = read(reply.data)
        logs["grader_sample"] = grader_sample(spec.model, shown, reply.content, judge.usage)
        return MetricResult.scored(score, spec.threshold, reason, logs)

    # run_judged reads only `model` and `threshold`, which a model grader's spec has.
    return await run_judged(spec, ctx, body)  # type: ignore[arg-type]
