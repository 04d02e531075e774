"""contextual_recall: how much of expected_output the retrieval context can account for.

Score = attributable statements / statements judged; no verdicts scores 0, and an empty
retrieval context 0 without a judge call. The judge splits
expected_output itself, so no count is asked for; a verdict other than yes or no gets one repair
request, then `judge_malformed` (it was dropped, leaving its sentence out of the score).
"""

from typing import ClassVar, Literal

from app.metrics import _render as render
from app.metrics import _verdicts
from app.metrics._judged import JudgedSpecBase, JudgeSession, run_judged, strict_result
from app.metrics._plan import Completion, PlannedCall, sentences, text_of_parts
from app.metrics._types import MetricContext, MetricResult, MetricTestCase, TestCaseField

VERDICTS = {"yes": "yes", "no": "no"}


class ContextualRecallSpec(JudgedSpecBase):
    required_fields: ClassVar[tuple[TestCaseField, ...]] = (
        "input",
        "expected_output",
        "retrieval_context",
    )

    type: Literal["contextual_recall"]


def _prompt(with_reason: bool, shows_images: bool) -> str:
    rules = render.IMAGE_RULES if shows_images else ""
    reason = (
        ' Then give "reason": two or three sentences on how well the retrieval context covers '
        "the expected output, citing node numbers."
        if with_reason
        else ""
    )
    shape = _verdicts.answer_shape(with_reason)
    return (
        "Loupe task: contextual_recall_verdicts\n"
        "Split the expected output into its sentences (an image in it counts as one unit). For "
        "each unit, in order, answer `yes` if it can be attributed to one or more nodes of the "
        "retrieval context, else `no`. Each verdict's reason names the supporting node numbers "
        "and quotes the relevant words briefly. A node is either text or an image, never both. "
        f"{rules}{reason}\nAnswer with JSON only: {shape}"
    )


def _messages(spec: ContextualRecallSpec, case: MetricTestCase) -> list[dict]:
    parts = [
        *render.field_parts(case, "expected_output"),
        *render.field_parts(case, "retrieval_context"),
    ]
    return render.messages(_prompt(spec.include_reason, render.is_multimodal(parts)), parts)


def plan(spec: ContextualRecallSpec, case: MetricTestCase) -> list[PlannedCall]:
    """One call. Completion: a verdict with a reason naming nodes and quoting briefly (about 30
    tokens) per sentence of expected_output, and the overall reason (about 50 tokens)."""
    # An image in expected_output is a unit of its own.
    units = len(sentences(text_of_parts(render.content_parts(case.expected_output))))
    units += render.count_images(case.expected_output)
    if not render.nodes(case.retrieval_context):
        return []
    completion = Completion(
        fixed=8 + (50 if spec.include_reason else 0), per_item=30, items=max(1, units)
    )
    return [PlannedCall("contextual_recall_verdicts", _messages(spec, case), completion)]


async def measure(
    spec: ContextualRecallSpec, case: MetricTestCase, ctx: MetricContext
) -> MetricResult:
    """One judge call: per-sentence attribution verdicts (and the reason, when asked)."""

    async def body(judge: JudgeSession) -> MetricResult:
        if not render.nodes(case.retrieval_context):
            # Nothing to attribute expected_output to: 0 without asking (a judge shown
            # "0 nodes" could still answer `yes`).
            reason = (
                "The retrieval context is empty: nothing in expected_output can be attributed "
                "to it, so the score is 0."
                if spec.include_reason
                else None
            )
            return strict_result(spec, 0.0, reason, {"verdicts": []})
        reply = await judge.ask(
            "verdicts",
            _messages(spec, case),
            _verdicts.schema("contextual_recall_verdicts", with_reason=spec.include_reason),
        )
        verdicts, _ = _verdicts.normalise_verdicts(reply.data["verdicts"], VERDICTS)
        score = sum(v["verdict"] == "yes" for v in verdicts) / len(verdicts) if verdicts else 0.0
        reason = reply.data.get("reason") if spec.include_reason else None
        logs = {"verdicts": verdicts}
        return strict_result(spec, score, reason, logs)

    return await run_judged(spec, ctx, body)
