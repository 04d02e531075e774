"""Turn test-case content into judge message parts (text and images interleaved)."""

from typing import Any

from app.metrics._types import MetricTestCase

LABELS = {
    "input": "Input",
    "actual_output": "Actual Output",
    "expected_output": "Expected Output",
    "context": "Context",
    "retrieval_context": "Retrieval Context",
}

Parts = list[dict[str, Any]]


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


def content_parts(content: Any) -> Parts:
    """A content value (string or list of parts) as API parts."""
    if content is None:
        return []
    if isinstance(content, str):
        return [text(content)]
    parts: Parts = []
    for part in content:
        if isinstance(part, str):
            parts.append(text(part))
        else:
            parts.append(part)
    return parts


def _passage_nodes(context: list[Any] | None) -> list[tuple[int, dict[str, Any]]]:
    """(passage number from 1, node) for every node of a context, in order."""
    out: list[tuple[int, dict[str, Any]]] = []
    for passage, node in enumerate(context or [], start=1):
        pending: list[str] = []
        for part in content_parts(node):
            if part.get("type") == "text":
                pending.append(part["text"])
                continue
            if pending:
                out.append((passage, text("\n".join(pending))))
                pending = []
            out.append((passage, part))
        if pending:
            out.append((passage, text("\n".join(pending))))
    return out


def nodes(context: list[Any] | None) -> list[dict[str, Any]]:
    """Context nodes in order; each text run and each image of a node is its own node."""
    return [node for _, node in _passage_nodes(context)]


def passages(context: list[Any] | None) -> list[int]:
    """For each node `nodes` gives, the submitted passage (item of the context, numbered from
    1 as the console lists them) it comes from: a caption and its image are two nodes of one
    passage, and an empty list of parts is a passage with no node."""
    return [passage for passage, _ in _passage_nodes(context)]


def node_name(number: int, passage: int, kind: str) -> str:
    """A node as reasons name it, findable in what was submitted: "node 3 (passage 2, image)"."""
    return f"node {number} (passage {passage}, {kind})"


def numbered_nodes(label: str, context_nodes: list[dict[str, Any]]) -> Parts:
    parts: Parts = [text(f"{label} ({len(context_nodes)} nodes):")]
    for number, node in enumerate(context_nodes, start=1):
        if node.get("type") == "text":
            parts.append(text(f"Node {number}: {node['text']}"))
        else:
            parts.append(text(f"Node {number} (image):"))
            parts.append(node)
    return parts


def field_parts(case: MetricTestCase, field: str) -> Parts:
    """One labelled test-case field."""
    value = getattr(case, field)
    if field in ("context", "retrieval_context"):
        return numbered_nodes(LABELS[field], nodes(value))
    return [text(f"{LABELS[field]}:"), *content_parts(value)]


def merge_text(parts: Parts) -> Parts:
    """Adjacent text parts joined with newlines: fewer, larger parts for the judge."""
    merged: Parts = []
    run: Parts = []
    for part in [*parts, None]:
        if part is not None and part.get("type") == "text":
            run.append(part)
            continue
        # Joined once per run: adding each text to the last made prompts of many turns (a
        # conversation's window) quadratic in their length.
        if len(run) == 1:
            merged.append(dict(run[0]))
        elif run:
            merged.append(text("\n".join(each["text"] for each in run)))
        run = []
        if part is not None:
            merged.append(part)
    return merged


def text_size(parts: Parts) -> int:
    """The characters of the texts `merge_text(parts)` gives, without joining them."""
    size = 0
    after_text = False
    for part in parts:
        is_text = part.get("type") == "text"
        if is_text:
            size += len(part["text"]) + after_text  # the newline joining it to the text before
        after_text = is_text
    return size


def messages(instructions: str, parts: Parts) -> list[dict[str, Any]]:
    """A system message of instructions and a user message of content."""
    user = merge_text(parts)
    content: Any = user[0]["text"] if len(user) == 1 and user[0]["type"] == "text" else user
    return [
        {"role": "system", "content": instructions},
        {"role": "user", "content": content},
    ]


def is_multimodal(parts: Parts) -> bool:
    return any(part.get("type") == "image_url" for part in parts)


def case_has_images(case: MetricTestCase) -> bool:
    """True when any field of the case holds an image (deepeval's `multimodal` test case)."""
    return any(is_multimodal(field_parts(case, field)) for field in LABELS)


IMAGE_RULES = (
    "Images count as evidence. Rely only on details that are clearly visible in them; do not "
    "guess at what an image might show, and say so when an image is unclear."
)


def segments(content: Any) -> Parts:
    """A content value as alternating text and image parts: adjacent texts joined as written."""
    out: Parts = []
    for part in content_parts(content):
        if part.get("type") == "text" and out and out[-1].get("type") == "text":
            out[-1] = text(out[-1]["text"] + part["text"])
        else:
            out.append(dict(part) if part.get("type") == "text" else part)
    return out


def images(content: Any) -> Parts:
    """The image parts of a content value, in order."""
    return [part for part in content_parts(content) if part.get("type") == "image_url"]


def count_images(content: Any) -> int:
    """Images in submitted content: dict parts or the API's validated part models."""
    if content is None or isinstance(content, str):
        return 0
    count = 0
    for part in content:
        kind = part.get("type") if isinstance(part, dict) else getattr(part, "type", None)
        count += kind == "image_url"
    return count
