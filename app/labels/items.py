"""What a label is about: the judged item's content, hashed into its `item_key`.

A label belongs to the content a judge saw, not to a result row: the same content submitted
again (a re-run, another evaluation) has the same key, so a label given once is found by every
result of the same metric version on it, and outlives the evaluation it was given on.
"""

import hashlib
import json
from typing import Any

# The judged content of a stored test case, in a fixed order: a run's messages count too, and
# a conversation's turns (when the case has them). A field absent or null is left out, so a
# field added later changes no key already given.
ITEM_FIELDS = (
    "input",
    "actual_output",
    "expected_output",
    "context",
    "retrieval_context",
    "messages",
    "turns",
    "scenario",
    "expected_outcome",
    "chatbot_role",
    "user_description",
    "tools_called",
    "expected_tools",
)


def _content(value: Any) -> Any:
    """`value` without what is about the upload rather than the content: an image part keeps
    its blob reference (`blob:sha256:…`) and drops `blob` (where it came from, its sizes)."""
    if isinstance(value, dict):
        return {name: _content(part) for name, part in value.items() if name != "blob"}
    if isinstance(value, list):
        return [_content(part) for part in value]
    return value


def item_content(test_case: Any) -> dict[str, Any]:
    """The judged content of a stored test case (a row or anything with its fields)."""
    content = {}
    for name in ITEM_FIELDS:
        value = getattr(test_case, name, None)
        if value is not None:
            content[name] = _content(value)
    return content


def item_key(test_case: Any) -> str:
    """sha256 (hex) of the canonical JSON of the test case's judged content: the same content,
    the same key, whichever evaluation holds it."""
    canonical = json.dumps(
        item_content(test_case), sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    return hashlib.sha256(canonical.encode()).hexdigest()
