"""What turn_faithfulness and turn_contextual_relevancy share: which assistant turns they judge,
the conversation each judged turn is shown with, and the spec options.

A judged turn is an assistant turn that has a retrieval context and answers a user (it lies in
an exchange, app/metrics/_conversation.py). Each is judged once, with the exchanges before it
(up to `window_size` of them, counting its own) shown only to resolve references. deepeval
instead judges one window per exchange, each window re-judging every assistant turn in it, so a
turn is judged up to `window_size` times and early turns weigh more.

A window is also bounded by characters (`MetricContext.window_chars`, LOUPE_MAX_WINDOW_CHARS):
past it its earliest turns are left out, each whole, so that one conversation's prompts grow with
judged turns times that bound, not times window times turn size; the result's
`logs.window_trimmed` names the judged turns whose windows lost turns, and how many.
`outline` and `window_text` count what the windows show from each turn's size, without
building them (the cap on what one submission plans, LOUPE_MAX_PLANNED_WINDOW_CHARS).
"""

import asyncio
from bisect import bisect_left
from collections.abc import Awaitable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from itertools import accumulate
from typing import Any, ClassVar, TypeVar

from pydantic import Field

from app.metrics import _conversation as conversation
from app.metrics import _render as render
from app.metrics._judged import JudgedSpecBase
from app.metrics._types import MetricTestCase, Shape, TestCaseField

Parts = list[dict[str, Any]]
T = TypeVar("T")
# The most exchanges a window can hold: a conversation has at most 200 turns.
MAX_WINDOW = 200


@dataclass(frozen=True)
class JudgedTurn:
    """An assistant turn with retrieval context: its number, its exchange's index and turns."""

    number: int
    exchange: int
    nodes: list[dict[str, Any]]
    # The user turns of its exchange before it: what the user asked that this turn answers.
    asked: tuple[int, ...]
    # Each node's passage (the retrieval_context item it comes from, numbered from 1).
    passages: tuple[int, ...]


class TurnRagSpecBase(JudgedSpecBase):
    """A conversation with retrieval context on at least one assistant turn."""

    required_fields: ClassVar[tuple[TestCaseField, ...]] = ("turns",)
    shape: ClassVar[Shape] = "conversation"
    turn_fields_read: ClassVar[frozenset[str]] = frozenset({"retrieval_context"})
    # Whether a judged turn's window ends at the request it answers (the turns between are
    # not shown), not at the turn itself.
    window_ends_at_request: ClassVar[bool] = False

    window_size: int = Field(
        default=10,
        ge=1,
        le=MAX_WINDOW,
        description="How many exchanges (a user message and the assistant's answer) the judge "
        "sees for each judged turn, the turn's own exchange included; the earlier ones only "
        "resolve references. Each turn is judged once whatever the window.",
    )

    def test_case_problems(self, case: Any) -> list[tuple[str, str]]:
        turns = getattr(case, "turns", None)
        if not turns:
            return []  # the shape check names a case without turns
        if judged_turns([_plain(turn) for turn in turns]):
            return []
        return [
            (
                "turns",
                "needs an assistant turn, answering a user turn, with a retrieval_context "
                "holding text or an image (no turn would be judged)",
            )
        ]


def _plain(turn: Any) -> dict[str, Any]:
    """A submitted turn (model or dict) as the dict the helpers read."""
    if isinstance(turn, dict):
        return turn
    context = getattr(turn, "retrieval_context", None)
    return {
        "role": getattr(turn, "role", None),
        "retrieval_context": [_plain_content(node) for node in context or []],
    }


def _plain_content(node: Any) -> Any:
    if isinstance(node, str):
        return node
    return [part if isinstance(part, str | dict) else part.model_dump() for part in node]


def judged_turns(turns: list[dict[str, Any]]) -> list[JudgedTurn]:
    """The assistant turns with a retrieval context holding text or an image that answer a
    user, in order."""
    found = []
    for index, unit in enumerate(conversation.exchanges(turns)):
        for number in unit:
            turn = turns[number - 1]
            context = turn.get("retrieval_context")
            nodes = render.nodes(context)
            # An assistant turn before the exchange's first user turn (a greeting) answers no one.
            asked = tuple(n for n in unit if n < number and turns[n - 1].get("role") == "user")
            if turn.get("role") == "assistant" and _holds_something(nodes) and asked:
                passages = tuple(render.passages(context))
                found.append(JudgedTurn(number, index, nodes, asked, passages))
    return found


def _holds_something(nodes: list[dict[str, Any]]) -> bool:
    """Whether a context has a node with text or an image: a context of blank passages gives
    the judge nothing to hold the turn to (its truths would be extracted from empty text), so
    its turn is not judged, as a turn without retrieval context is not."""
    return any(node.get("type") != "text" or str(node.get("text", "")).strip() for node in nodes)


def judged(case: MetricTestCase) -> tuple[list[list[int]], list[JudgedTurn]]:
    turns = conversation.turns_of(case)
    return conversation.exchanges(turns), judged_turns(turns)


@dataclass(frozen=True)
class Window:
    """The earlier turns a judged turn's prompt shows, and how many of its window's it left
    out for length (the earliest ones)."""

    shown: list[int]
    left_out: int
    # Every turn of the conversation as `history` shows it, by turn number from 1: rendered
    # once per case and shared by its windows.
    rendered: list[Parts]


