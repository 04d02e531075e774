"""faithfulness: does every claim of actual_output hold against the retrieval context?

Score = (yes + idk) / verdicts, or yes / verdicts with `penalize_ambiguous_claims`; no claims
scores 1. A verdict that is not yes, no or idk gets one repair request, then `judge_malformed`
(it was dropped: a reply of unreadable verdicts scored 1 and passed). In a test case with
images, a claim about data or an image the context lacks altogether is `no` (deepeval's
multimodal rule), not `idk`.

Truths are extracted once per retrieval context per evaluation and shared; claims are extracted
and judged in one call (deepeval uses two), so the metric costs one call per test case plus one
per distinct retrieval context.
"""

import hashlib
import json
from typing import ClassVar, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from app.metrics import _render as render
from app.metrics import _verdicts
from app.metrics._judged import JudgedSpecBase, JudgeSession, run_judged, strict_result
from app.metrics._plan import Completion, PlannedCall, sentences, text_of_parts
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
        default=False, strict=True, description="Count `idk` verdicts as unfaithful."
    )


class Truths(BaseModel):
    model_config = ConfigDict(title="faithfulness_truths")
    truths: list[str]


class ClaimVerdict(BaseModel):
    claim: str
    verdict: _verdicts.YesNoIdk
    reason: str | None = None


class Claims(BaseModel):
    model_config = ConfigDict(title="faithfulness_verdicts")
    claims: list[ClaimVerdict]

    @field_validator("claims")
    @classmethod
    def _readable(cls, items: list[ClaimVerdict]) -> list[ClaimVerdict]:
        # A dropped verdict would leave its claim out: all of them dropped scored 1 and passed.
        _verdicts.refuse_unreadable(
            [item.verdict for item in items if item.claim.strip()], VERDICTS
        )
        return items


class ClaimsWithReason(Claims):
    model_config = ConfigDict(title="faithfulness_verdicts")
    reason: str

    @model_validator(mode="after")
    def _explained(self) -> "ClaimsWithReason":
        judged = sum(1 for item in self.claims if item.claim.strip())
        self.reason = _verdicts.refuse_empty_reason(self.reason, judged)
        return self


def _verdicts_schema(with_reason: bool) -> type[BaseModel]:
    return ClaimsWithReason if with_reason else Claims


def _truths_prompt(limit: int | None, shows_images: bool) -> str:
    amount = (
        "every factual statement"
        if limit is None
        else f"at most {limit} factual statements, the most important ones first"
    )
    return (
        "Loupe task: faithfulness_truths\n"
        f"Read the retrieval context below and list {amount} it makes, each as a short, "
        "self-contained sentence. Take the context at face value: whether it is true in the "
        "world does not matter. " + (render.IMAGE_RULES if shows_images else "") + "\n"
        'Answer with JSON only: {"truths": ["...", ...]}'
    )


def _verdicts_prompt(
    with_reason: bool, multimodal: bool, shows_images: bool, penalize_ambiguous: bool = False
) -> str:
    # deepeval's multimodal variant is harsher than its text rule: what the context lacks
    # altogether is a `no`, not an ambiguity.
    absent = (
        "This test case has images: a claim about data or an image that the truths do not "
        "mention at all gets `no`, not `idk`. "
        if multimodal
        else ""
    )
    # With `penalize_ambiguous_claims` an `idk` costs as much as a `no`: a reason naming only
    # contradictions called a half-scored output faithful.
    named = (
        "naming the contradicted claims and those the truths do not support (both count as "
        "unfaithful)"
        if penalize_ambiguous
        else "naming the contradicted claims"
    )
    reason = (
        'Finally give "reason": two or three sentences on how faithful the output is overall, '
        f"{named}."
        if with_reason
        else ""
    )
    shape = '{"claims": [{"claim": "...", "verdict": "yes|no|idk", "reason": "..."}]'
    shape += ', "reason": "..."}' if with_reason else "}"
    return (
        "Loupe task: faithfulness_verdicts\n"
        "First list every factual claim the AI output below makes, each as a short, "
        "self-contained sentence, taking the output at face value (claims about images it "
        "shows included). Then judge each claim against the truths: answer `no` only when the "
        "truths directly contradict it; when they neither support nor contradict it, answer "
        "`idk`; hedged wording is not a contradiction. Use only the truths, never your own "
        "knowledge. "
        + absent
        + "A `no` or `idk` verdict needs a short reason. "
        + (render.IMAGE_RULES + " " if shows_images else "")
        + f"{reason}\nAnswer with JSON only: {shape}"
    )


class TruthsSpec(Protocol):
    """What the truths call reads of a spec (faithfulness's, turn_faithfulness's)."""

    model: str | None
    truths_extraction_limit: int | None


def _truths_key(model: str | None, nodes: list[dict], limit: int | None) -> tuple:
    canonical = json.dumps(nodes, sort_keys=True, separators=(",", ":"))
    return ("faithfulness_truths", model, limit, hashlib.sha256(canonical.encode()).hexdigest())


