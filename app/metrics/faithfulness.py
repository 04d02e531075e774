"""faithfulness: does every claim of actual_output hold against the retrieval context?

Score = (yes + idk) / verdicts, or yes / verdicts with `penalize_ambiguous_claims`; no claims
(or no usable verdicts) scores 1. Truths are extracted once per retrieval context and shared.
"""

import hashlib
import json
from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.metrics import _render as render
from app.metrics import _verdicts
from app.metrics._judged import JudgedSpecBase, JudgeSession, passed, run_judged
from app.metrics._types import MetricContext, MetricResult, MetricTestCase, TestCaseField

VERDICTS = {"yes": "yes", "no": "no", "idk": "idk", "borderline": "idk"}


class FaithfulnessSpec(JudgedSpecBase):
    required_fields: ClassVar[tuple[TestCaseField, ...]] = (
        "input",
        "actual_output",
        "retrieval_context",
    )

    type: Literal["faithfulness"]
    truths_extraction_limit: int | None = Field(
        default=None, ge=1, description="Keep at most this many truths (the most important)."
    )
    penalize_ambiguous_claims: bool = Field(
        default=False, description="Count `idk` verdicts as unfaithful."
    )


class Truths(BaseModel):
    model_config = ConfigDict(title="faithfulness_truths")
    truths: list[str]


class Claims(BaseModel):
    model_config = ConfigDict(title="faithfulness_claims")
    claims: list[str]


def _truths_prompt(limit: int | None) -> str:
    amount = (
        "every factual statement"
        if limit is None
        else f"at most {limit} factual statements, the most important ones first"
    )
    return (
        "Loupe task: faithfulness_truths\n"
        f"Read the retrieval context below and list {amount} it makes, each as a short, "
        "self-contained sentence. Take the context at face value: whether it is true in the "
        "world does not matter. " + render.IMAGE_RULES + "\n"
        'Answer with JSON only: {"truths": ["...", ...]}'
    )


CLAIMS_PROMPT = (
    "Loupe task: faithfulness_claims\n"
    "List every factual claim the AI output below makes, each as a short, self-contained "
    "sentence. Take the output at face value; include claims about images it shows. "
    + render.IMAGE_RULES
    + '\nAnswer with JSON only: {"claims": ["...", ...]}'
)


def _verdicts_prompt(with_reason: bool) -> str:
    reason = (
        'After the verdicts, give "reason": two or three sentences on how faithful the output '
        "is overall, naming the contradicted claims."
        if with_reason
        else ""
    )
    shape = '{"verdicts": [{"verdict": "yes|no|idk", "reason": "..."}]'
    shape += ', "reason": "..."}' if with_reason else "}"
    return (
        "Loupe task: faithfulness_verdicts\n"
        "For each claim, in order, decide whether the truths support it. Answer `no` only when "
        "the truths directly contradict the claim. When they neither support nor contradict it, "
        "answer `idk`. Hedged wording is not a contradiction. Use only the truths, never your "
        "own knowledge. Give one verdict per claim; a `no` or `idk` verdict needs a short "
        f"reason. {reason}\nAnswer with JSON only: {shape}"
    )


def _truths_key(model: str | None, nodes: list[dict], limit: int | None) -> tuple:
    canonical = json.dumps(nodes, sort_keys=True, separators=(",", ":"))
    return ("faithfulness_truths", model, limit, hashlib.sha256(canonical.encode()).hexdigest())


async def _truths(
    judge: JudgeSession, spec: FaithfulnessSpec, nodes: list[dict]
) -> tuple[list[str], bool]:
    if not nodes:
        return [], False
    parts = render.numbered_nodes("Retrieval Context", nodes)
    reply, first = await judge.ask_shared(
        "truths",
        _truths_key(spec.model or judge.ctx.judge_model, nodes, spec.truths_extraction_limit),
        render.messages(_truths_prompt(spec.truths_extraction_limit), parts),
        Truths,
    )
    truths = [t for t in reply.data["truths"] if t.strip()]
    # The limit is enforced, not only asked for.
    if spec.truths_extraction_limit is not None:
        truths = truths[: spec.truths_extraction_limit]
    return truths, not first


async def measure(spec: FaithfulnessSpec, case: MetricTestCase, ctx: MetricContext) -> MetricResult:
    """Claims from actual_output judged against truths from retrieval_context."""
    import asyncio

    async def body(judge: JudgeSession) -> MetricResult:
        nodes = render.nodes(case.retrieval_context)
        claims_call = judge.ask(
            "claims",
            render.messages(CLAIMS_PROMPT, render.field_parts(case, "actual_output")),
            Claims,
        )
        (truths, truths_shared), claims_reply = await asyncio.gather(
            _truths(judge, spec, nodes), claims_call
        )
        claims = [c for c in claims_reply.data["claims"] if c.strip()]
        logs: dict = {"truths": truths, "truths_shared": truths_shared, "claims": claims}
        if not claims:
            logs.update(verdicts=[], dropped_verdicts=[])
            reason = (
                "actual_output makes no factual claims, so nothing in it contradicts the "
                "retrieval context."
                if spec.include_reason
                else None
            )
            return MetricResult(1.0, passed(1.0, spec.threshold), spec.threshold, reason, logs=logs)
        listing = "\n".join(f"{i}. {claim}" for i, claim in enumerate(claims, start=1))
        truth_listing = "\n".join(f"- {t}" for t in truths) or "(no truths were found)"
        parts = [render.text(f"Claims:\n{listing}"), render.text(f"Truths:\n{truth_listing}")]
        reply = await judge.ask(
            "verdicts",
            render.messages(_verdicts_prompt(spec.include_reason), parts),
            _verdicts.schema("faithfulness_verdicts", with_reason=spec.include_reason),
        )
        verdicts, dropped = _verdicts.normalise_verdicts(reply.data["verdicts"], VERDICTS)
        logs.update(verdicts=verdicts, dropped_verdicts=dropped)
        if len(verdicts) != len(claims):
            logs["verdict_count_mismatch"] = {"claims": len(claims), "verdicts": len(verdicts)}
        if not verdicts:
            score = 1.0
        else:
            faithful = ("yes",) if spec.penalize_ambiguous_claims else ("yes", "idk")
            score = sum(v["verdict"] in faithful for v in verdicts) / len(verdicts)
        score = _verdicts.strict_clamp(score, spec.threshold, spec.strict_mode)
        reason = reply.data.get("reason") if spec.include_reason else None
        return MetricResult(score, passed(score, spec.threshold), spec.threshold, reason, logs=logs)

    return await run_judged(spec, ctx, body)
