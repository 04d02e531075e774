"""A metric's judge calls for one test case, planned without calling anyone (for estimates).

Each judged metric module has a `plan(spec, case)` beside its `measure`: the calls `measure`
makes when the judge answers in full, built from the same prompts. Where a prompt holds what
an earlier answer said (a G-Eval's generated steps, a context's truths), a typical answer
stands in; where a call is made only on some answers, the plan is what a full answer costs.
"""

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Completion:
    """What the judge is expected to write: `fixed` tokens, `per_item` for each of `items`
    (a verdict, a step), and the tokens of `echoed` texts it restates (claims, truths)."""

    fixed: int
    per_item: int = 0
    items: int = 0
    echoed: tuple[str, ...] = ()


@dataclass(frozen=True)
class PlannedCall:
    """One judge call: its task, its messages as sent, and what its answer costs."""

    task: str
    messages: list[dict[str, Any]]
    completion: Completion
    # Made once per evaluation and judge for every case and metric asking it (steps, truths):
    # the key without the judge's model, which the estimate adds.
    shared: tuple[Any, ...] | None = None
    # An /embeddings call (text_similarity's cosine): its texts are the prompt, nothing is written.
    embedding: bool = False
    texts: tuple[str, ...] = field(default=())


def sentences(text: str) -> list[str]:
    """A text's sentences, roughly (a judge restating it answers about this many)."""
    found = [part.strip() for part in text.replace("\n", ". ").split(". ")]
    return [sentence for sentence in found if sentence]


def text_of_parts(parts: list[dict[str, Any]]) -> str:
    """The text of message parts, images left out."""
    return "\n".join(part["text"] for part in parts if part.get("type") == "text")