def _truths_messages(spec: TruthsSpec, nodes: list[dict]) -> list[dict]:
    parts = render.numbered_nodes("Retrieval Context", nodes)
    prompt = _truths_prompt(spec.truths_extraction_limit, render.is_multimodal(parts))
    return render.messages(prompt, parts)


def planned_truths(spec: TruthsSpec, nodes: list[dict]) -> tuple[list[str], PlannedCall]:
    """The truths a plan takes for a retrieval context (its sentences, at most the limit) and
    the truths call, shared by every case and metric judged on that context. Completion: the
    truths restated."""
    truths = sentences(text_of_parts(nodes))
    if spec.truths_extraction_limit is not None:
        truths = truths[: spec.truths_extraction_limit]
    key = _truths_key(None, nodes, spec.truths_extraction_limit)
    call = PlannedCall(
        "faithfulness_truths",
        _truths_messages(spec, nodes),
        Completion(fixed=8, per_item=4, items=len(truths), echoed=tuple(truths)),
        shared=(key[0], *key[2:]),
    )
    return truths, call


async def asked_truths(
    judge: JudgeSession,
    spec: TruthsSpec,
    nodes: list[dict],
    across_jobs: bool,
    label: str = "truths",
) -> tuple[list[str], bool]:
    """A retrieval context's truths and whether they were shared: asked once per judge model,
    context and limit (one context's truths serve faithfulness and turn_faithfulness)."""
    if not nodes:
        return [], False
    reply, first = await judge.ask_shared(
        label,
        _truths_key(spec.model or judge.ctx.judge_model, nodes, spec.truths_extraction_limit),
        _truths_messages(spec, nodes),
        Truths,
        across_jobs=across_jobs,
    )
    truths = [t for t in reply.data["truths"] if t.strip()]
    # The limit is enforced, not only asked for.
    if spec.truths_extraction_limit is not None:
        truths = truths[: spec.truths_extraction_limit]
    # Shared: made for another test case, by another job, or by an earlier evaluation.
    return truths, not first or reply.cached


def _verdicts_messages(
    spec: FaithfulnessSpec, case: MetricTestCase, truths: list[str]
) -> list[dict]:
    truth_listing = "\n".join(f"- {t}" for t in truths) or "(no truths were found)"
    parts = [
        *render.field_parts(case, "actual_output"),
        render.text(f"Truths:\n{truth_listing}"),
    ]
    # The absent-evidence rule follows the whole case (its context's images are truths by
    # now); the image rules only an image this prompt shows.
    prompt = _verdicts_prompt(
        spec.include_reason,
        render.case_has_images(case),
        render.is_multimodal(parts),
        spec.penalize_ambiguous_claims,
    )
    return render.messages(prompt, parts)


def plan(spec: FaithfulnessSpec, case: MetricTestCase) -> list[PlannedCall]:
    """Truths (once per retrieval context), then claims with verdicts.

    Completions: the truths restate the context's text (its sentences, at most the limit); the
    verdicts restate the output's claims, about 12 tokens of verdict and reason each, and the
    overall reason (about 50 tokens)."""
    nodes = render.nodes(case.retrieval_context)
    truths: list[str] = []
    calls = []
    if nodes:
        truths, truths_call = planned_truths(spec, nodes)
        calls.append(truths_call)
    claims = sentences(text_of_parts(render.field_parts(case, "actual_output")[1:]))
    calls.append(
        PlannedCall(
            "faithfulness_verdicts",
            _verdicts_messages(spec, case, truths),
            Completion(
                fixed=8 + (50 if spec.include_reason else 0),
                per_item=12,
                items=len(claims),
                echoed=tuple(claims),
            ),
        )
    )
    return calls


async def measure(spec: FaithfulnessSpec, case: MetricTestCase, ctx: MetricContext) -> MetricResult:
    """Truths (shared per retrieval context), then one call: claims with their verdicts."""

    async def body(judge: JudgeSession) -> MetricResult:
        truths, truths_shared = await asked_truths(
            judge, spec, render.nodes(case.retrieval_context), case.context_shared
        )
        reply = await judge.ask(
            "verdicts",
            _verdicts_messages(spec, case, truths),
            _verdicts_schema(spec.include_reason),
        )
        items = [item for item in reply.data["claims"] if item["claim"].strip()]
        verdicts, _ = _verdicts.normalise_verdicts(items, VERDICTS)
        logs: dict = {
            "truths": truths,
            "truths_shared": truths_shared,
            "claims": [item["claim"] for item in items],
            "verdicts": verdicts,
        }
        # No claims: nothing contradicts the context (deepeval: 1).
        if not verdicts:
            score = 1.0
        else:
            faithful = ("yes",) if spec.penalize_ambiguous_claims else ("yes", "idk")
            score = sum(v["verdict"] in faithful for v in verdicts) / len(verdicts)
        reason = None
        if spec.include_reason:
            reason = reply.data.get("reason") or (
                "actual_output makes no factual claims, so nothing in it contradicts the "
                "retrieval context."
            )
        return strict_result(spec, score, reason, logs)

    return await run_judged(spec, ctx, body)
