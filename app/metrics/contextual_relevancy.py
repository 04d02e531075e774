"""contextual_relevancy: how much of the retrieval context is relevant to the input?

Score = yes / verdicts over every node's statements (idk does not count); no verdicts (nodes
without statements) scores 0, as deepeval. A text node is broken into statements; an image node
is judged as one statement, the image itself. All nodes are judged in one call with the reason
(deepeval makes one call per retrieval-context item and one for the reason). So one reply can
leave a node out, which deepeval's cannot: an answer that leaves a node out, answers a node that
does not exist or twice, or gives an image node other than one verdict gets one repair request
saying so, then is a judge error (`invalid_answer`), never scored on the verdicts that happen to
be there. A verdict that is not yes, no or idk makes the reply malformed (one repair request,
then `judge_malformed`; deepeval's schema refuses it too), never dropped.
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
from app.metrics._verdicts import ItemNumber

VERDICTS = {"yes": "yes", "no": "no", "idk": "idk", "borderline": "idk"}
# The image nodes a repair message names at the most (as `_verdicts.some` lists keys).
_SHOWN = 10


class ContextualRelevancySpec(JudgedSpecBase):
    # actual_output plays no part in the score, so (unlike deepeval) it is not required.
    required_fields: ClassVar[tuple[TestCaseField, ...]] = ("input", "retrieval_context")

    type: Literal["contextual_relevancy"]


class StatementVerdict(BaseModel):
    statement: str
    verdict: _verdicts.YesNoIdk
    reason: str | None = None


class NodeVerdicts(BaseModel):
    node: ItemNumber
    verdicts: list[StatementVerdict]

    @field_validator("verdicts")
    @classmethod
    def _readable(cls, items: list[StatementVerdict]) -> list[StatementVerdict]:
        _verdicts.refuse_unreadable(
            [item.verdict for item in items if item.statement.strip()], VERDICTS
        )
        return items


class Nodes(BaseModel):
    model_config = ConfigDict(title="contextual_relevancy_verdicts")
    nodes: list[NodeVerdicts]
    # The retrieval context's node kinds in order ("text", "image"), set per subclass.
    kinds: ClassVar[tuple[str, ...]] = ()

    @model_validator(mode="after")
    def _every_node_once(self) -> "Nodes":
        expected = range(1, len(self.kinds) + 1)
        missing, unknown, repeated = _verdicts.misfits((item.node for item in self.nodes), expected)
        problems = []
        if missing:
            problems.append(f"no verdicts for node(s) {_verdicts.some(missing)}")
        if unknown:
            problems.append(f"verdicts for node(s) {_verdicts.some(unknown)}, which do not exist")
        if repeated:
            problems.append(f"node(s) {_verdicts.some(repeated)} answered more than once")
        # An image is one statement: more verdicts would weigh it more, none drop it. A node
        # answered more than once is said above, so its answers are not each counted here.
        miscounted = [
            f"{stated} verdict(s) for image node {number}, not 1"
            for number, stated in self._image_statements(set(repeated))
            if stated != 1
        ]
        problems += miscounted[:_SHOWN]
        if len(miscounted) > _SHOWN:
            problems.append(f"and {len(miscounted) - _SHOWN} more image nodes")
        if problems:
            raise MismatchedAnswer(
                f"{'; '.join(problems)} (of {len(self.kinds)} nodes); answer every "
                "retrieval-context node once, by its number"
            )
        return self

    def _image_statements(self, repeated: set[int]) -> list[tuple[int, int]]:
        """Each image node answered once, with the statements its verdicts judge."""
        return [
            (item.node, sum(1 for v in item.verdicts if v.statement.strip()))
            for item in self.nodes
            if 1 <= item.node <= len(self.kinds)
            and self.kinds[item.node - 1] == "image"
            and item.node not in repeated
        ]


@lru_cache(maxsize=256)
def _schema(with_reason: bool, kinds: tuple[str, ...]) -> type[BaseModel]:
    namespace: dict = {"model_config": ConfigDict(title="contextual_relevancy_verdicts")}
    namespace["kinds"] = kinds
    if with_reason:
        namespace["__annotations__"] = {"reason": str}
    return type("contextual_relevancy_verdicts", (Nodes,), namespace)


def _prompt(with_reason: bool, shows_images: bool) -> str:
    rules = render.IMAGE_RULES if shows_images else ""
    reason = (
        ' Finally give "reason": one or two sentences on how relevant the retrieval context is '
        "to the input, quoting what is and is not."
        if with_reason
        else ""
    )
    shape = (
        '{"nodes": [{"node": 1, "verdicts": [{"statement": "...", "verdict": "yes|no|idk", '
        '"reason": "..."}]}]' + (', "reason": "..."}' if with_reason else "}")
    )
    return (
        "Loupe task: contextual_relevancy_verdicts\n"
        "For each node of the retrieval context, by its number: if it is text, break it into "
        "its statements (short, self-contained sentences); if it is an image, the image is one "
        "statement, described in a few words. Judge every statement: `yes` if it is relevant "
        "to answering the input, `no` if it is not, `idk` if you cannot tell. A `no` or `idk` "
        "needs a short reason quoting the irrelevant part. A node is either text or an image, "
        f"never both. {rules}{reason}\nAnswer with JSON only: {shape}"
    )


def _stated(items: list[dict]) -> list[dict]:
    """A node's verdicts on non-blank statements."""
    return [item for item in items if item["statement"].strip()]


