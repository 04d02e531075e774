"""turn_relevancy: does each assistant reply address what the user asked in its exchange?

The conversation is cut into exchanges (`_conversation.exchanges`: the user's message(s), then
the assistant's reply); each exchange's reply is judged once, keyed to its last assistant turn,
with the exchange and the `window_size - 1` exchanges before it as what the verdict may read.
Score = replies that address the request / exchanges judged, then the strict clamp.

Differences from deepeval 4.3.1 (TurnRelevancyMetric):
- The question (deepeval #2321, 0.9+ on clearly bad conversations): deepeval may say `no` only
  when the last message is "completely irrelevant", so an on-topic reply that answers nothing
  passes. Here `yes` means the reply takes up what the user asked in that exchange; being on
  topic is not enough. yes/no only, never `borderline`.
- Calls: deepeval makes one call per exchange plus a reason call (W + 1). Here exchanges are
  judged in blocks of `window_size` per call, keyed by turn (`_conversation.turn_verdicts_schema`:
  a reply left unjudged is one repair request, then `invalid_answer`): one call for a
  conversation of up to `window_size` exchanges, ceil(W / window_size) in general, and no
  reason call (the reason is built from the verdicts' own reasons). A block's prompt shows its
  exchanges and the `window_size - 1` before the first (never more than 2 * window_size - 1
  exchanges), and names for each reply the turns its verdict may use: the window still bounds
  what each verdict reads, and what each prompt holds. Blocks start at the first exchange, so
  a conversation judged again after it grew hits the judge cache for its earlier blocks.
- A conversation with no answered exchange is not applicable (deepeval scores it 1): it is
  refused at submit naming `turns`, and should one reach the metric its result is the error
  `not_applicable`, with no score and no call.
- Turns are shown as text with their images in place and their tool calls, not as a Python
  repr of content and role (a tool-only reply was judged as "").
"""

import asyncio
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, cast

from pydantic import BaseModel, Field

from app.judges import JudgeReply
from app.metrics import _conversation as conversation
from app.metrics import _render as render
from app.metrics._judged import JudgedSpecBase, JudgeSession, run_judged, strict_result
from app.metrics._plan import Completion, PlannedCall
from app.metrics._types import (
    MetricContext,
    MetricError,
    MetricResult,
    MetricTestCase,
    Shape,
    TestCaseField,
)
from app.metrics._verdicts import ItemNumber

VERDICTS = (("yes", "yes"), ("no", "no"))


class TurnRelevancySpec(JudgedSpecBase):
    required_fields: ClassVar[tuple[TestCaseField, ...]] = ("turns",)
    shape: ClassVar[Shape] = "conversation"

    type: Literal["turn_relevancy"]
    window_size: int = Field(
        default=10,
        ge=1,
        le=100,
        description="How many EXCHANGES (not turns) each verdict may read: the exchange judged "
        "and the window_size - 1 before it. An exchange is the user's message(s) and the "
        "assistant's reply. Also how many replies one judge call judges.",
    )

    def test_case_problems(self, case: Any) -> list[tuple[str, str]]:
        turns = getattr(case, "turns", None)
        if not turns or conversation.exchanges([{"role": _role(turn)} for turn in turns]):
            return []  # the shape check names a case without turns
        return [("turns", "needs an assistant turn answering a user turn (no reply to judge)")]


def _role(turn: Any) -> Any:
    return turn.get("role") if isinstance(turn, dict) else getattr(turn, "role", None)


@dataclass(frozen=True)
class ExchangeReply:
    """One exchange's reply as the judge is asked about it (turn numbers, 1-based)."""

    exchange: int
    # The reply's last assistant turn (its verdict is keyed and pinned to it), and its first.
    turn: ItemNumber
    reply_from: int
    # The user turns it answers, and the first and last turn its verdict may read.
    asked: list[int]
    window: tuple[int, int]


def replies(case: MetricTestCase, window_size: int) -> list[ExchangeReply]:
    """Every answered exchange's reply, with the user turns it answers and its window."""
    turns = conversation.turns_of(case)
    units = conversation.exchanges(turns)
    found = []
    for index, unit in enumerate(units):
        users = [n for n in unit if turns[n - 1].get("role") == "user"]
        # The reply: the assistant turns after the exchange's last user message.
        reply_turns = [n for n in unit if n > users[-1]]
        seen = conversation.window(units, index, window_size)
        found.append(
            ExchangeReply(
                exchange=index + 1,
                turn=reply_turns[-1],
                reply_from=reply_turns[0],
                asked=users,
                window=(seen[0], seen[-1]),
            )
        )
    return found


def blocks(found: list[ExchangeReply], window_size: int) -> list[list[ExchangeReply]]:
    """The replies judged together, `window_size` per call, from the first exchange on."""
    return [found[i : i + window_size] for i in range(0, len(found), window_size)]


def _span(first: int, last: int) -> str:
    return f"turn {first}" if first == last else f"turns {first}-{last}"


