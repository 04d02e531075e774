"""turn_faithfulness: does each assistant turn hold against the retrieval context it was given?

Judged turns are the assistant turns with a retrieval context (app/metrics/_turn_rag.py); a
conversation with none is refused at submit (deepeval judges such windows and passes them).
Per judged turn: truths from its retrieval context (made once per distinct context and shared
with `faithfulness`), then one call listing the turn's claims with a verdict each (yes, no or
idk), the earlier turns of its window shown only to resolve references.

Turn score = (yes + idk) / claims, or yes / claims with `penalize_ambiguous_claims`; a turn
without claims scores 1. Score = the mean over judged turns. The reason names the turns with
contradicted claims; it is assembled from the verdicts, with no synthesis call. Calls: one per
distinct retrieval context plus one per judged turn (deepeval 4.3.1: up to four per exchange
and one more, re-judging each turn in every window it falls in).
"""

from typing import Any, Literal

from pydantic import ConfigDict, Field

from app.metrics import _conversation as conversation
from app.metrics import _render as render
from app.metrics import _turn_rag as turn_rag
from app.metrics import _verdicts
from app.metrics._judged import JudgeSession, run_judged, strict_result
from app.metrics._plan import Completion, PlannedCall, sentences, text_of_parts
from app.metrics._types import (
    WINDOW_CHARS,
    MetricContext,
    MetricError,
    MetricResult,
    MetricTestCase,
)
from app.metrics.faithfulness import VERDICTS, Claims, asked_truths, planned_truths


class TurnFaithfulnessSpec(turn_rag.TurnRagSpecBase):
    type: Literal["turn_faithfulness"]
    truths_extraction_limit: int | None = Field(
        default=None,
        ge=1,
        description="Keep at most this many truths per retrieval context (the most important).",
    )
    penalize_ambiguous_claims: bool = Field(
        default=False, strict=True, description="Count `idk` verdicts as unfaithful."
    )


class TurnClaims(Claims):
    model_config = ConfigDict(title="turn_faithfulness_verdicts")


def _prompt(number: int, with_reason: bool, multimodal: bool, shows_images: bool) -> str:
    absent = (
        "Images are part of this conversation: a claim about data or an image the truths say "
        "nothing about at all is `no`, not `idk`. "
        if multimodal
        else ""
    )
    why = "Give a short reason with every `no` and `idk`. " if with_reason else ""
    shape = '{"claims": [{"claim": "...", "verdict": "yes|no|idk", "reason": "..."}]}'
    return (
        "Loupe task: turn_faithfulness_verdicts\n"
        f"You check one assistant message of a conversation, turn {number}, against the truths "
        "taken from the documents it was given. Earlier turns, when shown, are there only so "
        "you can tell what words like 'it' or 'that one' refer to; do not judge them and do "
        f"not take facts from them. List every factual claim turn {number} makes (about images "
        "it shows too), each as a short sentence that stands on its own. Then give each claim "
        "a verdict against the truths alone, never your own knowledge: `yes` when the truths "
        "support it, `no` only when they contradict it, `idk` when they neither support nor "
        "contradict it. Cautious or hedged wording is not a contradiction. "
        + absent
        + why
        + (render.IMAGE_RULES if shows_images else "")
        + f"\nAnswer with JSON only: {shape}"
    )


def _parts(
    case: MetricTestCase, turn: turn_rag.JudgedTurn, earlier: turn_rag.Window, truths: list[str]
) -> list[dict[str, Any]]:
    listing = "\n".join(f"- {t}" for t in truths) or "(no truths were found)"
    return [
        *turn_rag.history(earlier, "Earlier turns (context only, not judged)"),
        *conversation.transcript(case, [turn.number], tools=False, label="The turn to judge"),
        render.text(f"Truths from the retrieval context of turn {turn.number}:\n{listing}"),
    ]


def _messages(
    spec: TurnFaithfulnessSpec,
    case: MetricTestCase,
    turn: turn_rag.JudgedTurn,
    earlier: turn_rag.Window,
    truths: list[str],
) -> list[dict[str, Any]]:
    parts = _parts(case, turn, earlier, truths)
    # Images in the turn's retrieval context count for the absent-evidence rule (its truths
    # are text by then); the image rules only where this prompt shows an image itself.
    shows_images = render.is_multimodal(parts)
    multimodal = shows_images or render.is_multimodal(turn.nodes)
    prompt = _prompt(turn.number, spec.include_reason, multimodal, shows_images)
    return render.messages(prompt, parts)


