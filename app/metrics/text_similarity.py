"""text_similarity (OpenAI Evals): a similarity score of two templated strings, in [0, 1].

`passed = score >= pass_threshold`. `_similarity.py` says which definition each reference
metric follows; `cosine` is the cosine of the two texts' embeddings from the judge endpoint
(`MetricContext.embedding_model`, else OpenAI's `text-embedding-3-large`), negative values
counted as 0 so the score stays in [0, 1].
"""

import asyncio
import math
from typing import Any, Literal

from pydantic import Field, model_validator

from app.judges import JudgeError
from app.metrics._graders import GraderSpecBase, Template, render_failure, rendered_pair
from app.metrics._lcs import scored
from app.metrics._plan import Completion, PlannedCall
from app.metrics._similarity import length_error, reference_score, wordnet
from app.metrics._templates import RenderError
from app.metrics._types import MetricContext, MetricError, MetricResult, MetricTestCase

EvaluationMetric = Literal[
    "cosine",
    "fuzzy_match",
    "bleu",
    "gleu",
    "meteor",
    "rouge_1",
    "rouge_2",
    "rouge_3",
    "rouge_4",
    "rouge_5",
    "rouge_l",
]
DEFAULT_EMBEDDING_MODEL = "text-embedding-3-large"


class TextSimilaritySpec(GraderSpecBase):
    type: Literal["text_similarity"]
    input: Template
    reference: Template
    evaluation_metric: EvaluationMetric
    pass_threshold: float = Field(allow_inf_nan=False)

    @model_validator(mode="after")
    def _threshold(self) -> "TextSimilaritySpec":
        self.threshold = self.pass_threshold
        return self


def cosine(a: list[float], b: list[float]) -> float:
    """The cosine of two vectors; raises ValueError for a zero vector or mismatched sizes."""
    if len(a) != len(b):
        raise ValueError(f"embeddings of different sizes ({len(a)} and {len(b)})")
    norms = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    if norms == 0:
        raise ValueError("an embedding is the zero vector")
    return sum(x * y for x, y in zip(a, b, strict=True)) / norms


async def _cosine(
    spec: TextSimilaritySpec, ctx: MetricContext, text: str, reference: str, logs: dict[str, Any]
) -> MetricResult:
    model = ctx.embedding_model or DEFAULT_EMBEDDING_MODEL
    logs["embedding_model"] = model
    if not text or not reference:
        # Embedding endpoints refuse empty input; an empty side has no meaning to compare.
        error = MetricError("empty_text", "cosine needs a non-empty input and reference")
        return MetricResult.failure(spec.threshold, error, **logs)
    try:
        embeddings = await ctx.embed([text, reference], model=model)
    except JudgeError as error:
        result = MetricResult.failure(
            spec.threshold, MetricError(error.type, error.message), **logs
        )
        return _charged(result, model, error.usage)
    try:
        similarity = cosine(*embeddings.vectors)
    except ValueError as error:
        result = MetricResult.failure(spec.threshold, MetricError("invalid_embedding", str(error)))
        return _charged(result, model, embeddings.usage)
    score = min(1.0, max(0.0, similarity))
    logs["cosine"] = similarity
    result = MetricResult.scored(score, spec.threshold, _reason(spec, score), logs)
    return _charged(result, model, embeddings.usage)


def _charged(result: MetricResult, model: str, usage: Any) -> MetricResult:
    """The result with its embeddings calls, named and priced as the embedding model's (not
    the judge's chat model, which made none of them)."""
    result.usage = usage
    result.usage_by_model = [(model, usage)]
    return result


def _reason(spec: TextSimilaritySpec, score: float) -> str:
    relation = ">=" if score >= spec.pass_threshold else "<"
    return (
        f"{spec.evaluation_metric} is {score:.4f} {relation} pass_threshold {spec.pass_threshold}"
    )


def plan(spec: TextSimilaritySpec, case: MetricTestCase) -> list[PlannedCall]:
    """`cosine`: one /embeddings call of the two texts (they are its prompt tokens); the other
    similarities call no one."""
    if spec.evaluation_metric != "cosine":
        return []
    try:
        texts = rendered_pair(spec.input, spec.reference, case)
    except RenderError:
        return []
    if not all(texts):
        return []
    return [PlannedCall("embeddings", [], Completion(fixed=0), embedding=True, texts=texts)]


async def measure(
    spec: TextSimilaritySpec, case: MetricTestCase, ctx: MetricContext
) -> MetricResult:
    """The chosen similarity of the rendered input to the rendered reference."""
    try:
        text, reference = rendered_pair(spec.input, spec.reference, case)
    except RenderError as error:
        return render_failure(spec.threshold, error)
    logs: dict[str, Any] = {
        "input": text,
        "reference": reference,
        "evaluation_metric": spec.evaluation_metric,
    }
    if spec.evaluation_metric == "cosine":
        return await _cosine(spec, ctx, text, reference, logs)
    metric = spec.evaluation_metric
    too_long = await scored(lambda: length_error(metric, text, reference), text, reference)
    if too_long is not None:
        return MetricResult.failure(spec.threshold, too_long, **logs)
    if metric == "meteor":
        # Loading WordNet takes about a second: not on the judge loop every job shares.
        await asyncio.to_thread(wordnet)
    score = await scored(lambda: reference_score(metric, text, reference), text, reference)
    return MetricResult.scored(score, spec.threshold, _reason(spec, score), logs)
