"""Metrics: pure functions of (spec, test case, context) returning a MetricResult.

To add a metric: write a module with a `XSpec(MetricSpecBase)` carrying a `type` literal and an
`async def measure(spec, case, ctx)`, then register both below.

OpenAI Evals graders (`string_check`, `text_similarity`, `label_model`, `score_model`) are
registered as internal: `parse_spec` and `measure` take them, but the public `MetricSpec` union
(the /v1/evaluations contract) does not list them; the /v1/evals API builds them from its
`testing_criteria`.
"""

import math
from collections.abc import Awaitable, Callable, Mapping
from typing import Annotated, Any, Union

from pydantic import Field, TypeAdapter

from app.metrics import (
    _media_seen,
    answer_relevancy,
    argument_correctness,
    bleu,
    choice_accuracy,
    contextual_precision,
    contextual_recall,
    contextual_relevancy,
    conversation_completeness,
    conversational_g_eval,
    exact_match,
    faithfulness,
    g_eval,
    image_coherence,
    image_editing,
    image_helpfulness,
    image_reference,
    knowledge_retention,
    label_model,
    llm_accuracy,
    pairwise,
    psnr,
    role_adherence,
    rouge,
    score_model,
    ssim,
    string_check,
    task_completion,
    text_similarity,
    text_to_image,
    tool_correctness,
    turn_contextual_relevancy,
    turn_faithfulness,
    turn_relevancy,
)
from app.metrics._abandoned import collecting as canceled_calls
from app.metrics._media_seen import watching
from app.metrics._plan import Completion, PlannedCall

# The `{{ item.x }}` / `{{ sample.x }}` templates of OpenAI Evals graders, which the /v1/evals
# API also checks and renders, and the keys of the text scores runs report.
from app.metrics._templates import (
    RenderError,
    TemplateError,
    UnsupportedContent,
    audio_clip,
    build_sample,
    check_template,
    check_templates,
    flatten,
    image_url_templates,
    path_steps,
    render_messages,
    render_template,
    resolve,
    template_paths,
)
from app.metrics._text_scores import BLEU_KEYS, ROUGE_KEYS
from app.metrics._turn_rag import Outline, TurnRagSpecBase
from app.metrics._turn_rag import outline as conversation_outline
from app.metrics._turn_rag import window_text as turn_rag_windows
from app.metrics._types import (
    WINDOW_CHARS,
    MetricContext,
    MetricError,
    MetricResult,
    MetricSpecBase,
    MetricTestCase,
    Usage,
    cancel_running,
)
from app.metrics._verdicts import strict_scored

Measure = Callable[[Any, MetricTestCase, MetricContext], Awaitable[MetricResult]]

# type -> (spec class, measure function)
_REGISTRY: dict[str, tuple[type[MetricSpecBase], Measure]] = {
    "exact_match": (exact_match.ExactMatchSpec, exact_match.measure),
    "choice_accuracy": (choice_accuracy.ChoiceAccuracySpec, choice_accuracy.measure),
    "bleu": (bleu.BleuSpec, bleu.measure),
    "rouge": (rouge.RougeSpec, rouge.measure),
    "g_eval": (g_eval.GEvalSpec, g_eval.measure),
    "faithfulness": (faithfulness.FaithfulnessSpec, faithfulness.measure),
    "contextual_precision": (
        contextual_precision.ContextualPrecisionSpec,
        contextual_precision.measure,
    ),
    "contextual_recall": (contextual_recall.ContextualRecallSpec, contextual_recall.measure),
    "llm_accuracy": (llm_accuracy.LlmAccuracySpec, llm_accuracy.measure),
    # deepeval's remaining multimodal family (issue 16).
    "answer_relevancy": (answer_relevancy.AnswerRelevancySpec, answer_relevancy.measure),
    "contextual_relevancy": (
        contextual_relevancy.ContextualRelevancySpec,
        contextual_relevancy.measure,
    ),
    "text_to_image": (text_to_image.TextToImageSpec, text_to_image.measure),
    "image_editing": (image_editing.ImageEditingSpec, image_editing.measure),
    "image_coherence": (image_coherence.ImageCoherenceSpec, image_coherence.measure),
    "image_helpfulness": (image_helpfulness.ImageHelpfulnessSpec, image_helpfulness.measure),
    "image_reference": (image_reference.ImageReferenceSpec, image_reference.measure),
    "psnr": (psnr.PsnrSpec, psnr.measure),
    "ssim": (ssim.SsimSpec, ssim.measure),
    "pairwise": (pairwise.PairwiseSpec, pairwise.measure),
    "knowledge_retention": (
        knowledge_retention.KnowledgeRetentionSpec,
        knowledge_retention.measure,
    ),
    "role_adherence": (role_adherence.RoleAdherenceSpec, role_adherence.measure),
    "conversational_g_eval": (
        conversational_g_eval.ConversationalGEvalSpec,
        conversational_g_eval.measure,
    ),
    "task_completion": (task_completion.TaskCompletionSpec, task_completion.measure),
    "turn_relevancy": (turn_relevancy.TurnRelevancySpec, turn_relevancy.measure),
    "conversation_completeness": (
        conversation_completeness.ConversationCompletenessSpec,
        conversation_completeness.measure,
    ),
    "tool_correctness": (tool_correctness.ToolCorrectnessSpec, tool_correctness.measure),
    "argument_correctness": (
        argument_correctness.ArgumentCorrectnessSpec,
        argument_correctness.measure,
    ),
    "turn_faithfulness": (turn_faithfulness.TurnFaithfulnessSpec, turn_faithfulness.measure),
    "turn_contextual_relevancy": (
        turn_contextual_relevancy.TurnContextualRelevancySpec,
        turn_contextual_relevancy.measure,
    ),
}

