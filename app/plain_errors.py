"""pydantic's validation messages in the words a client reads: its own where they already say
what to send, a plainer sentence where they speak of pydantic's machinery."""

from collections.abc import Mapping
from typing import Any

# A value that is not an object where one is expected: pydantic says "Input should be a valid
# dictionary or object to extract fields from", which names Python's types, not JSON's.
_NOT_AN_OBJECT = frozenset({"model_attributes_type", "model_type", "dict_type"})


def pydantic_message(error: Mapping[str, Any]) -> str:
    """A pydantic error's message, without the `Value error, ` pydantic puts before a
    validator's own words (they are written for the client as they stand)."""
    kind, ctx = error.get("type"), error.get("ctx") or {}
    if kind in _NOT_AN_OBJECT:
        return "must be a JSON object"
    if kind == "extra_forbidden":
        # "Extra inputs are not permitted": "inputs" read as a test case's `input`.
        return "unknown field: the object here takes no such member (check its spelling)"
    if kind == "union_tag_invalid":
        # "Input tag 'GEval' found using 'type' does not match any of the expected tags".
        return f"unknown value {str(ctx.get('tag'))!r}; use one of {ctx.get('expected_tags')}"
    if kind == "union_tag_not_found":
        # "Unable to extract tag using discriminator 'type'": the field that says which is absent.
        return "Field required"
    message = str(error.get("msg", "invalid"))
    for prefix in ("Value error, ", "Assertion failed, "):
        message = message.removeprefix(prefix)
    if message.startswith("Input should be "):
        # The value at the field named beside it, not a test case's `input`.
        message = "must be " + message.removeprefix("Input should be ")
    return message