def _messages(spec: ContextualRelevancySpec, case: MetricTestCase, nodes: list[dict]) -> list:
    parts = [
        *render.field_parts(case, "input"),
        *render.numbered_nodes("Retrieval Context", nodes),
    ]
    return render.messages(_prompt(spec.include_reason, render.is_multimodal(parts)), parts)


def plan(spec: ContextualRelevancySpec, case: MetricTestCase) -> list[PlannedCall]:
    """One call, none for an empty retrieval context. Completion: every node's statements
    restated, about 12 tokens of verdict and reason each (an image node is one), and the
    overall reason (about 50 tokens)."""
    nodes = render.nodes(case.retrieval_context)
    if not nodes:
        return []
    statements = sentences(text_of_parts(nodes))
    images = sum(node.get("type") == "image_url" for node in nodes)
    completion = Completion(
        fixed=8 + (50 if spec.include_reason else 0) + 6 * len(nodes),
        per_item=12,
        items=len(statements) + images,
        echoed=tuple(statements),
    )
    return [PlannedCall("contextual_relevancy_verdicts", _messages(spec, case, nodes), completion)]


async def measure(
    spec: ContextualRelevancySpec, case: MetricTestCase, ctx: MetricContext
) -> MetricResult:
    """One judge call: verdicts per node (one per image node) and the reason."""

    async def body(judge: JudgeSession) -> MetricResult:
        nodes = render.nodes(case.retrieval_context)
        if not nodes:
            reason = "The retrieval context is empty." if spec.include_reason else None
            return strict_result(spec, 0.0, reason, {"nodes": []})
        kinds = tuple("image" if node.get("type") == "image_url" else "text" for node in nodes)
        reply = await judge.ask(
            "verdicts",
            _messages(spec, case, nodes),
            _schema(spec.include_reason, kinds),
        )
        answered = {item["node"]: item["verdicts"] for item in reply.data["nodes"]}
        passages = render.passages(case.retrieval_context)
        per_node = []
        for number, kind in enumerate(kinds, start=1):
            kept, _ = _verdicts.normalise_verdicts(_stated(answered[number]), VERDICTS)
            per_node.append(
                {"node": number, "passage": passages[number - 1], "kind": kind, "verdicts": kept}
            )
        verdicts = [v for node in per_node for v in node["verdicts"]]
        score = sum(v["verdict"] == "yes" for v in verdicts) / len(verdicts) if verdicts else 0.0
        reason = reply.data.get("reason") if spec.include_reason else None
        logs = {"nodes": per_node}
        return strict_result(spec, score, reason, logs)

    return await run_judged(spec, ctx, body)
