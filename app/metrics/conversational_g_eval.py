"""conversational_g_eval: a judge scores a whole conversation against criteria or steps.

G-Eval over a transcript: the steps are generated once per evaluation and spec (shared by
every conversation; none when `evaluation_steps` are given), then one scoring call sees the
numbered steps, the rubric, the case-level fields asked for and the transcript (images in
place; tool calls and retrieval context only when `evaluation_params` name them). The score is
the judge's integer, logprob-weighted where the logprobs spell it, normalised by the rubric's
span (deepeval divides by 10 whatever the rubric); strict mode asks a 0-or-1 question. The
judge also lists the turns its reason rests on: they are pinned in `logs["turns"]`.
"""

from collections import Counter
from functools import lru_cache
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from app.judges import MismatchedAnswer
from app.metrics import _conversation as conversation
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
from app.metrics._types import MetricContext, MetricResult, MetricTestCase, Shape, TestCaseField
from app.metrics._verdicts import ItemNumber, JudgeNumber, Reason, refuse_out_of_range, some

ConversationParam = Literal[
    "content",
    "role",
    "tools_called",
    "retrieval_context",
    "scenario",
    "expected_outcome",
    "chatbot_role",
    "user_description",
]
# Fields of each turn, and fields of the conversation as a whole.
TURN_PARAMS = ("content", "role", "tools_called", "retrieval_context")
CASE_PARAMS = ("scenario", "expected_outcome", "chatbot_role", "user_description")
_WORDS = {
    "content": "content",
    "role": "role",
    "tools_called": "tool calls",
    "retrieval_context": "retrieval context",
    "scenario": "scenario",
    "expected_outcome": "expected outcome",
    "chatbot_role": "the assistant's role",
    "user_description": "the description of the user",
}


class ConversationalGEvalSpec(GEvalChecks):
    type: Literal["conversational_g_eval"]
    shape: ClassVar[Shape] = "conversation"
    required_fields: ClassVar[tuple[TestCaseField, ...]] = ("turns",)
    include_reason: ClassVar[bool] = True  # type: ignore[misc]
    name: NonEmpty = Field(max_length=128, description="Results are reported under this name.")
    criteria: NonEmpty | None = None
    evaluation_steps: list[NonEmpty] | None = Field(default=None, min_length=1)
    evaluation_params: list[ConversationParam] = Field(
        default_factory=lambda: ["content", "role"],
        min_length=1,
        description="What the judge looks at: turn fields (content, role, tools_called, "
        "retrieval_context) and the conversation's (scenario, expected_outcome, chatbot_role, "
        "user_description). Each turn's role and content are always shown; a conversation "
        "field named here must be on every case.",
    )
    rubric: list[RubricItem] | None = Field(default=None, min_length=1)
    top_logprobs: int = Field(default=20, ge=0, le=20)

    def case_params(self) -> list[str]:
        return [p for p in self.evaluation_params if p in CASE_PARAMS]

    def test_case_problems(self, case: Any) -> list[tuple[str, str]]:
        # deepeval raises KeyError mid-evaluation for some of these; here the submission is
        # refused naming the case's missing field.
        return [
            (name, f"evaluation_params names {name}, which this case does not have")
            for name in self.case_params()
            if getattr(case, name, None) in (None, "")
        ]


class _Steps(Steps):
    model_config = ConfigDict(title="conversational_g_eval_steps")


class CitedTurn(BaseModel):
    turn: ItemNumber
    note: str = ""


class Score(BaseModel):
    model_config = ConfigDict(title="conversational_g_eval_score")
    # Reason and cited turns first, so the score is the last number the judge writes (the
    # logprobs are read at the last token spelling it).
    reason: Reason
    turns: list[CitedTurn]
    score: JudgeNumber
    # Set per subclass: the asked range and the conversation's turn count.
    low: ClassVar[int] = 0
    high: ClassVar[int] = 10
    count: ClassVar[int] = 0

    @model_validator(mode="after")
    def _fits(self) -> "Score":
        refuse_out_of_range(self.score, self.low, self.high)
        refuse_unknown_turns([item.turn for item in self.turns], self.count)
        return self


def refuse_unknown_turns(cited: list[int], count: int) -> None:
    """Raises MismatchedAnswer for a cited turn the conversation does not have, or one cited
    twice: a pin on a turn that is not there would point the reader nowhere."""
    unknown = sorted({n for n in cited if not 1 <= n <= count})
    if unknown:
        raise MismatchedAnswer(
            f"turn {some(unknown)} is not in the conversation (turns 1 to {count})"
        )
    twice = sorted(n for n, times in Counter(cited).items() if times > 1)
    if twice:
        raise MismatchedAnswer(f"turn {some(twice)} is cited more than once")


def cited_reason(reason: str, cited: list[dict[str, Any]]) -> str:
    """The judge's reason followed by its notes on the turns it cites ("turn 3: ..."), leaving
    out a note the reason already says."""
    said = _plain(reason)
    notes = [
        note
        for note in (f"turn {item['turn']}: {item['note'].strip()}" for item in cited)
        if not note.endswith(": ") and _plain(note) not in said
    ]
    return f"{reason} ({'; '.join(notes)})" if notes else reason


def _plain(text: str) -> str:
    """Text compared as words: case and runs of white space ignored."""
    return " ".join(text.split()).casefold()


