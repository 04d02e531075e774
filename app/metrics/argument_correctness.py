"""argument_correctness: do the arguments of each tool call fit what the user asked?

One call per case. The judge reads the user's request (a single-turn case's `input`, or the
conversation up to the last turn that called a tool, images in place) and the tool calls made,
numbered 1..n in order with the turn that made each, and gives one yes/no verdict per call keyed
by its number; a call left unjudged, judged twice or not asked about is one repair request,
then the result's error. deepeval asks for a list of verdicts it never counts (1 tool with 3
verdicts scored 1/3), then makes a second call for the reason.

Score = calls whose arguments fit / calls made. No tool call: 1 with no judge call and a reason
saying nothing was called (deepeval scores it 1 too). The reason is built from the `no`
verdicts, without a reason call.
"""

from collections.abc import Iterable
from functools import lru_cache
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, field_validator, model_validator

from app.metrics import _conversation as conversation
from app.metrics import _render as render
from app.metrics import _verdicts
from app.metrics._judged import JudgedSpecBase, JudgeSession, run_judged, strict_result
from app.metrics._plan import Completion, PlannedCall
from app.metrics._types import MetricContext, MetricResult, MetricTestCase, Shape
from app.metrics._verdicts import ItemNumber

VERDICTS = {"yes": "yes", "no": "no"}
Calls = list[tuple[int | None, dict[str, Any]]]


class ArgumentCorrectnessSpec(JudgedSpecBase):
    shape: ClassVar[Shape] = "either"

    type: Literal["argument_correctness"]


class CallVerdict(BaseModel):
    call: ItemNumber
    verdict: _verdicts.YesNo
    reason: str | None = None


class _CallVerdicts(BaseModel):
    verdicts: list[CallVerdict]
    # Set per schema: the calls numbered 1..count must each get one verdict.
    count: ClassVar[int] = 0

    @field_validator("verdicts")
    @classmethod
    def _readable(cls, items: list[CallVerdict]) -> list[CallVerdict]:
        _verdicts.refuse_unreadable([item.verdict for item in items], VERDICTS)
        return items

    @model_validator(mode="after")
    def _one_each(self) -> "_CallVerdicts":
        conversation.refuse_unkeyed(
            [item.call for item in self.verdicts], range(1, self.count + 1), "tool call"
        )
        return self


@lru_cache(maxsize=128)
def _schema(count: int) -> type[BaseModel]:
    """One verdict per tool call 1..count, keyed by `call`."""
    title = "argument_correctness_verdicts"
    return type(title, (_CallVerdicts,), {"model_config": ConfigDict(title=title), "count": count})


def _call_lines(numbered: Iterable[tuple[int, dict[str, Any]]]) -> str:
    return "\n".join(
        f"Tool call {number}: {conversation.tool_call_text(call)}" for number, call in numbered
    )


def _request_parts(case: MetricTestCase, calls: Calls) -> list[dict[str, Any]]:
    """What the user asked, with each call where it was made."""
    numbered = [(number, call) for number, (_, call) in enumerate(calls, start=1)]
    if case.turns is None:
        return [
            render.text("User request:"),
            *render.content_parts(case.input),
            render.text(f"Tool calls ({len(calls)}):\n" + _call_lines(numbered)),
        ]
    by_turn: dict[int, list[tuple[int, dict[str, Any]]]] = {}
    for (number, call), (turn, _) in zip(numbered, calls, strict=True):
        by_turn.setdefault(turn or 0, []).append((number, call))
    turns = conversation.turns_of(case)
    parts: list[dict[str, Any]] = [render.text("Conversation:")]
    for number in range(1, max(by_turn) + 1):
        parts += conversation.turn_parts(turns[number - 1], number, tools=False)
        if number in by_turn:
            parts.append(
                render.text(f"Tool calls in turn {number}:\n" + _call_lines(by_turn[number]))
            )
    return parts


