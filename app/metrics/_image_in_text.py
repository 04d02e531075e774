"""One engine for image_coherence, image_helpfulness and image_reference: images in a document.

Each image of actual_output is judged on its own, with the nearest text before it (its last
`max_context_size` characters) and the nearest text after it (its first ones), skipping other
images and blank text. Score = mean over images of judge score / 10; a score outside 0..10 gets
one repair request, then is `invalid_answer` (never clamped). One call per image, all at once.
The metric's own rubric is all that differs.
"""

import asyncio
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

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

NO_TEXT_BEFORE = "(Nothing: the image comes first, with no text before it.)"
NO_TEXT_AFTER = "(Nothing: the image comes last, with no text after it.)"


class ImageInTextSpecBase(JudgedSpecBase):
    # deepeval also requires input, then never reads it.
    required_fields: ClassVar[tuple[TestCaseField, ...]] = ("actual_output",)

    max_context_size: int | None = Field(
        default=None,
        ge=1,
        description="Characters of text taken on each side of an image; the whole text if unset.",
    )

    def test_case_problems(self, case: Any) -> list[tuple[str, str]]:
        if render.count_images(case.actual_output) == 0:
            return [("actual_output", "needs at least one image")]
        return []


class ImageScore(BaseModel):
    reasoning: str
    score: _verdicts.JudgeNumber

    @model_validator(mode="after")
    def _on_the_scale(self) -> "ImageScore":
        # Clamped, a judge's 12 counted as 10.
        _verdicts.refuse_out_of_range(self.score, 0, 10)
        return self


def image_contexts(
    content: Any, max_context_size: int | None
) -> list[tuple[dict[str, Any], str | None, str | None]]:
    """(image, text before, text after) for each image of a content value, in order."""
    parts = render.segments(content)
    # deepeval takes a blank segment between two images as their context; a blank is skipped.
    texts = [p["text"] if p["type"] == "text" and p["text"].strip() else None for p in parts]
    found = []
    for index, part in enumerate(parts):
        if part.get("type") != "image_url":
            continue
        before = next((t for t in reversed(texts[:index]) if t is not None), None)
        after = next((t for t in texts[index + 1 :] if t is not None), None)
        if max_context_size is not None:
            before = before[-max_context_size:] if before is not None else None
            after = after[:max_context_size] if after is not None else None
        found.append((part, before, after))
    return found


def _parts(image: dict[str, Any], before: str | None, after: str | None) -> list[dict[str, Any]]:
    before = before if before is not None else NO_TEXT_BEFORE
    after = after if after is not None else NO_TEXT_AFTER
    return [
        render.text(f"Text before the image:\n{before}"),
        render.text("The image:"),
        image,
        render.text(f"Text after the image:\n{after}"),
    ]


def _prompt(task: str, rubric: str) -> str:
    return (
        f"Loupe task: {task}\n{rubric} {render.IMAGE_RULES}\n"
        'Answer with JSON only: {"reasoning": "...", "score": <0 to 10>}'
    )


def plan_images(
    spec: ImageInTextSpecBase, case: MetricTestCase, task: str, rubric: str
) -> list[PlannedCall]:
    """One call per image of actual_output. Completion: a few sentences of reasoning and the
    score (about 70 tokens)."""
    prompt = _prompt(task, rubric)
    return [
        PlannedCall(task, render.messages(prompt, _parts(*context)), Completion(fixed=70))
        for context in image_contexts(case.actual_output, spec.max_context_size)
    ]


async def measure_images(
    spec: ImageInTextSpecBase,
    case: MetricTestCase,
    ctx: MetricContext,
    task: str,
    rubric: str,
) -> MetricResult:
    """Score every image of actual_output against its surrounding text with `rubric`."""
    contexts = image_contexts(case.actual_output, spec.max_context_size)
    if not contexts:
        # Submit refuses such cases; this guards cases that reach the metric another way.
        return MetricResult.failure(
            spec.threshold,
            MetricError("invalid_test_case", "actual_output needs at least one image"),
        )
    prompt = _prompt(task, rubric)
    schema = type(task, (ImageScore,), {"model_config": ConfigDict(title=task)})

    async def body(judge: JudgeSession) -> MetricResult:
        replies = await asyncio.gather(
            *(
                judge.ask(f"image_{i}", render.messages(prompt, _parts(*context)), schema)
                for i, context in enumerate(contexts)
            ),
            return_exceptions=True,
        )
        for reply in replies:
            if isinstance(reply, BaseException):
                raise reply
        scores = [r.data["score"] / 10 for r in replies]  # type: ignore[union-attr]
        # One division of the judge's own numbers: the mean of 0.7 and 0.1 in floats is
        # 0.39999999999999997, which failed a threshold of 0.4.
        score = sum(r.data["score"] for r in replies) / (10 * len(replies))  # type: ignore[union-attr]
        logs = {
            "images": [
                {
                    "score": image_score,
                    "reasoning": reply.data["reasoning"],  # type: ignore[union-attr]
                    "text_before": before,
                    "text_after": after,
                }
                for image_score, reply, (_, before, after) in zip(
                    scores, replies, contexts, strict=True
                )
            ]
        }
        reason = None
        if spec.include_reason:
            reason = "\n".join(
                f"Image {i}: {item['reasoning']}" for i, item in enumerate(logs["images"], 1)
            )
        return strict_result(spec, score, reason, logs)

    return await run_judged(spec, ctx, body)
