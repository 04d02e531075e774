"""contextual_precision: are the useful retrieval nodes ranked above the useless ones?

Score = Σ_k r_k · (Σ_{i≤k} r_i) / k  ÷  Σ_k r_k (weighted cumulative precision); no verdicts or
no relevant node scores 0, and an empty retrieval context 0 without a judge call. The reply
must hold one yes/no verdict per node, in order: any other count, or another word, gets one
repair request, then the result is an error (`invalid_answer`, `judge_malformed`), never a
score of the verdicts that happen to be there.
"""

from fractions import Fraction
from typing import ClassVar, Literal

from app.metrics import _render as render
from app.metrics import _verdicts
from app.metrics._judged import JudgedSpecBase, JudgeSession, run_judged, strict_result
from app.metrics._plan import Completion, PlannedCall
from app.metrics._types import MetricContext, MetricResult, MetricTestCase, TestCaseField

VERDICTS = {"yes": "yes", "no": "no"}


class ContextualPrecisionSpec(JudgedSpecBase):
    required_fields: ClassVar[tuple[TestCaseField, ...]] = (
        "input",
        "expected_output",
        "retrieval_context",
    )

    type: Literal["contextual_precision"]


def weighted_cumulative_precision(relevant: list[bool]) -> float:
    """The contextual precision formula over relevance flags in rank order.

    Summed as exact fractions and rounded once: float steps made [yes, no, yes] 0.83333…33,
    under the 5/6 (0.83333…34) a threshold of 5/6 is, so it failed its own score."""
    total = sum(relevant)
    if total == 0:
        return 0.0
    hits = 0
    acc = Fraction(0)
    for k, is_relevant in enumerate(relevant, start=1):
        if is_relevant:
            hits += 1
            acc += Fraction(hits, k)
    return float(acc / total)


def _prompt(with_reason: bool, shows_images: bool) -> str:
    rules = render.IMAGE_RULES if shows_images else ""
    reason = (
        ' Then give "reason": two or three sentences on whether the useful nodes are ranked '
        "above the others, citing node numbers."
        if with_reason
        else ""
    )
    shape = _verdicts.answer_shape(with_reason)
    return (
        "Loupe task: contextual_precision_verdicts\n"
        "For each node of the retrieval context, in the order given, answer `yes` if it was "
        "useful for arriving at the expected output for this input, else `no`, with a short "
        "reason quoting the node. Give exactly one verdict per node. A node is either text or "
        f"an image, never both. {rules}{reason}\nAnswer with JSON only: {shape}"
    )


def _messages(spec: ContextualPrecisionSpec, case: MetricTestCase) -> list[dict]:
    parts = [
        *render.field_parts(case, "input"),
        *render.field_parts(case, "expected_output"),
        *render.numbered_nodes("Retrieval Context", render.nodes(case.retrieval_context)),
    ]
    return render.messages(_prompt(spec.include_reason, render.is_multimodal(parts)), parts)


def plan(spec: ContextualPrecisionSpec, case: MetricTestCase) -> list[PlannedCall]:
    """One call. Completion: a verdict with a reason quoting its node (about 30 tokens) per
    node, and the overall reason (about 50 tokens)."""
    nodes = render.nodes(case.retrieval_context)
    if not nodes:
        return []
    completion = Completion(
        fixed=8 + (50 if spec.include_reason else 0), per_item=30, items=len(nodes)
    )
    return [PlannedCall("contextual_precision_verdicts", _messages(spec, case), completion)]


def _empty_context(spec: ContextualPrecisionSpec) -> MetricResult:
    reason = (
        "The retrieval context is empty: no node could be useful, so the score is 0."
        if spec.include_reason
        else None
    )
    return strict_result(spec, 0.0, reason, {"verdicts": [], "nodes": 0})


async def measure(
    spec: ContextualPrecisionSpec, case: MetricTestCase, ctx: MetricContext
) -> MetricResult:
    """One judge call: per-node usefulness verdicts (and the reason, when asked)."""

    async def body(judge: JudgeSession) -> MetricResult:
        nodes = render.nodes(case.retrieval_context)
        if not nodes:
            # No node, so none useful: 0 without asking (a judge shown "0 nodes" that
            # answered a verdict anyway made the result an `invalid_answer`).
            return _empty_context(spec)
        reply = await judge.ask(
            "verdicts",
            _messages(spec, case),
            _verdicts.schema(
                "contextual_precision_verdicts",
                with_reason=spec.include_reason,
                count=len(nodes),
                unit="retrieval-context node",
            ),
        )
        verdicts, _ = _verdicts.normalise_verdicts(reply.data["verdicts"], VERDICTS)
        score = weighted_cumulative_precision([v["verdict"] == "yes" for v in verdicts])
        reason = reply.data.get("reason") if spec.include_reason else None
        logs = {"verdicts": verdicts, "nodes": len(nodes)}
        return strict_result(spec, score, reason, logs)

    return await run_judged(spec, ctx, body)
