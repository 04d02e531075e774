"""VIEScore, shared by text_to_image and image_editing: two judge calls, one formula.

score = sqrt(min(semantic scores) × min(perceptual scores)) / 10 (deepeval uses the scores as
returned, so a judge's 12 can push a score past 1). A reply with another number of sub-scores
than asked for (1 semantic for text_to_image, 2 for image_editing, 2 perceptual) or a sub-score
outside 0..10 gets one repair request saying so, then is `invalid_answer`, never clamped. A NaN
or an infinity is not a number at all: the reply is malformed (one repair request, then
`judge_malformed`).
"""

import asyncio
import math
from collections.abc import Callable
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

from app.judges import MismatchedAnswer
from app.metrics import _render as render
from app.metrics import _verdicts
from app.metrics._judged import JudgedSpecBase, JudgeSession, run_judged, strict_result
from app.metrics._plan import Completion, PlannedCall
from app.metrics._types import MetricContext, MetricError, MetricResult, MetricTestCase

# A case's semantic question (its parts) and the image whose perceptual quality is judged.
Parts = Callable[[MetricTestCase], tuple[list[dict[str, Any]], dict[str, Any]]]

PREAMBLE = (
    "You are an experienced digital artist reviewing images. Every image you are shown was "
    "made by an AI model. Score on a 0 to 10 scale, whole numbers, and be strict. "
)


class SubScores(BaseModel):
    # An empty list cannot be scored, and NaN or Infinity (which Python's JSON reader accepts)
    # is no number on a 0..10 scale: the schema turns both into a judge error, not a crash.
    reasoning: str
    score: list[_verdicts.JudgeNumber] = Field(min_length=1)
    # How many sub-scores the prompt asks for (set per task).
    count: ClassVar[int] = 1

    @model_validator(mode="after")
    def _fits(self) -> "SubScores":
        if len(self.score) != self.count:
            raise MismatchedAnswer(
                f"{len(self.score)} score(s) where {self.count} were asked for, in the order given"
            )
        for value in self.score:
            # Clamped, a judge's 12 counted as 10.
            _verdicts.refuse_out_of_range(value, 0, 10)
        return self


def schema(title: str, count: int) -> type[BaseModel]:
    namespace = {"model_config": ConfigDict(title=title), "count": count}
    return type(title, (SubScores,), namespace)


SEMANTIC_T2I = schema("text_to_image_semantic", 1)
SEMANTIC_EDIT = schema("image_editing_semantic", 2)
PERCEPTUAL = schema("image_perceptual", 2)

PERCEPTUAL_PROMPT = (
    "Loupe task: image_perceptual\n" + PREAMBLE + "Judge only how the image looks, not what it "
    "was meant to show. Give two scores: first naturalness (is the lighting plausible, do the "
    "shadows fall right, does depth read correctly; 0 = clearly unnatural, 10 = entirely "
    "natural), then artifacts (distortion, blur, watermarks, garbled text, malformed hands, "
    "faces or bodies; 0 = full of artifacts, 10 = none at all).\n"
    'Answer with JSON only: {"reasoning": "...", "score": [naturalness, artifacts]}'
)


def formula(semantic: list[float], perceptual: list[float]) -> float:
    """VIEScore from sub-scores on 0..10."""
    return math.sqrt(min(semantic) * min(perceptual)) / 10


def _messages(
    semantic_prompt: str, semantic_parts: list[dict[str, Any]], output_image: dict[str, Any]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The semantic and the perceptual calls' messages."""
    return (
        render.messages(semantic_prompt, semantic_parts),
        render.messages(PERCEPTUAL_PROMPT, [render.text("The image:"), output_image]),
    )


def plan(
    spec: JudgedSpecBase, case: MetricTestCase, semantic: tuple[str, str], parts: Parts
) -> list[PlannedCall]:
    """The two calls (none for a case submit refuses). Completion: a few sentences of
    reasoning and the scores (about 90 tokens each)."""
    if spec.test_case_problems(case):
        return []
    semantic_prompt, task = semantic
    semantic_parts, output = parts(case)
    semantic_messages, perceptual_messages = _messages(semantic_prompt, semantic_parts, output)
    return [
        PlannedCall(task, semantic_messages, Completion(fixed=90)),
        PlannedCall("image_perceptual", perceptual_messages, Completion(fixed=90)),
    ]


async def judge_both(
    judge: JudgeSession,
    semantic: tuple[str, list[dict[str, Any]], type[BaseModel]],
    output_image: dict[str, Any],
) -> tuple[float, dict[str, Any]]:
    """Ask the semantic and perceptual questions at once; the score and its logs."""
    semantic_prompt, semantic_parts, semantic_schema = semantic
    semantic_messages, perceptual_messages = _messages(
        semantic_prompt, semantic_parts, output_image
    )
    # Both calls finish (and count their usage) even when one fails; the first failure wins.
    replies = await asyncio.gather(
        judge.ask("semantic", semantic_messages, semantic_schema),
        judge.ask("perceptual", perceptual_messages, PERCEPTUAL),
        return_exceptions=True,
    )
    for reply in replies:
        if isinstance(reply, BaseException):
            raise reply
    semantic_reply, perceptual_reply = replies
    sc = [float(value) for value in semantic_reply.data["score"]]
    pq = [float(value) for value in perceptual_reply.data["score"]]
    score = formula(sc, pq)
    logs = {
        "semantic_scores": sc,
        "perceptual_scores": pq,
        "semantic_reasoning": semantic_reply.data["reasoning"],
        "perceptual_reasoning": perceptual_reply.data["reasoning"],
    }
    return score, logs


def reason(score: float, logs: dict[str, Any]) -> str:
    """The result's reason, written from the two answers (no judge call)."""
    return (
        f"Score {score:.2f}: semantic consistency {min(logs['semantic_scores']):g}/10, "
        f"perceptual quality {min(logs['perceptual_scores']):g}/10 (lowest sub-scores). "
        f"Semantic: {logs['semantic_reasoning']} Perceptual: {logs['perceptual_reasoning']}"
    )


async def measure(
    spec: JudgedSpecBase,
    case: MetricTestCase,
    ctx: MetricContext,
    semantic: tuple[str, type[BaseModel]],
    parts: Parts,
) -> MetricResult:
    """A VIEScore metric's result: both judge calls at once, the score, its reason."""
    problems = spec.test_case_problems(case)
    if problems:
        # Submit refuses such cases; this guards cases that reach the metric another way.
        field, message = problems[0]
        return MetricResult.failure(
            spec.threshold, MetricError("invalid_test_case", f"{field} {message}")
        )
    semantic_prompt, semantic_schema = semantic

    async def body(judge: JudgeSession) -> MetricResult:
        semantic_parts, output = parts(case)
        score, logs = await judge_both(
            judge, (semantic_prompt, semantic_parts, semantic_schema), output
        )
        return strict_result(
            spec, score, reason(score, logs) if spec.include_reason else None, logs
        )

    return await run_judged(spec, ctx, body)
