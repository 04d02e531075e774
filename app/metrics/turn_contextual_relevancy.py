"""turn_contextual_relevancy: is what each assistant turn retrieved relevant to what was asked?

Judged turns are the assistant turns with a retrieval context (app/metrics/_turn_rag.py); a
conversation with none is refused at submit (deepeval scores it 1). Per judged turn, one call
judges every node of that turn's retrieval context (a text run or an image, numbered; a passage of
a caption and an image is two nodes) against what the user asked in that exchange, the earlier
turns of its window shown only to resolve references: `yes` relevant, `no` not. The verdicts are
keyed by node number and must answer each node exactly once (otherwise one repair request, then
`invalid_answer`). Each node in `logs.turns[].nodes` carries its `passage` (the retrieval_context
item it comes from, numbered from 1 as the console lists them) and the reason names both: "node 3
(passage 2, image)".

Turn score = relevant nodes / nodes (deepeval counts statements the judge extracts from each
node, so the judge chooses the denominator; an image node is one verdict there too). Score =
the mean over judged turns. The reason is assembled from the verdicts (no synthesis call).
Calls: one per judged turn (deepeval 4.3.1: one per context item per window, one reason per
window and one synthesis).
"""

from functools import lru_cache
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, field_validator, model_validator

from app.metrics import _conversation as conversation
from app.metrics import _render as render
from app.metrics import _turn_rag as turn_rag
from app.metrics import _verdicts
from app.metrics._judged import JudgeSession, run_judged, strict_result
from app.metrics._plan import Completion, PlannedCall
from app.metrics._types import (
    WINDOW_CHARS,
    MetricContext,
    MetricError,
    MetricResult,
    MetricTestCase,
)
from app.metrics._verdicts import ItemNumber

VERDICTS = {"yes": "yes", "no": "no"}


class TurnContextualRelevancySpec(turn_rag.TurnRagSpecBase):
    window_ends_at_request: ClassVar[bool] = True

    type: Literal["turn_contextual_relevancy"]


class NodeVerdict(BaseModel):
    node: ItemNumber
    verdict: _verdicts.YesNo
    reason: str | None = None


class _NodeVerdicts(BaseModel):
    nodes: list[NodeVerdict]
    # How many nodes the turn's retrieval context has (set per subclass).
    count: ClassVar[int] = 0

    @field_validator("nodes")
    @classmethod
    def _readable(cls, items: list[NodeVerdict]) -> list[NodeVerdict]:
        _verdicts.refuse_unreadable([item.verdict for item in items], VERDICTS)
        return items

    @model_validator(mode="after")
    def _each_node_once(self) -> "_NodeVerdicts":
        given = [item.node for item in self.nodes]
        conversation.refuse_unkeyed(given, range(1, self.count + 1), "node")
        return self


@lru_cache(maxsize=64)
def _schema(count: int) -> type[BaseModel]:
    namespace = {
        "model_config": ConfigDict(title="turn_contextual_relevancy_verdicts"),
        "count": count,
    }
    return type("turn_contextual_relevancy_verdicts", (_NodeVerdicts,), namespace)


def _prompt(turn: turn_rag.JudgedTurn, with_reason: bool, shows_images: bool) -> str:
    why = "Give a short reason with every `no`, saying what the node is about instead. "
    shape = '{"nodes": [{"node": 1, "verdict": "yes|no", "reason": "..."}]}'
    asked = conversation.turn_list(turn.asked)
    return (
        "Loupe task: turn_contextual_relevancy_verdicts\n"
        f"An assistant retrieved the numbered nodes below to answer the user's request in "
        f"{asked}; they are the retrieval context of turn {turn.number}. For every node, by "
        "its number, decide whether it is relevant to that request: `yes` when it holds "
        "something that helps answer it, `no` when it does not. A node is either text or an "
        "image, and an empty text node is `no`. Earlier turns, when shown, only tell you what "
        "the request refers to ('it', 'the second one'); a node that is relevant only to an "
        "earlier request is `no`. Answer every node exactly once. "
        + (why if with_reason else "")
        + (render.IMAGE_RULES if shows_images else "")
        + f"\nAnswer with JSON only: {shape}"
    )


def _messages(
    spec: TurnContextualRelevancySpec,
    case: MetricTestCase,
    turn: turn_rag.JudgedTurn,
    shown: turn_rag.Window,
) -> list[dict[str, Any]]:
    # The conversation up to the request: earlier exchanges and the request's own turns.
    parts = [
        *turn_rag.history(shown, "Conversation up to the request"),
        *render.numbered_nodes(f"Retrieval context of turn {turn.number}", turn.nodes),
    ]
    prompt = _prompt(turn, spec.include_reason, render.is_multimodal(parts))
    return render.messages(prompt, parts)