# Metrics only the /v1/evals API builds: parsed and measured, but not part of the public union.
_INTERNAL: dict[str, tuple[type[MetricSpecBase], Measure]] = {
    "string_check": (string_check.StringCheckSpec, string_check.measure),
    "text_similarity": (text_similarity.TextSimilaritySpec, text_similarity.measure),
    "label_model": (label_model.LabelModelSpec, label_model.measure),
    "score_model": (score_model.ScoreModelSpec, score_model.measure),
}
_MEASURES = {kind: entry[1] for kind, entry in (_REGISTRY | _INTERNAL).items()}

Plan = Callable[..., list[PlannedCall]]
# type -> the judge calls its `measure` makes for one case (app/metrics/_plan.py); a metric
# not listed calls no one.
_PLANS: dict[str, Plan] = {
    "g_eval": g_eval.plan,
    "faithfulness": faithfulness.plan,
    "contextual_precision": contextual_precision.plan,
    "contextual_recall": contextual_recall.plan,
    "contextual_relevancy": contextual_relevancy.plan,
    "answer_relevancy": answer_relevancy.plan,
    "llm_accuracy": llm_accuracy.plan,
    "text_to_image": text_to_image.plan,
    "image_editing": image_editing.plan,
    "image_coherence": image_coherence.plan,
    "image_helpfulness": image_helpfulness.plan,
    "image_reference": image_reference.plan,
    "pairwise": pairwise.plan,
    "knowledge_retention": knowledge_retention.plan,
    "role_adherence": role_adherence.plan,
    "conversational_g_eval": conversational_g_eval.plan,
    "task_completion": task_completion.plan,
    "turn_relevancy": turn_relevancy.plan,
    "conversation_completeness": conversation_completeness.plan,
    "argument_correctness": argument_correctness.plan,
    "label_model": label_model.plan,
    "score_model": score_model.plan,
    "text_similarity": text_similarity.plan,
    "turn_faithfulness": turn_faithfulness.plan,
    "turn_contextual_relevancy": turn_contextual_relevancy.plan,
}


# Metrics whose prompts show a window of earlier turns bounded by characters: their plan takes
# the bound the service measures with (MetricContext.window_chars).
_WINDOWED = frozenset({"turn_faithfulness", "turn_contextual_relevancy"})


def shows_windows(spec: MetricSpecBase) -> bool:
    """Whether the metric shows each judged turn with a window of the turns before it."""
    return isinstance(spec, TurnRagSpecBase)


def window_text(spec: MetricSpecBase, shape: Outline, *, window_chars: int) -> int:
    """The characters of earlier turns the metric's prompts show for one conversation (its
    `conversation_outline`), every judged turn's window together, counted from turn sizes
    without building a prompt; 0 for a metric that shows no window.

    Args:
        window_chars: what `MetricContext.window_chars` is where the case is measured.
    """
    if not isinstance(spec, TurnRagSpecBase):
        return 0
    return turn_rag_windows(spec, shape, window_chars)


def plan(
    spec: MetricSpecBase, case: MetricTestCase, *, window_chars: int = WINDOW_CHARS
) -> list[PlannedCall]:
    """The judge calls `measure` makes for one case when every answer is full (one sample,
    one judge); [] for a metric that calls no one.

    Args:
        window_chars: what `MetricContext.window_chars` is where the case is measured.
    """
    kind = spec.type  # type: ignore[attr-defined]
    planner = _PLANS.get(kind)
    if planner is None:
        return []
    if kind in _WINDOWED:
        return planner(spec, case, window_chars=window_chars)
    return planner(spec, case)


