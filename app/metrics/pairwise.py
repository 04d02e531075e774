"""pairwise: which of two answers better meets the criteria, asked in both orders.

The judge sees the answers once as (actual_output, second) and once as (second, actual_output),
both calls at once. actual_output wins (score 1) or loses (0) only when both orders agree;
anything else is a tie (0.5). `logs.position_consistent` is false when the two verdicts
differ, and the evaluation counts those results per metric (position bias). Passing means
winning: the default threshold is 1, so a tie (position-inconsistent ones included) fails and
`pass_rate` is the win rate; a threshold of 0.5 counts ties as passes. A winner that is not A,
B or tie gets one repair request, then is `invalid_answer`.
"""

import asyncio
import re
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator

from app.judges import MismatchedAnswer
from app.metrics import _render as render
from app.metrics import _verdicts
from app.metrics._judged import JudgedSpecBase, JudgeSession, run_judged, strict_result
from app.metrics._plan import Completion, PlannedCall
from app.metrics._types import (
    MetricContext,
    MetricError,
    MetricResult,
    MetricTestCase,
    TestCaseField,
)

NonEmpty = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
_METADATA_KEY = re.compile(r"^metadata\.[^.\s]{1,64}$")
ACTUAL = "actual_output"


class PairwiseSpec(JudgedSpecBase):
    type: Literal["pairwise"]
    # 1, not the usual 0.5: at 0.5 a tie would pass and pass_rate count ties as wins.
    threshold: float = Field(
        default=1.0,
        ge=0,
        le=1,
        strict=True,
        description="`passed = score >= threshold`; the default 1 passes a win in both orders "
        "only (0.5 also passes ties).",
    )
    criteria: NonEmpty = Field(max_length=4000, description="What makes one answer better.")
    evaluation_params: list[Literal["input", "context", "retrieval_context"]] = Field(
        default_factory=lambda: ["input"],
        description="Test-case fields the judge sees besides the two answers.",
    )
    second_output: str = Field(
        default="expected_output",
        description="Where the other answer is: `expected_output`, or `metadata.<key>` (text).",
    )
    required_fields: ClassVar[tuple[TestCaseField, ...]] = ()

    @field_validator("second_output")
    @classmethod
    def _second_output(cls, value: str) -> str:
        if value != "expected_output" and not _METADATA_KEY.match(value):
            raise ValueError("must be `expected_output` or `metadata.<key>`")
        return value

    @field_validator("evaluation_params")
    @classmethod
    def _distinct(cls, params: list[str]) -> list[str]:
        if len(set(params)) != len(params):
            raise ValueError("evaluation_params lists a field twice")
        return params

    def required_test_case_fields(self) -> tuple[TestCaseField, ...]:
        fields: list[TestCaseField] = [ACTUAL, *self.evaluation_params]
        if self.second_output == "expected_output":
            fields.append("expected_output")
        return tuple(fields)

    def test_case_problems(self, case: Any) -> list[tuple[str, str]]:
        if self.second_output == "expected_output":
            return []
        key = self.second_output.split(".", 1)[1]
        value = (case.metadata or {}).get(key)
        if not isinstance(value, str) or not value.strip():
            return [("metadata", f"needs the second answer as text at metadata.{key}")]
        return []

    def second_answer(self, case: MetricTestCase) -> Any:
        if self.second_output == "expected_output":
            return case.expected_output
        return (case.metadata or {}).get(self.second_output.split(".", 1)[1])


class Preference(BaseModel):
    model_config = ConfigDict(title="pairwise_preference")
    # Reason first, so the verdict is the last thing the judge writes.
    reason: _verdicts.Reason
    winner: _verdicts.AOrBOrTie

    @field_validator("winner")
    @classmethod
    def _a_b_or_tie(cls, said: str) -> str:
        """The winner as a, b or tie; anything else does not answer the question."""
        word = _winner(said)
        if word is None:
            raise MismatchedAnswer(f"the winner {said!r} is not A, B or tie")
        return word


