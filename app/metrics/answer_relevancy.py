"""answer_relevancy: how much of actual_output addresses the input?

Score = (yes + idk) / verdicts; an output with no statements scores 1, as deepeval. Every
statement of the output is judged against the input, and so is every image of the output, as a
statement of its own (deepeval 4.3.1 means to, but adds none). Statements and verdicts come back
from one call with the reason (deepeval makes three: statements, verdicts, reason). A verdict
that is not yes, no or idk (borderline) makes the reply malformed: one repair request, then
`judge_malformed` (deepeval's schema refuses it too, and the metric raises); it is never
dropped, which would leave its statement out of the score. An answer that leaves an output
image unjudged, judges one twice or judges one that does not exist gets one repair request
saying so, then is `invalid_answer`.
"""

from functools import lru_cache
from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, field_validator, model_validator

from app.judges import MismatchedAnswer
from app.metrics import _render as render
from app.metrics import _verdicts
from app.metrics._judged import JudgedSpecBase, JudgeSession, run_judged, strict_result
from app.metrics._plan import Completion, PlannedCall, sentences, text_of_parts
from app.metrics._types import MetricContext, MetricResult, MetricTestCase, TestCaseField

VERDICTS = {"yes": "yes", "no": "no", "idk": "idk", "borderline": "idk"}


class AnswerRelevancySpec(JudgedSpecBase):
    required_fields: ClassVar[tuple[TestCaseField, ...]] = ("input", "actual_output")

    type: Literal["answer_relevancy"]


class StatementVerdict(BaseModel):
    statement: str
    verdict: _verdicts.YesNoIdk
    reason: str | None = None


class ImageVerdict(BaseModel):
    image: int
    verdict: _verdicts.YesNoIdk
    reason: str | None = None


class Verdicts(BaseModel):
    model_config = ConfigDict(title="answer_relevancy_verdicts")
    statements: list[StatementVerdict]
    images: list[ImageVerdict] = []
    # How many images the output shows (set per subclass).
    image_count: ClassVar[int] = 0

    @field_validator("statements")
    @classmethod
    def _statements_readable(cls, items: list[StatementVerdict]) -> list[StatementVerdict]:
        _verdicts.refuse_unreadable(
            [item.verdict for item in items if item.statement.strip()], VERDICTS
        )
        return items

    @field_validator("images")
    @classmethod
    def _images_readable(cls, items: list[ImageVerdict]) -> list[ImageVerdict]:
        _verdicts.refuse_unreadable([item.verdict for item in items], VERDICTS)
        return items

    @model_validator(mode="after")
    def _every_image_once(self) -> "Verdicts":
        numbers = [item.image for item in self.images]
        if sorted(numbers) != list(range(1, self.image_count + 1)):
            # An image left unjudged would silently drop out of the score (as in deepeval);
            # one judged twice, or one that does not exist, would weigh in as a statement.
            raise MismatchedAnswer(
                f"image verdicts for {sorted(numbers)} but the output shows "
                f"{self.image_count} image(s); give exactly one verdict per image, by its number"
            )
        return self


@lru_cache(maxsize=256)
def _schema(with_reason: bool, image_count: int) -> type[BaseModel]:
    namespace: dict = {
        "model_config": ConfigDict(title="answer_relevancy_verdicts"),
        "image_count": image_count,
    }
    if with_reason:
        namespace["__annotations__"] = {"reason": str}
    return type("answer_relevancy_verdicts", (Verdicts,), namespace)


def _prompt(with_reason: bool, image_count: int, shows_images: bool) -> str:
    rules = f" {render.IMAGE_RULES}" if shows_images else ""
    images = (
        f" The output also shows {image_count} image(s), labelled Image 1 to Image "
        f"{image_count}: judge each image as one statement of its own against the input, in "
        '"images", one entry per image with its number.'
        if image_count
        else ' Leave "images" empty: the output shows no image.'
    )
    reason = (
        ' Finally give "reason": one or two sentences on how relevant the output is overall, '
        "naming what is off topic."
        if with_reason
        else ""
    )
    shape = (
        '{"statements": [{"statement": "...", "verdict": "yes|no|idk", "reason": "..."}], '
        '"images": [{"image": 1, "verdict": "yes|no|idk", "reason": "..."}]'
        + (', "reason": "..."}' if with_reason else "}")
    )
    return (
        "Loupe task: answer_relevancy_verdicts\n"
        "Break the AI output below into its statements: short, self-contained sentences, "
        "taken at face value. For each, decide whether it helps address the input: `yes` if it "
        "does, `no` if it is beside the point, `idk` if it is supporting detail that neither "
        "answers nor strays (a borderline case). A `no` or `idk` needs a short reason."
        f"{images}{rules}{reason}\nAnswer with JSON only: {shape}"
    )


def _output_parts(case: MetricTestCase) -> tuple[list[dict], int]:
    """actual_output with each image labelled by its number, and the image count."""
    parts: list[dict] = [render.text("Actual Output:")]
    count = 0
    for part in render.content_parts(case.actual_output):
        if part.get("type") == "image_url":
            count += 1
            parts.append(render.text(f"[Image {count}]"))
        parts.append(part)
    return parts, count


def _messages(spec: AnswerRelevancySpec, case: MetricTestCase) -> tuple[list[dict], int]:
    output, image_count = _output_parts(case)
    parts = [*render.field_parts(case, "input"), *output]
    prompt = _prompt(spec.include_reason, image_count, render.is_multimodal(parts))
    return render.messages(prompt, parts), image_count


def plan(spec: AnswerRelevancySpec, case: MetricTestCase) -> list[PlannedCall]:
    """One call. Completion: the output's statements restated, about 12 tokens of verdict and
    reason each (images too), and the overall reason (about 50 tokens)."""
    messages, image_count = _messages(spec, case)
    statements = sentences(text_of_parts(render.content_parts(case.actual_output)))
    completion = Completion(
        fixed=12 + (50 if spec.include_reason else 0),
        per_item=12,
        items=len(statements) + image_count,
        echoed=tuple(statements),
    )
    return [PlannedCall("answer_relevancy_verdicts", messages, completion)]


async def measure(
    spec: AnswerRelevancySpec, case: MetricTestCase, ctx: MetricContext
) -> MetricResult:
    """One judge call: the output's statements and images, each with a verdict."""

    async def body(judge: JudgeSession) -> MetricResult:
        messages, image_count = _messages(spec, case)
        reply = await judge.ask("verdicts", messages, _schema(spec.include_reason, image_count))
        items = [item for item in reply.data["statements"] if item["statement"].strip()]
        by_image = {item["image"]: item for item in reply.data["images"]}
        image_items = [by_image[n] for n in range(1, image_count + 1)]
        verdicts, _ = _verdicts.normalise_verdicts(items + image_items, VERDICTS)
        logs: dict = {
            "statements": [item["statement"] for item in items],
            "images": image_count,
            "verdicts": verdicts,
        }
        if not verdicts:
            score = 1.0  # no statements: the schema refuses unreadable verdicts
        else:
            score = sum(v["verdict"] in ("yes", "idk") for v in verdicts) / len(verdicts)
        reason = None
        if spec.include_reason:
            reason = reply.data.get("reason") or "actual_output makes no statements to judge."
        return strict_result(spec, score, reason, logs)

    return await run_judged(spec, ctx, body)
