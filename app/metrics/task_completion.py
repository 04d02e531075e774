"""task_completion: did the assistant (an agent calling tools) complete the task it was given?

One judge call per case, over a conversation (its turns and tool calls) or a single-turn case
(input, actual_output, tools_called): the judge states the task (or is given it in `task`), the
outcome as facts, a verdict from 0 to 1 and its reason; over a conversation it also cites the
turns the reason rests on (pinned in `logs["turns"]`). Score = the verdict. deepeval makes two
calls (the task and outcome, then the verdict) and makes the first even when `task` is given,
using only its outcome. A verdict outside 0 to 1 is one repair request, then the result's error.
"""

from functools import lru_cache
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from app.judges import MismatchedAnswer
from app.metrics import _conversation as conversation
from app.metrics import _render as render
from app.metrics._judged import JudgedSpecBase, JudgeSession, run_judged, strict_result
from app.metrics._plan import Completion, PlannedCall
from app.metrics._types import MetricContext, MetricResult, MetricTestCase, Shape
from app.metrics._verdicts import JudgeNumber, Reason, refuse_out_of_range
from app.metrics.conversational_g_eval import CitedTurn, cited_reason, refuse_unknown_turns

Task = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=4000)]


class TaskCompletionSpec(JudgedSpecBase):
    type: Literal["task_completion"]
    shape: ClassVar[Shape] = "either"
    # The reason is what the verdict rests on: always asked for, so not an option.
    include_reason: ClassVar[bool] = True  # type: ignore[misc]
    task: Task | None = Field(
        default=None,
        description="What the assistant was asked to do; omitted, the judge infers it from "
        "the case (the user's requests).",
    )

    def test_case_problems(self, case: Any) -> list[tuple[str, str]]:
        # A single-turn case is judged on its request and answer (a missing input is named by
        # the shape check every case goes through).
        single = getattr(case, "turns", None) is None
        if single and getattr(case, "actual_output", None) in (None, ""):
            return [("actual_output", "needs actual_output (the answer the task ended with)")]
        return []


class Answer(BaseModel):
    model_config = ConfigDict(title="task_completion")
    task: str | None = None
    outcome: str
    turns: list[CitedTurn] = Field(default_factory=list)
    reason: Reason
    verdict: JudgeNumber
    # Set per subclass: whether the task must be stated, and the conversation's turn count
    # (None: a single-turn case, which has no turns to cite).
    infer: ClassVar[bool] = True
    count: ClassVar[int | None] = None

    @model_validator(mode="after")
    def _fits(self) -> "Answer":
        refuse_out_of_range(self.verdict, 0, 1, "verdict")
        if self.infer and not (self.task or "").strip():
            raise MismatchedAnswer("the task is missing; state the task the assistant was given")
        if self.count is not None:
            refuse_unknown_turns([item.turn for item in self.turns], self.count)
        return self


@lru_cache(maxsize=256)
def answer_schema(infer: bool, count: int | None) -> type[BaseModel]:
    """The answer's schema: with the task stated or not, turns cited or not."""
    namespace = {"model_config": ConfigDict(title="task_completion"), "infer": infer}
    return type("Answer", (Answer,), {**namespace, "count": count})


def _case_parts(case: MetricTestCase) -> list[dict]:
    """The case as the judge reads it: the expected outcome, then the transcript with its tool
    calls, or the input, the tool calls and the actual output."""
    parts = conversation.case_fields(case, ["expected_outcome"])
    if case.turns is not None:
        return parts + conversation.transcript(case, tools=True)
    parts += render.field_parts(case, "input")
    calls = [call for _, call in conversation.tool_calls(case)]
    lines = "\n".join(f"- {conversation.tool_call_text(call)}" for call in calls) or "(none)"
    parts.append(render.text(f"Tools called:\n{lines}"))
    return parts + render.field_parts(case, "actual_output")


def _messages(spec: TaskCompletionSpec, case: MetricTestCase) -> list[dict]:
    is_conversation = case.turns is not None
    content = _case_parts(case)
    shape = '{"task": "...", ' if spec.task is None else "{"
    shape += '"outcome": "...", '
    if is_conversation:
        shape += '"turns": [{"turn": <turn number>, "note": "..."}], '
    shape += '"reason": "...", "verdict": <number from 0 to 1>}'
    instructions = [
        "Loupe task: task_completion",
        "Judge whether the AI assistant below completed the task it was given, using its "
        "tool calls and their results as evidence of what it did.",
        f"The task: {spec.task}"
        if spec.task is not None
        else "First state the task in one sentence, as the user gave it.",
        # With the task given, the outcome is the first thing the judge writes.
        ("First" if spec.task is not None else "Then")
        + " state the outcome: what the assistant actually did and achieved, as plain facts "
        "(not intentions or claims it made without doing them).",
    ]
    if case.expected_outcome not in (None, ""):
        instructions.append("Compare the outcome with the expected outcome given below.")
    instructions.append(
        "Give a verdict from 0 (the task was not done) to 1 (done fully and correctly), "
        "partial completion in between, and a reason in one or two sentences."
    )
    if is_conversation:
        instructions.append(
            'The reason names the turns it rests on by number ("turn 3: ..."); list those '
            "turns, each with a short note, in `turns` (turns are numbered from 1 as shown)."
        )
    if render.is_multimodal(content):
        instructions.append(render.IMAGE_RULES)
    instructions.append(f"Answer with JSON only, verdict last: {shape}")
    text = render.text("\n".join(instructions))
    return [{"role": "user", "content": render.merge_text([text, *content])}]


def plan(spec: TaskCompletionSpec, case: MetricTestCase) -> list[PlannedCall]:
    """One call: the task (unless given), the outcome, cited turns, reason and verdict."""
    fixed = 90 if spec.task is None else 70
    cited = min(3, len(case.turns or []))
    completion = Completion(fixed=fixed, per_item=20, items=cited)
    return [PlannedCall("task_completion", _messages(spec, case), completion)]


async def measure(
    spec: TaskCompletionSpec, case: MetricTestCase, ctx: MetricContext
) -> MetricResult:
    """One judge call; score = its verdict (strict mode: 0 unless 1)."""

    async def body(judge: JudgeSession) -> MetricResult:
        count = len(case.turns) if case.turns is not None else None
        reply = await judge.ask(
            "task_completion", _messages(spec, case), answer_schema(spec.task is None, count)
        )
        data = reply.data
        verdict = float(data["verdict"])
        logs: dict[str, Any] = {
            "task": spec.task if spec.task is not None else data["task"],
            "task_source": "given" if spec.task is not None else "inferred",
            "outcome": data["outcome"],
            "verdict": verdict,
        }
        reason = data["reason"]
        if count is not None:
            cited = sorted(data["turns"], key=lambda item: item["turn"])
            logs["turns"] = [conversation.pin(i["turn"], "cited", i["note"] or None) for i in cited]
            reason = cited_reason(reason, cited)
        return strict_result(spec, verdict, reason, logs)

    return await run_judged(spec, ctx, body)