def _prompt(criteria: str, shows_images: bool) -> str:
    rules = f"{render.IMAGE_RULES}\n" if shows_images else ""
    return (
        "Loupe task: pairwise_preference\n"
        "Two AI answers, Answer A and Answer B, respond to the same test case. Decide which "
        "one better meets the criteria below. Their order is arbitrary and says nothing about "
        "quality; length is not quality either. Say `tie` only when neither is better.\n"
        f"Criteria: {criteria}\n{rules}"
        'Answer with JSON only, reason first: {"reason": "...", "winner": "A" or "B" or "tie"}'
    )


def _winner(said: str) -> str | None:
    """a, b or tie, read from what the judge said; None when it is none of them."""
    word = said.strip().lower().removeprefix("answer").strip(" .:*`'\"")
    return word if word in ("a", "b", "tie") else None


def _messages(spec: PairwiseSpec, case: MetricTestCase) -> list[list[dict]]:
    """The two calls' messages: actual_output as Answer A, then as Answer B."""
    second = spec.second_output
    answers = {
        ACTUAL: render.content_parts(case.actual_output),
        second: render.content_parts(spec.second_answer(case)),
    }
    context: list[dict] = []
    for field in spec.evaluation_params:
        context += render.field_parts(case, field)

    def order_parts(first: str, other: str) -> list[dict]:
        return [
            *context,
            render.text("Answer A:"),
            *answers[first],
            render.text("Answer B:"),
            *answers[other],
        ]

    orders = [order_parts(ACTUAL, second), order_parts(second, ACTUAL)]
    prompt = _prompt(spec.criteria, render.is_multimodal(orders[0]))
    return [render.messages(prompt, parts) for parts in orders]


def plan(spec: PairwiseSpec, case: MetricTestCase) -> list[PlannedCall]:
    """Two calls, one per order (none for a case submit refuses). Completion: a reason of a
    sentence or two and the winner (about 60 tokens)."""
    if spec.test_case_problems(case):
        return []
    return [
        PlannedCall("pairwise_preference", messages, Completion(fixed=60))
        for messages in _messages(spec, case)
    ]


async def measure(spec: PairwiseSpec, case: MetricTestCase, ctx: MetricContext) -> MetricResult:
    """Two judge calls at once, one per order of the answers."""
    problems = spec.test_case_problems(case)
    if problems:
        field, message = problems[0]
        return MetricResult.failure(
            spec.threshold, MetricError("invalid_test_case", f"{field} {message}")
        )
    second = spec.second_output

    async def body(judge: JudgeSession) -> MetricResult:
        orders = ((ACTUAL, second), (second, ACTUAL))
        replies = await asyncio.gather(
            *(
                judge.ask(f"order_{n}", messages, Preference)
                for n, messages in enumerate(_messages(spec, case), start=1)
            ),
            return_exceptions=True,
        )
        for reply in replies:
            if isinstance(reply, BaseException):
                raise reply
        verdicts = []
        for order, reply in zip(orders, replies, strict=True):
            said = reply.data["winner"]  # type: ignore[union-attr]
            preferred = {"a": order[0], "b": order[1], "tie": "tie"}[said]
            verdicts.append(
                {
                    "order": list(order),
                    "winner": said.upper() if said != "tie" else "tie",
                    "preferred": preferred,
                    "reason": reply.data["reason"],  # type: ignore[union-attr]
                }
            )
        first, then = (v["preferred"] for v in verdicts)
        outcome = first if first == then else "tie"
        score = {ACTUAL: 1.0, second: 0.0, "tie": 0.5}[outcome]
        logs: dict[str, Any] = {
            "preferred": outcome,
            "position_consistent": first == then,
            "verdicts": verdicts,
        }
        reason = None
        if spec.include_reason:
            agreement = (
                "both orders agree" if first == then else "the two orders disagree, so a tie"
            )
            reason = (
                f"Preferred: {outcome} ({agreement}). Asked with {ACTUAL} first: "
                f"{verdicts[0]['reason']} Asked with {second} first: {verdicts[1]['reason']}"
            )
        return strict_result(spec, score, reason, logs)

    return await run_judged(spec, ctx, body)
