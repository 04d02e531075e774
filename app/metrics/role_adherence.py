"""role_adherence: does every assistant turn keep the role the chatbot was given?

One call per conversation: the role, the transcript up to the last assistant turn (images in
place, tool calls shown; a user turn after it is context for no verdict) and one
verdict per assistant turn, keyed by turn; a turn left out, named twice or not an assistant
turn is one repair request, then the result's error. deepeval asks for the indices of the
out-of-character turns, unchecked (2 verdicts naming the same turn over 2 assistant turns
scored 0.0), then makes a second call for the reason.

Score = assistant turns in character / assistant turns; a conversation without an assistant
turn scores 1 with no call. The reason is built from the out-of-character turns.
"""

from typing import Any, ClassVar, Literal

from pydantic import BaseModel

from app.metrics import _conversation as conversation
from app.metrics import _render as render
from app.metrics._judged import JudgedSpecBase, JudgeSession, run_judged, strict_result
from app.metrics._plan import Completion, PlannedCall
from app.metrics._types import MetricContext, MetricResult, MetricTestCase, Shape, TestCaseField

VERDICTS = (("yes", "yes"), ("no", "no"))


class RoleAdherenceSpec(JudgedSpecBase):
    required_fields: ClassVar[tuple[TestCaseField, ...]] = ("turns", "chatbot_role")
    shape: ClassVar[Shape] = "conversation"

    type: Literal["role_adherence"]


def _messages(case: MetricTestCase, judged: list[int]) -> list[dict]:
    # Up to the last assistant turn: a user turn after it is context for no judged turn.
    shown = conversation.up_to_last_reply(conversation.turns_of(case))
    parts = [
        *conversation.case_fields(case, ["chatbot_role"]),
        *conversation.transcript(case, shown),
        render.text(f"Assistant turns to judge: {', '.join(map(str, judged))}"),
    ]
    # The image rules only where this prompt shows an image (retrieval context is not shown).
    rules = f" {render.IMAGE_RULES}" if render.is_multimodal(parts) else ""
    prompt = (
        "Loupe task: role_adherence_verdicts\n"
        "The assistant in the conversation below was given the role described. For each "
        "assistant turn asked about, answer `yes` when the turn stays in that role (the "
        "persona, tone, knowledge and limits the role sets) and `no` when it breaks character: "
        "it speaks or acts as the role would not, claims to be something else, or ignores a "
        "limit of the role. Earlier turns are context; what the user says is never judged. A "
        "`no` needs a short reason saying how the turn left the role." + rules + "\n"
        'Answer with JSON only: {"verdicts": [{"turn": n, "verdict": "yes|no", "reason": '
        '"..."}]}'
    )
    return render.messages(prompt, parts)


def _schema(judged: list[int]) -> type[BaseModel]:
    return conversation.turn_verdicts_schema(
        "role_adherence_verdicts", tuple(judged), with_reason=False, allowed=VERDICTS
    )


def plan(spec: RoleAdherenceSpec, case: MetricTestCase) -> list[PlannedCall]:
    """One call when the conversation has an assistant turn. Completion: a verdict with a
    short reason (about 20 tokens) per assistant turn."""
    judged = conversation.numbers_with_role(conversation.turns_of(case), "assistant")
    if not judged:
        return []
    completion = Completion(fixed=8, per_item=20, items=len(judged))
    return [PlannedCall("role_adherence_verdicts", _messages(case, judged), completion)]


def _reason(verdicts: list[dict[str, Any]], score: float) -> str:
    if not verdicts:
        return "The conversation has no assistant turn, so no turn could leave the role: score 1."
    broken = [item for item in verdicts if item["verdict"] == "no"]
    if not broken:
        turns = conversation.turn_list(item["turn"] for item in verdicts)
        return f"Every assistant turn stayed in the role ({turns}); score {score:.2f}."
    kept = len(verdicts) - len(broken)
    left = "; ".join(
        f"turn {item['turn']}: {item.get('reason') or 'out of character'}" for item in broken
    )
    return (
        f"{kept} of {len(verdicts)} assistant turns stayed in the role; score {score:.2f}. "
        f"Out of character: {left}"
    )


async def measure(
    spec: RoleAdherenceSpec, case: MetricTestCase, ctx: MetricContext
) -> MetricResult:
    """One call: a keyed in-character verdict for every assistant turn."""

    async def body(judge: JudgeSession) -> MetricResult:
        judged = conversation.numbers_with_role(conversation.turns_of(case), "assistant")
        verdicts: list[dict[str, Any]] = []
        if judged:
            reply = await judge.ask("verdicts", _messages(case, judged), _schema(judged))
            verdicts = conversation.read_turn_verdicts(reply.data, VERDICTS)
        kept = sum(item["verdict"] == "yes" for item in verdicts)
        score = kept / len(verdicts) if verdicts else 1.0
        logs: dict[str, Any] = {
            "turns": [
                conversation.pin(item["turn"], item["verdict"], item.get("reason"))
                for item in verdicts
            ]
        }
        reason = _reason(verdicts, score) if spec.include_reason else None
        return strict_result(spec, score, reason, logs)

    return await run_judged(spec, ctx, body)
