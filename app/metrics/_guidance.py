"""Guidance a judged metric's verdict prompts carry: people's worked examples and rubric notes.

A spec's optional `guidance` (usually proposed by an alignment from labelled disagreements) is
written into every verdict call the metric makes, after the metric's own instructions. It is one
of the spec's options, so a metric with guidance is a different metric version from one without.
Calls shared between metrics (G-Eval's steps, faithfulness's claims) are not verdicts and do not
carry it, so their shared answers stay shared.
"""

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

# Bounds that keep a prompt's guidance to a few thousand tokens.
MAX_EXAMPLES = 8
MAX_EXAMPLE_FIELD_CHARS = 2_000
MAX_NOTES_CHARS = 4_000


class GuidanceExample(BaseModel):
    """One item people judged, shown to the judge as a worked example."""

    model_config = ConfigDict(extra="forbid")

    input: str | None = Field(None, max_length=MAX_EXAMPLE_FIELD_CHARS)
    actual_output: str | None = Field(None, max_length=MAX_EXAMPLE_FIELD_CHARS)
    verdict: str = Field(
        min_length=1,
        max_length=200,
        description="The people's verdict, e.g. `fail` or `pass (0.8)`.",
    )
    rationale: str | None = Field(
        None, max_length=MAX_EXAMPLE_FIELD_CHARS, description="Why, in the people's words."
    )


class Guidance(BaseModel):
    """Worked examples and rubric notes added to the metric's verdict prompts."""

    model_config = ConfigDict(extra="forbid")

    examples: list[GuidanceExample] = Field(default_factory=list, max_length=MAX_EXAMPLES)
    notes: str | None = Field(None, max_length=MAX_NOTES_CHARS)


def guidance_text(guidance: Guidance) -> str:
    """The words a verdict prompt gains from `guidance` ('' when it holds nothing)."""
    lines: list[str] = []
    if guidance.notes:
        lines += ["Rubric notes from the people who review these verdicts:", guidance.notes]
    for number, example in enumerate(guidance.examples, start=1):
        lines.append(f"Reviewed example {number}:")
        if example.input is not None:
            lines.append(f"Input: {example.input}")
        if example.actual_output is not None:
            lines.append(f"Actual Output: {example.actual_output}")
        lines.append(f"People's verdict: {example.verdict}")
        if example.rationale:
            lines.append(f"Their reason: {example.rationale}")
    if not lines:
        return ""
    head = (
        "Guidance: people reviewed earlier verdicts of this check and disagreed with some. "
        "Weigh the test case the way they did; the answer format above stays as it is."
    )
    return "\n".join([head, *lines])


def with_guidance(
    messages: list[dict[str, Any]], guidance: Guidance | None
) -> list[dict[str, Any]]:
    """`messages` with the guidance appended to their leading system message (or given one of
    its own in front when they start otherwise)."""
    words = guidance_text(guidance) if guidance is not None else ""
    if not words or not messages:
        return messages
    first = messages[0]
    if first.get("role") == "system" and isinstance(first.get("content"), str):
        return [{**first, "content": f"{first['content']}\n\n{words}"}, *messages[1:]]
    return [{"role": "system", "content": words}, *messages]