def _windows(
    spec: TurnContextualRelevancySpec,
    case: MetricTestCase,
    judged: list[turn_rag.JudgedTurn],
    units: list[list[int]],
    window_chars: int,
) -> list[turn_rag.Window]:
    return turn_rag.windows(
        case,
        units,
        judged,
        spec.window_size,
        window_chars,
        up_to_request=spec.window_ends_at_request,
    )


def plan(
    spec: TurnContextualRelevancySpec, case: MetricTestCase, *, window_chars: int = WINDOW_CHARS
) -> list[PlannedCall]:
    """One call per judged turn; its completion is about 14 tokens per node (number, verdict,
    a short reason)."""
    units, judged = turn_rag.judged(case)
    return [
        PlannedCall(
            "turn_contextual_relevancy_verdicts",
            _messages(spec, case, turn, shown),
            Completion(fixed=8, per_item=14, items=len(turn.nodes)),
        )
        for turn, shown in zip(
            judged, _windows(spec, case, judged, units, window_chars), strict=True
        )
    ]


def _turn_reason(verdicts: list[dict[str, Any]]) -> str:
    relevant = sum(v["verdict"] == "yes" for v in verdicts)
    # Nodes are what the judge numbers; passages are what the user submitted and the console
    # lists (a caption and its image are two nodes of one passage).
    passages = len({v["passage"] for v in verdicts})
    source = ""
    if passages != len(verdicts):
        source = f" (from {passages} passage{'' if passages == 1 else 's'})"
    noun = "node" if len(verdicts) == 1 else "nodes"
    said = f"{relevant} of {len(verdicts)} retrieval-context {noun}{source} relevant"
    irrelevant = [
        render.node_name(v["node"], v["passage"], v["kind"])
        + (f": {v['reason']}" if v.get("reason") else "")
        for v in verdicts
        if v["verdict"] == "no"
    ]
    return said + (": not " + "; ".join(irrelevant) if irrelevant else "")


async def measure(
    spec: TurnContextualRelevancySpec, case: MetricTestCase, ctx: MetricContext
) -> MetricResult:
    """One call per judged turn (a verdict per node); the mean of relevant / nodes."""
    units, judged = turn_rag.judged(case)
    if not judged:
        error = MetricError("missing_retrieval_context", turn_rag.NO_JUDGED_TURN)
        return MetricResult.failure(spec.threshold, error)
    windows = _windows(spec, case, judged, units, ctx.window_chars)

    async def judge_turn(
        judge: JudgeSession, turn: turn_rag.JudgedTurn, shown: turn_rag.Window
    ) -> dict[str, Any]:
        reply = await judge.ask(
            f"turn {turn.number} verdicts",
            _messages(spec, case, turn, shown),
            _schema(len(turn.nodes)),
        )
        answered = sorted(reply.data["nodes"], key=lambda item: item["node"])
        verdicts = [
            {
                "node": item["node"],
                "passage": turn.passages[item["node"] - 1],
                "kind": "image"
                if turn.nodes[item["node"] - 1].get("type") == "image_url"
                else "text",
                "verdict": _verdicts.read(item["verdict"], VERDICTS),
                "reason": item.get("reason"),
            }
            for item in answered
        ]
        score = sum(v["verdict"] == "yes" for v in verdicts) / len(verdicts)
        return conversation.pin(turn.number, score, _turn_reason(verdicts), nodes=verdicts)

    async def body(judge: JudgeSession) -> MetricResult:
        pins = await turn_rag.each(
            judge_turn(judge, turn, shown) for turn, shown in zip(judged, windows, strict=True)
        )
        score = turn_rag.mean([p["verdict"] for p in pins])
        reason = None
        if spec.include_reason:
            judged_list = conversation.turn_list(p["turn"] for p in pins)
            lines = " ".join(f"turn {p['turn']}: {p['reason']}." for p in pins)
            reason = f"Mean {score:.2f} over {judged_list}. {lines}"
        logs: dict[str, Any] = {
            "turns": pins,
            "window_size": spec.window_size,
            "window_trimmed": turn_rag.trimmed(judged, windows),
        }
        return strict_result(spec, score, reason, logs)

    return await run_judged(spec, ctx, body)
