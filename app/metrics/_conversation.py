"""Conversations as judges see them: exchanges, windows, the transcript as message parts, and
verdicts keyed (and pinned) to the turns they are about.

Turns are numbered from 1 wherever a person or a judge reads them ("turn 3"), in prompts, in
reasons and in a result's `logs["turns"]`; the helpers below take and give those numbers.

An exchange (deepeval's "unit interaction") starts at a user turn that follows an assistant
turn; assistant turns before the first user turn join the first exchange, and a last exchange
without an assistant answer is not judged (there is nothing to judge yet).
"""

import json
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, field_validator, model_validator

from app.judges import MismatchedAnswer
from app.metrics import _render as render
from app.metrics import _verdicts
from app.metrics._types import MetricTestCase
from app.metrics._verdicts import ItemNumber

Parts = list[dict[str, Any]]

CASE_LABELS = {
    "scenario": "Scenario",
    "expected_outcome": "Expected outcome",
    "chatbot_role": "The assistant's role",
    "user_description": "About the user",
}


def turns_of(case: MetricTestCase) -> list[dict[str, Any]]:
    return list(case.turns or [])


def exchanges(turns: list[dict[str, Any]]) -> list[list[int]]:
    """The conversation's exchanges as lists of turn numbers (1-based), in order; each holds a
    user turn and ends with an assistant turn."""
    found: list[list[int]] = []
    current: list[int] = []
    seen_user = False
    for number, turn in enumerate(turns, start=1):
        role = turn.get("role")
        if (
            role == "user"
            and seen_user
            and current
            and turns[current[-1] - 1].get("role") == "assistant"
        ):
            found.append(current)
            current = []
        current.append(number)
        seen_user = seen_user or role == "user"
    if (
        current
        and any(turns[n - 1].get("role") == "user" for n in current)
        and turns[current[-1] - 1].get("role") == "assistant"
    ):
        found.append(current)
    return found


def window(units: list[list[int]], index: int, size: int) -> list[int]:
    """Turn numbers of exchanges `index - size + 1 .. index` (`size` counts exchanges)."""
    start = max(0, index - size + 1)
    return [number for unit in units[start : index + 1] for number in unit]


def numbers_with_role(turns: list[dict[str, Any]], role: str) -> list[int]:
    return [n for n, turn in enumerate(turns, start=1) if turn.get("role") == role]


def up_to_last_reply(turns: list[dict[str, Any]]) -> range:
    """Turn numbers from the first to the last assistant turn: what a metric judging assistant
    turns shows (user turns after the last reply are evidence for no verdict)."""
    return range(1, max(numbers_with_role(turns, "assistant"), default=0) + 1)


def tool_calls(case: MetricTestCase) -> list[tuple[int | None, dict[str, Any]]]:
    """Every tool call the case made, in order, with the turn that made it (None: a
    single-turn case's `tools_called`)."""
    if case.turns is None:
        return [(None, call) for call in case.tools_called or []]
    return [
        (number, call)
        for number, turn in enumerate(case.turns, start=1)
        if turn.get("role") == "assistant"
        for call in turn.get("tools_called") or []
    ]


def tool_call_text(call: Mapping[str, Any]) -> str:
    """One tool call as a line: `name(arguments as JSON) -> output as JSON`."""
    arguments = json.dumps(call.get("input_parameters") or {}, ensure_ascii=False)
    line = f"{call.get('name')}({arguments})"
    if call.get("output") is not None:
        line += " -> " + json.dumps(call["output"], ensure_ascii=False, default=str)
    return line


def turn_parts(
    turn: Mapping[str, Any], number: int, *, tools: bool = True, context: bool = False
) -> Parts:
    """One turn: its heading, its content (images in place), then, when asked, its tool calls
    and retrieval context."""
    content = render.content_parts(turn.get("content"))
    if not any(part.get("type") != "text" or part.get("text") for part in content):
        content = [render.text("(no text)")]
    parts: Parts = [render.text(f"Turn {number} ({turn.get('role')}):"), *content]
    if tools and turn.get("tools_called"):
        lines = "\n".join(f"- {tool_call_text(call)}" for call in turn["tools_called"])
        parts.append(render.text(f"Tools called in turn {number}:\n{lines}"))
    if context and turn.get("retrieval_context"):
        parts += render.numbered_nodes(
            f"Retrieval context of turn {number}", render.nodes(turn["retrieval_context"])
        )
    return parts