def _reach(rendered: list[Parts]) -> list[int]:
    """The characters `history` shows of turns 1..n together, by n (`rendered[0]` is empty)."""
    return list(accumulate(render.text_size(parts) for parts in rendered))


def _cut(
    units: list[list[int]],
    turn: JudgedTurn,
    window_size: int,
    reach: list[int],
    max_chars: int,
    up_to_request: bool,
) -> tuple[int, int, int]:
    """A judged turn's earlier turns as shown: (first, last, left out), the turns `first` to
    `last` shown (none when `first` is past `last`). They are the turns of the window ending
    at its exchange that come before it (with `up_to_request`, up to the request it answers),
    less the earliest ones, each whole, that do not fit in `max_chars` with those after them:
    once one does not fit no earlier one is shown (the judge reads an unbroken stretch before
    the judged turn). Exchanges are consecutive runs of turns, so a window is one run and what
    fits is found by bisecting the running sizes: one judged turn costs a logarithm of the
    conversation, not its window."""
    start = units[max(0, turn.exchange - window_size + 1)][0]
    last = max(turn.asked) if up_to_request else turn.number - 1
    first = bisect_left(reach, reach[last] - max_chars, lo=start - 1, hi=last) + 1
    return first, last, first - start


def windows(
    case: MetricTestCase,
    units: list[list[int]],
    turns: list[JudgedTurn],
    window_size: int,
    max_chars: int,
    *,
    up_to_request: bool = False,
) -> list[Window]:
    """Each judged turn's earlier turns as shown: those of its window before it (with
    `up_to_request`, before the request it answers), bounded by `max_chars` characters of
    text as shown (headings included, images not)."""
    # Each turn's texts joined as the prompt joins them: fewer parts for every window to copy.
    rendered: list[Parts] = [[]] + [
        render.merge_text(conversation.turn_parts(turn, number, tools=False))
        for number, turn in enumerate(conversation.turns_of(case), start=1)
    ]
    reach = _reach(rendered)
    found = []
    for turn in turns:
        first, last, left_out = _cut(units, turn, window_size, reach, max_chars, up_to_request)
        found.append(Window(list(range(first, last + 1)), left_out, rendered))
    return found


@dataclass(frozen=True)
class Outline:
    """A conversation as its windows are cut from it, for counting what they show: its
    exchanges, its judged turns, and `reach` (the characters shown of turns 1..n, by n)."""

    units: list[list[int]]
    judged: list[JudgedTurn]
    reach: list[int]


def outline(case: MetricTestCase) -> Outline:
    """The outline of a case's conversation: each turn's parts are built to be measured, no
    prompt is (a turn's size is the length of its texts as the prompt joins them)."""
    turns = conversation.turns_of(case)
    judged_ones = judged_turns(turns)
    if not judged_ones:
        return Outline([], [], [0])
    sized = [[]] + [
        conversation.turn_parts(turn, number, tools=False)
        for number, turn in enumerate(turns, start=1)
    ]
    return Outline(conversation.exchanges(turns), judged_ones, _reach(sized))


def window_text(spec: TurnRagSpecBase, shape: Outline, max_chars: int) -> int:
    """The characters of earlier turns the metric's prompts show for one conversation, every
    judged turn's window together: what `windows` shows, summed from `reach`."""
    reach, total = shape.reach, 0
    for turn in shape.judged:
        first, last, _ = _cut(
            shape.units, turn, spec.window_size, reach, max_chars, spec.window_ends_at_request
        )
        total += reach[last] - reach[first - 1]
    return total


def trimmed(turns: list[JudgedTurn], windows: list[Window]) -> list[dict[str, int]]:
    """`logs.window_trimmed`: the judged turns whose window lost turns, and how many."""
    return [
        {"turn": turn.number, "left_out": shown.left_out}
        for turn, shown in zip(turns, windows, strict=True)
        if shown.left_out
    ]


def history(shown: Window, label: str) -> Parts:
    """Earlier turns (content and images, no tool calls or retrieval context) under a label
    that says how many were left out for length; nothing when there were none."""
    earliest = "turn" if shown.left_out == 1 else f"{shown.left_out} turns"
    if not shown.shown:
        return (
            [render.text(f"{label}: its {earliest} left out for length")] if shown.left_out else []
        )
    if shown.left_out:
        label += f" (the earliest {earliest} of the window left out for length)"
    return [render.text(f"{label}:"), *(p for n in shown.shown for p in shown.rendered[n])]


async def each(calls: Iterable[Awaitable[T]]) -> list[T]:
    """Every judged turn's calls run together; the first failure is raised once all have
    finished (none is left running, its usage uncounted, after the result is made)."""
    results = await asyncio.gather(*calls, return_exceptions=True)
    for outcome in results:
        if isinstance(outcome, BaseException):
            raise outcome
    return results  # type: ignore[return-value]


def mean(scores: list[float]) -> float:
    """The mean of the turns' scores, each a share of its verdicts (k of n, n under 10,000)
    taken exactly and the mean rounded once: in floats the turns [0, 0, 3/5] made
    0.19999999999999998, which failed a threshold of 0.2."""
    exact = [Fraction(score).limit_denominator(10_000) for score in scores]
    return float(sum(exact) / len(exact))


NO_JUDGED_TURN = (
    "no assistant turn answering a user has a retrieval_context, so there is nothing to judge"
)