def _messages(spec: ArgumentCorrectnessSpec, case: MetricTestCase, calls: Calls) -> list[dict]:
    parts = _request_parts(case, calls)
    # The image rules only where this prompt shows an image (retrieval context is not shown).
    rules = f" {render.IMAGE_RULES}" if render.is_multimodal(parts) else ""
    where = (
        " Judge each call against what the user had asked by the turn that made it (earlier "
        "turns included, later ones not shown)."
        if case.turns is not None
        else ""
    )
    reason = ' A `no` needs a short "reason" naming the argument at fault.'
    if not spec.include_reason:
        reason = ""
    item = '{"call": n, "verdict": "yes|no"' + (
        ', "reason": "..."}' if spec.include_reason else "}"
    )
    prompt = (
        "Loupe task: argument_correctness_verdicts\n"
        f"An assistant called tools while serving a user; the {len(calls)} calls are numbered "
        f"1 to {len(calls)}. For each call judge only its input parameters: answer "
        "`yes` when they carry what the user's request says or clearly implies (names, places, "
        "dates, amounts, an id an earlier tool returned) and nothing that contradicts it, and "
        "`no` when an argument is wrong, made up, at odds with the request, or missing (a call "
        "without arguments where the request gives them is `no`). Whether the tool was the "
        "right one to call, and what it returned, are not judged; outputs are shown because a "
        "later call may use them." + where + rules + reason + "\n"
        f'Answer with JSON only, one verdict per call: {{"verdicts": [{item}]}}'
    )
    return render.messages(prompt, parts)


def plan(spec: ArgumentCorrectnessSpec, case: MetricTestCase) -> list[PlannedCall]:
    """One call when a tool was called. Completion: a verdict (about 10 tokens, 25 with a
    reason) per call."""
    calls = conversation.tool_calls(case)
    if not calls:
        return []
    completion = Completion(fixed=8, per_item=25 if spec.include_reason else 10, items=len(calls))
    return [PlannedCall("argument_correctness_verdicts", _messages(spec, case, calls), completion)]


def _where(item: dict[str, Any]) -> str:
    said = f"call {item['call']}, {item['text']}"
    return f"turn {item['turn']}: {said}" if item["turn"] is not None else said


def _reason(verdicts: list[dict[str, Any]], score: float) -> str:
    if not verdicts:
        return (
            "No tool was called, so there are no arguments to judge: score 1 (deepeval also "
            "scores a case without tool calls 1)."
        )
    wrong = [item for item in verdicts if item["verdict"] == "no"]
    if not wrong:
        return (
            f"The arguments of all {len(verdicts)} tool calls fit the request; score {score:.2f}."
        )
    listed = "; ".join(
        f"{_where(item)}: {item.get('reason') or 'the arguments do not fit'}" for item in wrong
    )
    return (
        f"{len(verdicts) - len(wrong)} of {len(verdicts)} tool calls have arguments that fit "
        f"what the user asked; score {score:.2f}. Not fitting: {listed}"
    )


async def measure(
    spec: ArgumentCorrectnessSpec, case: MetricTestCase, ctx: MetricContext
) -> MetricResult:
    """One call: a keyed yes/no per tool call on whether its arguments fit the request."""

    async def body(judge: JudgeSession) -> MetricResult:
        calls = conversation.tool_calls(case)
        verdicts: list[dict[str, Any]] = []
        if calls:
            reply = await judge.ask("verdicts", _messages(spec, case, calls), _schema(len(calls)))
            given = {item["call"]: item for item in reply.data["verdicts"]}
            for number, (turn, call) in enumerate(calls, start=1):
                answer = given[number]
                verdicts.append(
                    {
                        "call": number,
                        "turn": turn,
                        "name": call.get("name"),
                        "text": conversation.tool_call_text(call),
                        "verdict": _verdicts.read(answer["verdict"], VERDICTS),
                        "reason": answer.get("reason"),
                    }
                )
        fitting = sum(item["verdict"] == "yes" for item in verdicts)
        score = fitting / len(verdicts) if verdicts else 1.0
        logs: dict[str, Any] = {"verdicts": verdicts}
        if case.turns is not None:
            logs["turns"] = [
                conversation.pin(
                    item["turn"],
                    item["verdict"],
                    item["reason"],
                    call=item["call"],
                    tool=item["name"],
                )
                for item in verdicts
            ]
        reason = _reason(verdicts, score) if spec.include_reason else None
        return strict_result(spec, score, reason, logs)

    return await run_judged(spec, ctx, body)