def transcript(
    case: MetricTestCase,
    numbers: Iterable[int] | None = None,
    *,
    tools: bool = True,
    context: bool = False,
    label: str = "Conversation",
) -> Parts:
    """The turns `numbers` (default: all) as parts under a label."""
    turns = turns_of(case)
    chosen = range(1, len(turns) + 1) if numbers is None else numbers
    parts: Parts = [render.text(f"{label}:")]
    for number in chosen:
        parts += turn_parts(turns[number - 1], number, tools=tools, context=context)
    return parts


def case_fields(case: MetricTestCase, names: Iterable[str]) -> Parts:
    """The conversation-level fields `names` that the case has, each labelled."""
    parts: Parts = []
    for name in names:
        value = getattr(case, name)
        if value is None or value == "":
            continue
        parts += [render.text(f"{CASE_LABELS[name]}:"), *render.content_parts(value)]
    return parts


def pin(number: int | None, verdict: Any, reason: str | None = None, **extra: Any) -> dict:
    """A verdict pinned to the turn it is about, as `logs["turns"]` holds them (the console
    shows each beside its turn)."""
    return {"turn": number, "verdict": verdict, "reason": reason, **extra}


def turn_list(numbers: Iterable[int]) -> str:
    """'turn 3', 'turns 3 and 5', 'turns 2, 4 and 6'."""
    shown = [str(n) for n in numbers]
    if not shown:
        return "no turn"
    if len(shown) == 1:
        return f"turn {shown[0]}"
    return f"turns {', '.join(shown[:-1])} and {shown[-1]}"


class TurnVerdict(BaseModel):
    turn: ItemNumber
    verdict: _verdicts.YesNo
    reason: str | None = None


class _TurnVerdicts(BaseModel):
    verdicts: list[TurnVerdict]
    # Set per subclass: the vocabulary and the turns that must each get one verdict.
    allowed: ClassVar[dict[str, str]] = {"yes": "yes", "no": "no"}
    expected: ClassVar[tuple[int, ...]] = ()
    unit: ClassVar[str] = "turn"

    @field_validator("verdicts")
    @classmethod
    def _readable(cls, items: list[TurnVerdict]) -> list[TurnVerdict]:
        _verdicts.refuse_unreadable([item.verdict for item in items], cls.allowed)
        return items

    @model_validator(mode="after")
    def _one_each(self) -> "_TurnVerdicts":
        refuse_unkeyed([item.turn for item in self.verdicts], self.expected, self.unit)
        return self


class _TurnVerdictsWithReason(_TurnVerdicts):
    reason: str

    @model_validator(mode="after")
    def _explained(self) -> "_TurnVerdictsWithReason":
        self.reason = _verdicts.refuse_empty_reason(self.reason, len(self.verdicts))
        return self


def refuse_unkeyed(given: list[int], expected: Iterable[int], unit: str = "turn") -> None:
    """Raises MismatchedAnswer unless `given` names every expected key exactly once (a turn
    the judge left out would be scored as if it were fine)."""
    missing, extra, twice = _verdicts.misfits(given, expected)
    problems = []
    if missing:
        problems.append(f"no verdict for {unit} {_verdicts.some(missing)}")
    if extra:
        problems.append(f"{unit} {_verdicts.some(extra)} was not asked about")
    if twice:
        problems.append(f"{unit} {_verdicts.some(twice)} judged more than once")
    if problems:
        raise MismatchedAnswer(
            "; ".join(problems) + f"; give exactly one verdict for each {unit} asked about"
        )


@lru_cache(maxsize=256)
def turn_verdicts_schema(
    title: str,
    expected: tuple[int, ...],
    *,
    with_reason: bool,
    allowed: tuple[tuple[str, str], ...] = (("yes", "yes"), ("no", "no")),
    unit: str = "turn",
) -> type[BaseModel]:
    """`{"verdicts": [{"turn": n, "verdict": ..., "reason": ...}], "reason"?: str}` for the
    turns `expected`: one verdict each, in the vocabulary `allowed` (word -> verdict); any
    other answer is one repair request, then the result's error."""
    base = _TurnVerdictsWithReason if with_reason else _TurnVerdicts
    namespace = {
        "model_config": ConfigDict(title=title),
        "allowed": dict(allowed),
        "expected": expected,
        "unit": unit,
    }
    return type(title, (base,), namespace)


def read_turn_verdicts(
    data: Mapping[str, Any], allowed: tuple[tuple[str, str], ...] = (("yes", "yes"), ("no", "no"))
) -> list[dict[str, Any]]:
    """The validated verdicts in turn order, each value read through `allowed`."""
    vocabulary = dict(allowed)
    items = sorted(data["verdicts"], key=lambda item: item["turn"])
    return [{**item, "verdict": _verdicts.read(item["verdict"], vocabulary)} for item in items]