def _instructions(with_reason: bool, images: bool) -> str:
    reason = (
        ' Give each verdict a short "reason" saying what the user asked and how the reply '
        "meets or misses it."
        if with_reason
        else ""
    )
    shape = '{"verdicts": [{"turn": n, "verdict": "yes|no"' + (
        ', "reason": "..."}]}' if with_reason else "}]}"
    )
    rules = f" {render.IMAGE_RULES}" if images else ""
    return (
        "Loupe task: turn_relevancy_verdicts\n"
        "You check whether an AI assistant's replies respond to what the user asked. Each reply "
        "listed after the conversation answers the user message(s) named beside it. Answer "
        "`yes` when the reply takes up that request: it answers the question, does or attempts "
        "the task, asks a clarification the request really needs, or explains why it declines. "
        "For a greeting, thanks or small talk, a fitting acknowledgement is `yes`. Answer `no` "
        "when it does not: it answers a different question, drops the request's main point, "
        "repeats an earlier answer that does not fit the new message, changes the subject, or "
        "is generic text that would fit any message. Sharing the topic is not enough: a reply "
        "about the right subject that does not respond to what was asked is `no`. Do not judge "
        "whether the reply is true or covers every detail, only whether it responds. For each "
        "reply, read only the turns named as its window; turns after the reply are not evidence."
        f"{rules}{reason}\nAnswer with JSON only, one verdict per reply listed: {shape}"
    )


def _messages(case: MetricTestCase, block: list[ExchangeReply], with_reason: bool) -> list[dict]:
    shown = range(block[0].window[0], block[-1].turn + 1)
    label = "Conversation"
    if shown.start > 1:
        label = f"Conversation from turn {shown.start} (the turns before it are in no window here)"
    lines = []
    for reply in block:
        spread = (
            ""
            if reply.reply_from == reply.turn
            else f" (the reply spans {_span(reply.reply_from, reply.turn)})"
        )
        lines.append(
            f"- turn {reply.turn}{spread}: answers the user's "
            f"{conversation.turn_list(reply.asked)}; its window is {_span(*reply.window)}"
        )
    parts = [
        *conversation.transcript(case, shown, label=label),
        render.text("Replies to judge:\n" + "\n".join(lines)),
    ]
    # The image rules only where this prompt shows an image (not for a text-only block).
    images = render.is_multimodal(parts)
    return render.messages(_instructions(with_reason, images), parts)


def _schema(block: list[ExchangeReply]) -> type[BaseModel]:
    # Reasons stay optional in the schema: a verdict without one is still a verdict.
    return conversation.turn_verdicts_schema(
        "turn_relevancy_verdicts",
        tuple(reply.turn for reply in block),
        with_reason=False,
        allowed=VERDICTS,
        unit="reply turn",
    )


def plan(spec: TurnRelevancySpec, case: MetricTestCase) -> list[PlannedCall]:
    """One call per block of `window_size` exchanges (none without an answered exchange).
    Completion: a verdict per reply, about 30 tokens with its reason, 8 without."""
    per_item = 30 if spec.include_reason else 8
    return [
        PlannedCall(
            "turn_relevancy_verdicts",
            _messages(case, block, spec.include_reason),
            Completion(fixed=8, per_item=per_item, items=len(block)),
        )
        for block in blocks(replies(case, spec.window_size), spec.window_size)
    ]


def _reason(verdicts: list[dict[str, Any]], score: float) -> str:
    missed = [item for item in verdicts if item["verdict"] == "no"]
    if not missed:
        turns = conversation.turn_list(item["turn"] for item in verdicts)
        return f"Every reply responds to what the user asked ({turns}); score {score:.2f}."
    told = "; ".join(
        f"turn {item['turn']}: {item.get('reason') or 'does not respond to the request'}"
        for item in missed
    )
    kept = len(verdicts) - len(missed)
    return (
        f"{kept} of {len(verdicts)} replies respond to what the user asked; score {score:.2f}. "
        f"Not responding: {told}"
    )


async def measure(
    spec: TurnRelevancySpec, case: MetricTestCase, ctx: MetricContext
) -> MetricResult:
    """A keyed yes/no per answered exchange, `window_size` exchanges per call."""
    found = replies(case, spec.window_size)
    if not found:
        error = MetricError(
            "not_applicable",
            "no assistant turn answers a user turn, so there is no reply to judge "
            "(turn_relevancy judges each exchange's reply); no score is given",
        )
        return MetricResult.failure(spec.threshold, error)

    async def body(judge: JudgeSession) -> MetricResult:
        async def ask(number: int, block: list[ExchangeReply]) -> JudgeReply:
            messages = _messages(case, block, spec.include_reason)
            return await judge.ask(f"verdicts_{number}", messages, _schema(block))

        chunks = blocks(found, spec.window_size)
        answers = await asyncio.gather(
            *(ask(number, block) for number, block in enumerate(chunks, start=1)),
            return_exceptions=True,
        )
        # Every call is awaited (its usage counted) before the first failure ends the result.
        for answer in answers:
            if isinstance(answer, BaseException):
                raise answer
        by_turn: dict[int, dict[str, Any]] = {}
        for answer in answers:
            for item in conversation.read_turn_verdicts(cast(JudgeReply, answer).data, VERDICTS):
                by_turn[item["turn"]] = item
        verdicts = [by_turn[reply.turn] for reply in found]
        score = sum(item["verdict"] == "yes" for item in verdicts) / len(verdicts)
        logs: dict[str, Any] = {
            "turns": [
                conversation.pin(
                    reply.turn,
                    item["verdict"],
                    item.get("reason"),
                    exchange=reply.exchange,
                    asked=reply.asked,
                    window=list(reply.window),
                )
                for reply, item in zip(found, verdicts, strict=True)
            ],
            "calls": len(chunks),
        }
        reason = _reason(verdicts, score) if spec.include_reason else None
        return strict_result(spec, score, reason, logs)

    return await run_judged(spec, ctx, body)
