"""conversation_completeness: was every intention the user expressed met by the conversation?

One call per conversation: the transcript (images in place, tool calls shown) and, for EVERY
user turn, the intentions it expresses (none for thanks or small talk), each with whether the
conversation met it, the assistant turn that met it, and why. The answer is keyed by user turn
(a user turn left out, named twice or not a user turn is one repair request, then the result's
error): deepeval extracts the intentions in a free list, so an unmet request the judge never
listed silently counted as nothing; here every user turn must be accounted for. A `yes` names
the assistant turn that met it (`met_in`), one after the user turn stating the intention: none,
or a turn that is no assistant turn or comes before, is a repair request, then the error.

Score = intentions met / intentions, then the strict clamp. A conversation whose user turns
express no intention scores 1 (nothing asked, nothing left unmet, as deepeval); one without a
user turn is not applicable: refused at submit naming `turns`, and should one reach the metric,
its result is the error `not_applicable` (no call, no score). The reason is built from the
verdicts, naming each unmet intention's turn.

deepeval 4.3.1 makes 2 + I calls (intentions, one verdict call per intention, a reason); Loupe
makes 1. Its `window_size` is accepted and ignored there; Loupe has none.
"""

from functools import lru_cache
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from app.judges import MismatchedAnswer
from app.metrics import _conversation as conversation
from app.metrics import _render as render
from app.metrics import _verdicts
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

VERDICTS = {"yes": "yes", "no": "no"}


class ConversationCompletenessSpec(JudgedSpecBase):
    required_fields: ClassVar[tuple[TestCaseField, ...]] = ("turns",)
    shape: ClassVar[Shape] = "conversation"

    type: Literal["conversation_completeness"]

    def test_case_problems(self, case: Any) -> list[tuple[str, str]]:
        turns = getattr(case, "turns", None)
        if not turns or any(_role(turn) == "user" for turn in turns):
            return []  # the shape check names a case without turns
        return [("turns", "needs a user turn (no intention to judge)")]


def _role(turn: Any) -> Any:
    return turn.get("role") if isinstance(turn, dict) else getattr(turn, "role", None)


class Intention(BaseModel):
    intention: str = Field(min_length=1)
    verdict: _verdicts.YesNo
    met_in: ItemNumber | None = None
    reason: str | None = None


class UserTurn(BaseModel):
    turn: ItemNumber
    intentions: list[Intention]


class Intentions(BaseModel):
    turns: list[UserTurn]
    # The user turns (each accounted for once) and the assistant turns (set per subclass).
    user_turns: ClassVar[tuple[int, ...]] = ()
    assistant_turns: ClassVar[tuple[int, ...]] = ()

    @field_validator("turns")
    @classmethod
    def _readable(cls, items: list[UserTurn]) -> list[UserTurn]:
        verdicts = [intention.verdict for item in items for intention in item.intentions]
        _verdicts.refuse_unreadable(verdicts, VERDICTS)
        return items

    @model_validator(mode="after")
    def _every_user_turn_once(self) -> "Intentions":
        conversation.refuse_unkeyed(
            [item.turn for item in self.turns], self.user_turns, "user turn"
        )
        problems = _met_in_problems(self.turns, self.assistant_turns)
        if problems:
            raise MismatchedAnswer(
                "; ".join(problems) + '; for a `yes`, "met_in" is the assistant turn after the '
                'user turn stating the intention that met it; for a `no`, "met_in" is null'
            )
        return self


def _met_in_problems(turns: list[UserTurn], assistant_turns: tuple[int, ...]) -> list[str]:
    """What is wrong with the `met_in` of `yes` intentions: a turn that is no assistant turn
    (the verdict would be pinned to nothing), one before the user turn stating the intention
    (it could not have met it), or none at all (a `yes` with nothing that met it)."""
    problems = []
    for item in turns:
        for intention in item.intentions:
            if _verdicts.read(intention.verdict, VERDICTS) != "yes":
                continue  # a `no` is met nowhere: its met_in is ignored
            said = f"the intention {intention.intention!r} of turn {item.turn}"
            met_in = intention.met_in
            if met_in is None:
                problems.append(f"{said} is `yes` with no met_in")
            elif met_in not in assistant_turns:
                problems.append(f"{said} has met_in {met_in}, which is not an assistant turn")
            elif met_in < item.turn:
                problems.append(
                    f"{said} has met_in {met_in}, an assistant turn before turn {item.turn} "
                    "stated it"
                )
    return problems


@lru_cache(maxsize=256)
def _schema(user_turns: tuple[int, ...], assistant_turns: tuple[int, ...]) -> type[BaseModel]:
    namespace = {
        "model_config": ConfigDict(title="conversation_completeness_intentions"),
        "user_turns": user_turns,
        "assistant_turns": assistant_turns,
    }
    return type("conversation_completeness_intentions", (Intentions,), namespace)