@lru_cache(maxsize=256)
def score_schema(low: int, high: int, count: int) -> type[BaseModel]:
    """The score answer's schema for one range (strict mode: 0 to 1) and turn count."""
    namespace = {
        "model_config": ConfigDict(title="conversational_g_eval_score"),
        "low": low,
        "high": high,
        "count": count,
    }
    return type("Score", (Score,), namespace)


def _parameters(spec: ConversationalGEvalSpec) -> str:
    # Every turn is shown with its role and content, asked for or not.
    turn = ["role", "content"]
    turn += [_WORDS[p] for p in TURN_PARAMS[2:] if p in spec.evaluation_params]
    said = "each turn's " + _joined(turn)
    case = [_WORDS[p] for p in spec.case_params()]
    return said + (" and the conversation's " + _joined(case) if case else "")


def _joined(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _steps_prompt(spec: ConversationalGEvalSpec) -> str:
    return (
        "Loupe task: conversational_g_eval_steps\n"
        "You will grade a conversation between a user and an assistant against some "
        f"criteria, looking at {_parameters(spec)}. Write 3 or 4 short, concrete evaluation "
        "steps a grader should follow to judge that.\n"
        f"Criteria: {spec.criteria}\n"
        'Answer with JSON only: {"steps": ["...", ...]}'
    )


_CITED = '"turns": [{"turn": <turn number>, "note": "..."}]'


def _score_messages(
    spec: ConversationalGEvalSpec, case: MetricTestCase, steps: list[str]
) -> list[dict]:
    """The scoring call: instructions, the conversation's fields asked for, the transcript."""
    low, high = rubric_span(spec.rubric)
    content = conversation.case_fields(case, spec.case_params())
    content += conversation.transcript(
        case,
        tools="tools_called" in spec.evaluation_params,
        context="retrieval_context" in spec.evaluation_params,
    )
    if spec.strict_mode:
        scale = (
            "Give score 1 only if the conversation fully meets every step, else 0. "
            'Answer with JSON only, score last: {"reason": "...", ' + _CITED + ', "score": 0 or 1}'
        )
    else:
        scale = (
            f"Give an integer score from {low} (does not meet the steps at all) to {high} "
            '(fully meets them). Answer with JSON only, score last: {"reason": "...", '
            + _CITED
            + ', "score": <integer>}'
        )
    instructions = (
        "Loupe task: conversational_g_eval_score\n"
        f"Grade the conversation below by following these evaluation steps, looking at "
        f"{_parameters(spec)}.\nSteps:\n{numbered(steps)}\n"
        + ("" if spec.strict_mode else rubric_text(spec.rubric))
        + "Write a reason in one or two sentences that names the turns it rests on by number "
        '("turn 3: ...") without stating the score, and list those turns, each with a short '
        "note, in `turns` (turns are numbered from 1 as shown). "
        + (render.IMAGE_RULES + " " if render.is_multimodal(content) else "")
        + scale
    )
    return [{"role": "user", "content": render.merge_text([render.text(instructions), *content])}]


# What generated steps typically look like (3 or 4 short, concrete steps are asked for).
TYPICAL_STEPS = [
    "Read the whole conversation and note what the user asks for in each turn.",
    "Check whether each assistant turn answers what was asked, correctly and in context.",
    "Look for turns that contradict, forget or ignore earlier turns.",
    "Judge how well the conversation as a whole meets the criteria.",
]


def plan(spec: ConversationalGEvalSpec, case: MetricTestCase) -> list[PlannedCall]:
    """Steps (unless given; shared by every case), then one scoring call per conversation.

    Completions: the steps' JSON; the reason, a few cited turns (about 20 tokens each) and the
    score."""
    steps, calls = planned_steps(spec, _Steps, _steps_prompt, TYPICAL_STEPS)
    cited = min(3, len(case.turns or []))
    calls.append(
        PlannedCall(
            "conversational_g_eval_score",
            _score_messages(spec, case, steps),
            Completion(fixed=50, per_item=20, items=cited),
        )
    )
    return calls


async def measure(
    spec: ConversationalGEvalSpec, case: MetricTestCase, ctx: MetricContext
) -> MetricResult:
    """Steps (shared), then one scoring call returning the reason, cited turns and score."""

    async def body(judge: JudgeSession) -> MetricResult:
        steps, steps_source = await asked_steps(judge, spec, _Steps, _steps_prompt)
        span = rubric_span(spec.rubric)
        count = len(case.turns or [])
        want_logprobs = wants_logprobs(spec)
        reply = await judge.ask(
            "score",
            _score_messages(spec, case, steps),
            score_schema(0, 1, count) if spec.strict_mode else score_schema(*span, count),
            top_logprobs=spec.top_logprobs if want_logprobs else None,
        )
        score, logs = scored(spec, reply, steps, steps_source)
        cited = sorted(reply.data["turns"], key=lambda item: item["turn"])
        logs["turns"] = [conversation.pin(i["turn"], "cited", i["note"] or None) for i in cited]
        reason = cited_reason(reply.data["reason"], cited)
        # Not strict_result, as in g_eval.
        return MetricResult(score, passed(score, spec.threshold), spec.threshold, reason, logs=logs)

    return await run_judged(spec, ctx, body)