def plan(
    spec: TurnFaithfulnessSpec, case: MetricTestCase, *, window_chars: int = WINDOW_CHARS
) -> list[PlannedCall]:
    """Per judged turn: truths (once per distinct retrieval context), then its claims with
    verdicts. Completions as faithfulness: the truths restate the context's sentences (at most
    the limit), the verdicts restate the turn's claims, about 12 tokens of verdict each."""
    units, judged = turn_rag.judged(case)
    windows = turn_rag.windows(case, units, judged, spec.window_size, window_chars)
    calls = []
    for turn, earlier in zip(judged, windows, strict=True):
        truths, truths_call = planned_truths(spec, turn.nodes)
        calls.append(truths_call)
        content = render.content_parts(conversation.turns_of(case)[turn.number - 1]["content"])
        claims = sentences(text_of_parts(content))
        calls.append(
            PlannedCall(
                "turn_faithfulness_verdicts",
                _messages(spec, case, turn, earlier, truths),
                Completion(fixed=8, per_item=12, items=len(claims), echoed=tuple(claims)),
            )
        )
    return calls


def _turn_score(spec: TurnFaithfulnessSpec, verdicts: list[dict[str, Any]]) -> float:
    if not verdicts:
        return 1.0  # no claims: nothing in the turn contradicts its context
    faithful = ("yes",) if spec.penalize_ambiguous_claims else ("yes", "idk")
    return sum(v["verdict"] in faithful for v in verdicts) / len(verdicts)


def _named(verdicts: list[dict[str, Any]], word: str) -> list[str]:
    return [
        f"{v['claim']!r}" + (f" ({v['reason']})" if v.get("reason") else "")
        for v in verdicts
        if v["verdict"] == word
    ]


def _turn_reason(spec: TurnFaithfulnessSpec, verdicts: list[dict[str, Any]]) -> str:
    if not verdicts:
        return "makes no factual claims"
    counts = {word: sum(v["verdict"] == word for v in verdicts) for word in ("yes", "no", "idk")}
    said = f"{counts['yes']} of {len(verdicts)} claims supported, {counts['no']} contradicted"
    said += f", {counts['idk']} not addressed by its retrieval context"
    contradicted = _named(verdicts, "no")
    said += ": contradicted " + "; ".join(contradicted) if contradicted else ""
    # Penalised, a claim the context does not address lowers the score: name it too.
    unaddressed = _named(verdicts, "idk") if spec.penalize_ambiguous_claims else []
    if unaddressed:
        said += ("; " if contradicted else ": ") + "not addressed " + "; ".join(unaddressed)
    return said


def _reason(spec: TurnFaithfulnessSpec, pins: list[dict[str, Any]], score: float) -> str:
    unfaithful = ("no", "idk") if spec.penalize_ambiguous_claims else ("no",)
    flagged = [p for p in pins if any(v["verdict"] in unfaithful for v in p["verdicts"])]
    judged = conversation.turn_list(p["turn"] for p in pins)
    head = f"Mean {score:.2f} over {judged}. "
    if not flagged:
        return head + "No claim of any judged turn is contradicted by its retrieval context."
    return head + " ".join(f"turn {p['turn']}: {p['reason']}." for p in flagged)


async def measure(
    spec: TurnFaithfulnessSpec, case: MetricTestCase, ctx: MetricContext
) -> MetricResult:
    """Per judged turn, truths (shared per context) then claims with verdicts; the mean."""
    units, judged = turn_rag.judged(case)
    if not judged:
        error = MetricError("missing_retrieval_context", turn_rag.NO_JUDGED_TURN)
        return MetricResult.failure(spec.threshold, error)
    windows = turn_rag.windows(case, units, judged, spec.window_size, ctx.window_chars)

    async def judge_turn(
        judge: JudgeSession, turn: turn_rag.JudgedTurn, earlier: turn_rag.Window
    ) -> dict[str, Any]:
        truths, shared = await asked_truths(
            judge, spec, turn.nodes, case.context_shared, f"turn {turn.number} truths"
        )
        reply = await judge.ask(
            f"turn {turn.number} verdicts",
            _messages(spec, case, turn, earlier, truths),
            TurnClaims,
        )
        items = [item for item in reply.data["claims"] if item["claim"].strip()]
        verdicts, _ = _verdicts.normalise_verdicts(items, VERDICTS)
        return conversation.pin(
            turn.number,
            _turn_score(spec, verdicts),
            _turn_reason(spec, verdicts),
            claims=[v["claim"] for v in verdicts],
            verdicts=verdicts,
            truths=truths,
            truths_shared=shared,
        )

    async def body(judge: JudgeSession) -> MetricResult:
        pins = await turn_rag.each(
            judge_turn(judge, turn, earlier) for turn, earlier in zip(judged, windows, strict=True)
        )
        score = turn_rag.mean([p["verdict"] for p in pins])
        reason = _reason(spec, pins, score) if spec.include_reason else None
        logs: dict[str, Any] = {
            "turns": pins,
            "window_size": spec.window_size,
            "window_trimmed": turn_rag.trimmed(judged, windows),
        }
        return strict_result(spec, score, reason, logs)

    return await run_judged(spec, ctx, body)