_SPEC_CLASSES = tuple(spec for spec, _ in _REGISTRY.values())
# A discriminated union on `type` (one class per metric in generated SDKs); pydantic needs two
# members for a union, so a lone metric stands for itself.
MetricSpec: Any = (
    Annotated[Union[_SPEC_CLASSES], Field(discriminator="type")]  # noqa: UP007
    if len(_SPEC_CLASSES) > 1
    else _SPEC_CLASSES[0]
)

_ALL_SPEC_CLASSES = _SPEC_CLASSES + tuple(spec for spec, _ in _INTERNAL.values())
_spec_adapter: TypeAdapter[MetricSpecBase] = TypeAdapter(
    Annotated[Union[_ALL_SPEC_CLASSES], Field(discriminator="type")]  # noqa: UP007
)


def parse_spec(raw: dict[str, Any]) -> MetricSpecBase:
    """A metric spec (JSON, public or internal) as its typed spec; raises ValidationError."""
    return _spec_adapter.validate_python(raw)


# OpenAI Evals `testing_criteria` types Loupe grades.
GRADER_TYPES = frozenset(_INTERNAL)


def grader_spec(criterion: Mapping[str, Any], criterion_id: str) -> MetricSpecBase:
    """An OpenAI testing criterion as its grader spec, its results reported under its id.

    Raises ValueError for a type that is not a grader (a Loupe metric type included) and
    pydantic's ValidationError for a criterion its grader refuses.
    """
    kind = criterion.get("type")
    if kind not in GRADER_TYPES:
        raise ValueError(f"unsupported grader type {kind!r}")
    fields = {name: value for name, value in criterion.items() if name != "id"}
    return parse_spec({**fields, "name": criterion_id})


async def measure(spec: MetricSpecBase, case: MetricTestCase, ctx: MetricContext) -> MetricResult:
    """Run the spec's metric on one case; an unexpected exception or a score that is not a
    finite number becomes the result's error."""
    if not spec.uses_judge:
        # A reference metric reads the fields it needs itself: their images are what it saw.
        _media_seen.record([getattr(case, name) for name in spec.required_test_case_fields()])
    try:
        result = await _MEASURES[spec.type](spec, case, ctx)  # type: ignore[attr-defined]
    except Exception as exc:  # noqa: BLE001 - one case's failure must not end the evaluation
        return MetricResult.failure(
            spec.threshold, MetricError(type="metric_error", message=f"{type(exc).__name__}: {exc}")
        )
    return storable(result)


def storable(result: MetricResult) -> MetricResult:
    """`result` with nothing JSON or the summaries cannot hold: a NaN or infinite score becomes
    the result's error (its usage and logs kept), and non-finite numbers in its logs become
    strings ("nan", "inf"). A NaN summed into the evaluation's totals would fail every write of
    the batch it is in, and the job with it."""
    result.logs = _finite_logs(result.logs)
    score = result.score
    if score is None or math.isfinite(score):
        return result
    error = MetricError(
        "non_finite_score",
        f"the metric computed a score of {score!r}, which is not a finite number; "
        "no score is stored",
    )
    return MetricResult(
        score=None,
        passed=None,
        threshold=result.threshold,
        error=error,
        usage=result.usage,
        logs=result.logs,
    )


def _finite_logs(value: Any) -> Any:
    # Looked through first: nearly every result's logs are kept as they are, not rebuilt.
    return _finite_copy(value) if _holds_non_finite(value) else value


def _holds_non_finite(value: Any) -> bool:
    kind = type(value)
    if kind is float:
        return not math.isfinite(value)
    if kind is str or kind is int or value is None:
        return False
    if isinstance(value, dict):
        value = value.values()
    elif not isinstance(value, list | tuple):
        return isinstance(value, float) and not math.isfinite(value)
    for item in value:  # noqa: SIM110 - a loop: any() over a generator costs twice the walk
        if _holds_non_finite(item):
            return True
    return False


def _finite_copy(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if isinstance(value, dict):
        return {key: _finite_copy(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_finite_copy(item) for item in value]
    return value


__all__ = [
    "cancel_running",
    "audio_clip",
    "BLEU_KEYS",
    "Completion",
    "PlannedCall",
    "plan",
    "Outline",
    "conversation_outline",
    "shows_windows",
    "window_text",
    "GRADER_TYPES",
    "ROUGE_KEYS",
    "RenderError",
    "TemplateError",
    "UnsupportedContent",
    "build_sample",
    "check_template",
    "check_templates",
    "flatten",
    "image_url_templates",
    "path_steps",
    "render_messages",
    "render_template",
    "resolve",
    "template_paths",
    "MetricContext",
    "MetricError",
    "MetricResult",
    "MetricSpec",
    "MetricSpecBase",
    "MetricTestCase",
    "Usage",
    "grader_spec",
    "measure",
    "parse_spec",
    "storable",
    "strict_scored",
    "watching",
    "canceled_calls",
]