def _instructions(with_reason: bool, images: bool) -> str:
    reason = ', "reason": "..."' if with_reason else ""
    shape = (
        '{"turns": [{"turn": n, "intentions": [{"intention": "...", "verdict": "yes|no", '
        f'"met_in": n or null{reason}}}]}}]}}'
    )
    rules = f" {render.IMAGE_RULES}" if images else ""
    why = (
        " Give each intention a short reason: how it was met, or what was left undone."
        if with_reason
        else ""
    )
    return (
        "Loupe task: conversation_completeness_intentions\n"
        "Read the conversation between a user and an AI assistant, then go through every user "
        "turn listed. For each, write down the intentions it expresses: what the user wants "
        "to get, learn or have done, each in a short phrase. List an intention once, under the "
        "user turn where it first appears; a later turn that refines or repeats it adds nothing "
        "new. A turn with no intention (thanks, greetings, small talk, a plain answer to the "
        "assistant's question) gets an empty list. Then judge each intention over the whole "
        "conversation: `yes` when the assistant's turns fulfil it (answered, done, or declined "
        "with a reason the user accepted), `no` when it is ignored, half done, dropped, or "
        'left open at the end. For a `yes`, "met_in" is the number of the assistant turn that '
        "met it, always one after the user turn that states the intention; for a `no`, null."
        f"{rules}{why}\nAnswer with JSON only, one entry per user turn: {shape}"
    )


def _messages(case: MetricTestCase, with_reason: bool) -> list[dict]:
    users = conversation.numbers_with_role(conversation.turns_of(case), "user")
    parts = [
        *conversation.transcript(case),
        render.text(f"User turns to go through: {', '.join(map(str, users))}"),
    ]
    return render.messages(_instructions(with_reason, render.is_multimodal(parts)), parts)


def _turn_numbers(case: MetricTestCase) -> tuple[tuple[int, ...], tuple[int, ...]]:
    turns = conversation.turns_of(case)
    users = conversation.numbers_with_role(turns, "user")
    return tuple(users), tuple(conversation.numbers_with_role(turns, "assistant"))


def plan(spec: ConversationCompletenessSpec, case: MetricTestCase) -> list[PlannedCall]:
    """One call when the conversation has a user turn. Completion: about 10 tokens per user
    turn and, assuming an intention per user turn, about 35 for it (25 without reasons)."""
    users, _ = _turn_numbers(case)
    if not users:
        return []
    per_item = 45 if spec.include_reason else 35
    completion = Completion(fixed=8, per_item=per_item, items=len(users))
    return [
        PlannedCall(
            "conversation_completeness_intentions",
            _messages(case, spec.include_reason),
            completion,
        )
    ]


def _reason(intentions: list[dict[str, Any]], users: tuple[int, ...], score: float) -> str:
    if not intentions:
        return (
            f"The user's {conversation.turn_list(users)} express no intention the conversation "
            f"could leave unmet; score {score:.2f}."
        )
    unmet = [item for item in intentions if item["verdict"] == "no"]
    met = len(intentions) - len(unmet)
    if not unmet:
        where = conversation.turn_list(sorted({item["turn"] for item in intentions}))
        return f"All {met} intentions the user expressed ({where}) were met; score {score:.2f}."
    told = "; ".join(
        f"turn {item['turn']}: {item['intention']}"
        + (f" ({item['reason']})" if item.get("reason") else "")
        for item in unmet
    )
    return f"{met} of {len(intentions)} intentions were met; score {score:.2f}. Not met: {told}"


def _read(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The intentions in user-turn order, each verdict read (a `no` is met nowhere)."""
    intentions = []
    for entry in sorted(data["turns"], key=lambda entry: entry["turn"]):
        for item in entry["intentions"]:
            verdict = _verdicts.read(item["verdict"], VERDICTS)
            intentions.append(
                {
                    "turn": entry["turn"],
                    "intention": item["intention"],
                    "verdict": verdict,
                    "met_in": item.get("met_in") if verdict == "yes" else None,
                    "reason": item.get("reason"),
                }
            )
    return intentions


async def measure(
    spec: ConversationCompletenessSpec, case: MetricTestCase, ctx: MetricContext
) -> MetricResult:
    """One call: every user turn's intentions, each with a met / not met verdict."""
    users, assistants = _turn_numbers(case)
    if not users:
        error = MetricError(
            "not_applicable",
            "the conversation has no user turn, so it expresses no intention to meet; "
            "no score is given",
        )
        return MetricResult.failure(spec.threshold, error)

    async def body(judge: JudgeSession) -> MetricResult:
        messages = _messages(case, spec.include_reason)
        reply = await judge.ask("intentions", messages, _schema(users, assistants))
        intentions = _read(reply.data)
        met = sum(item["verdict"] == "yes" for item in intentions)
        score = met / len(intentions) if intentions else 1.0
        logs: dict[str, Any] = {
            "turns": [
                conversation.pin(
                    item["turn"],
                    item["verdict"],
                    item["reason"],
                    intention=item["intention"],
                    met_in=item["met_in"],
                )
                for item in intentions
            ],
        }
        reason = _reason(intentions, users, score) if spec.include_reason else None
        return strict_result(spec, score, reason, logs)

    return await run_judged(spec, ctx, body)
