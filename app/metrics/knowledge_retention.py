"""knowledge_retention: does each assistant turn keep what the user told it earlier?

Two calls per conversation, one after the other: the facts the user gave, keyed by user turn
(every user turn that an assistant turn follows, each exactly once), then one verdict per
assistant turn after the first fact, keyed by turn: `no` when the turn forgets, contradicts
(a tool call's arguments included) or asks again for something the user already said, the
latest correction of a fact being the one that counts. deepeval makes one extraction call per
user turn, one verdict call per assistant turn and a reason call, all sequential.

Score = assistant turns that kept the facts / assistant turns judged; no fact before an
assistant turn scores 1 (nothing could be forgotten) and skips the verdict call. The reason is
built from the verdicts, naming the turns; there is no reason call.
"""

from functools import lru_cache
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, model_validator

from app.judges import MismatchedAnswer
from app.metrics import _conversation as conversation
from app.metrics import _render as render
from app.metrics._judged import JudgedSpecBase, JudgeSession, run_judged, strict_result
from app.metrics._plan import Completion, PlannedCall, sentences, text_of_parts
from app.metrics._types import MetricContext, MetricResult, MetricTestCase, Shape, TestCaseField
from app.metrics._verdicts import ItemNumber, misfits, some

VERDICTS = (("yes", "yes"), ("no", "no"))


class KnowledgeRetentionSpec(JudgedSpecBase):
    required_fields: ClassVar[tuple[TestCaseField, ...]] = ("turns",)
    shape: ClassVar[Shape] = "conversation"

    type: Literal["knowledge_retention"]


class TurnFacts(BaseModel):
    turn: ItemNumber
    facts: list[str]


class _Facts(BaseModel):
    turns: list[TurnFacts]
    # Set per subclass: the user turns that must each be answered once.
    expected: ClassVar[tuple[int, ...]] = ()

    @model_validator(mode="after")
    def _one_each(self) -> "_Facts":
        # A user turn left out would silently drop its facts, and the turns that forget them.
        missing, extra, twice = misfits((item.turn for item in self.turns), self.expected)
        problems = []
        if missing:
            problems.append(f"no facts entry for user turn {some(missing)}")
        if extra:
            problems.append(f"turn {some(extra)} was not asked about")
        if twice:
            problems.append(f"user turn {some(twice)} listed more than once")
        if problems:
            raise MismatchedAnswer(
                "; ".join(problems)
                + "; give exactly one entry for each user turn asked about (an empty list "
                "when it states no fact)"
            )
        return self


@lru_cache(maxsize=256)
def facts_schema(expected: tuple[int, ...]) -> type[BaseModel]:
    """`{"turns": [{"turn": n, "facts": [...]}]}` with one entry per user turn `expected`."""
    namespace = {
        "model_config": ConfigDict(title="knowledge_retention_facts"),
        "expected": expected,
    }
    return type("knowledge_retention_facts", (_Facts,), namespace)


def asked_user_turns(turns: list[dict[str, Any]]) -> list[int]:
    """User turns an assistant turn follows: only their facts can be forgotten."""
    assistant = conversation.numbers_with_role(turns, "assistant")
    last = max(assistant, default=0)
    return [n for n in conversation.numbers_with_role(turns, "user") if n < last]


def judged_turns(turns: list[dict[str, Any]], first_fact: int | None) -> list[int]:
    """Assistant turns after the user turn that gave the first fact."""
    if first_fact is None:
        return []
    return [n for n in conversation.numbers_with_role(turns, "assistant") if n > first_fact]


def _shown(case: MetricTestCase) -> conversation.Parts:
    """The transcript up to the last assistant turn: a user turn after it gives facts no turn
    can forget, so neither its text nor its images are sent."""
    return conversation.transcript(case, conversation.up_to_last_reply(conversation.turns_of(case)))


def _image_rules(parts: conversation.Parts) -> str:
    # Only where the prompt shows an image: the transcript (retrieval context is not shown).
    return f" {render.IMAGE_RULES}" if render.is_multimodal(parts) else ""


def _facts_messages(case: MetricTestCase, asked: list[int]) -> list[dict]:
    shown = _shown(case)
    prompt = (
        "Loupe task: knowledge_retention_facts\n"
        "Read the conversation below. For each user turn asked about, list the facts the user "
        "states in it about themselves, their situation or what they want (names, dates, "
        "numbers, places, preferences, constraints, what an image they send shows), each as a "
        "short self-contained sentence. Earlier turns only help to read a turn: a user's "
        '"yes" to what the assistant proposed states that proposal as a fact. When the user '
        "corrects something said before, write the corrected fact. Questions, greetings and "
        "thanks are not facts. Answer each user turn asked about exactly once, with an empty "
        "list when it states no fact." + _image_rules(shown) + "\n"
        'Answer with JSON only: {"turns": [{"turn": 1, "facts": ["..."]}]}'
    )
    parts = [
        *shown,
        render.text(f"User turns to read: {', '.join(map(str, asked))}"),
    ]
    return render.messages(prompt, parts)


def _verdicts_messages(
    case: MetricTestCase, facts: list[dict[str, Any]], judged: list[int]
) -> list[dict]:
    shown = _shown(case)
    prompt = (
        "Loupe task: knowledge_retention_verdicts\n"
        "Below are a conversation and the facts the user gave in it, by the turn that gave "
        "them. For each assistant turn asked about, answer `no` when the turn forgets a fact "
        "the user gave before it, contradicts one (in its text or in the arguments of a tool "
        "it calls), or asks again for something the user already said; otherwise answer "
        "`yes`. Only facts given before the turn count, and a later fact on the same point "
        "replaces an earlier one: the turn must keep the latest. Asking the user to confirm a "
        "fact while stating it is not forgetting. A `no` needs a short reason naming the fact "
        "and the turn it was given in." + _image_rules(shown) + "\n"
        'Answer with JSON only: {"verdicts": [{"turn": n, "verdict": "yes|no", "reason": '
        '"..."}]}'
    )
    listing = "\n".join(
        f"Turn {item['turn']}: " + " ".join(item["facts"]) for item in facts if item["facts"]
    )
    parts = [
        *shown,
        render.text(f"Facts the user gave:\n{listing}"),
        render.text(f"Assistant turns to judge: {', '.join(map(str, judged))}"),
    ]
    return render.messages(prompt, parts)


def _verdicts_schema(judged: list[int]) -> type[BaseModel]:
    return conversation.turn_verdicts_schema(
        "knowledge_retention_verdicts", tuple(judged), with_reason=False, allowed=VERDICTS
    )


def plan(spec: KnowledgeRetentionSpec, case: MetricTestCase) -> list[PlannedCall]:
    """The facts call, then (when a fact comes before an assistant turn) the verdicts call.

    Completions: each user turn's sentences restated as facts (about 6 tokens of keys each);
    a verdict with a short reason (about 20 tokens) per assistant turn after the first user
    turn. Stand-in facts: every sentence of every user turn asked about."""
    turns = conversation.turns_of(case)
    asked = asked_user_turns(turns)
    if not asked:
        return []
    stand_in = [
        {
            "turn": n,
            "facts": sentences(text_of_parts(render.content_parts(turns[n - 1].get("content")))),
        }
        for n in asked
    ]
    restated = tuple(fact for item in stand_in for fact in item["facts"])
    judged = judged_turns(turns, asked[0])
    return [
        PlannedCall(
            "knowledge_retention_facts",
            _facts_messages(case, asked),
            Completion(fixed=8, per_item=6, items=len(asked), echoed=restated),
        ),
        PlannedCall(
            "knowledge_retention_verdicts",
            _verdicts_messages(case, stand_in, judged),
            Completion(fixed=8, per_item=20, items=len(judged)),
        ),
    ]


def _reason(
    asked: list[int], facts: list[dict[str, Any]], verdicts: list[dict[str, Any]], score: float
) -> str:
    if not asked:
        return (
            "No assistant turn follows a user turn, so nothing the user said could be "
            "forgotten: score 1."
        )
    if not verdicts:
        return (
            f"The user states no fact ({conversation.turn_list(asked)} read), so nothing "
            "could be forgotten: score 1."
        )
    first = next(item["turn"] for item in facts if item["facts"])
    lost = [item for item in verdicts if item["verdict"] == "no"]
    judged = [item["turn"] for item in verdicts]
    if not lost:
        return (
            f"Every assistant turn after the user's first fact (turn {first}) kept what the "
            f"user said: {conversation.turn_list(judged)}; score {score:.2f}."
        )
    kept = len(verdicts) - len(lost)
    forgotten = "; ".join(
        f"turn {item['turn']}: {item.get('reason') or 'forgot or contradicted an earlier fact'}"
        for item in lost
    )
    return (
        f"{kept} of {len(verdicts)} assistant turns after the user's first fact (turn "
        f"{first}) kept what the user said; score {score:.2f}. {forgotten}"
    )


async def measure(
    spec: KnowledgeRetentionSpec, case: MetricTestCase, ctx: MetricContext
) -> MetricResult:
    """The user's facts by turn, then one keyed verdict per assistant turn after the first."""

    async def body(judge: JudgeSession) -> MetricResult:
        turns = conversation.turns_of(case)
        asked = asked_user_turns(turns)
        facts: list[dict[str, Any]] = []
        if asked:
            reply = await judge.ask(
                "facts", _facts_messages(case, asked), facts_schema(tuple(asked))
            )
            facts = [
                {"turn": item["turn"], "facts": [f for f in item["facts"] if f.strip()]}
                for item in sorted(reply.data["turns"], key=lambda item: item["turn"])
            ]
        first = next((item["turn"] for item in facts if item["facts"]), None)
        judged = judged_turns(turns, first)
        verdicts: list[dict[str, Any]] = []
        if judged:
            reply = await judge.ask(
                "verdicts", _verdicts_messages(case, facts, judged), _verdicts_schema(judged)
            )
            verdicts = conversation.read_turn_verdicts(reply.data, VERDICTS)
        kept = sum(item["verdict"] == "yes" for item in verdicts)
        score = kept / len(verdicts) if verdicts else 1.0
        logs: dict[str, Any] = {
            "facts": facts,
            "turns": [
                conversation.pin(item["turn"], item["verdict"], item.get("reason"))
                for item in verdicts
            ],
        }
        reason = _reason(asked, facts, verdicts, score) if spec.include_reason else None
        return strict_result(spec, score, reason, logs)

    return await run_judged(spec, ctx, body)
