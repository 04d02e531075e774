"""Pull the JSON object out of what a judge wrote (fences, prose, trailing commas)."""

import json
import re
from typing import Any

_TRAILING_COMMA = re.compile(r",\s*([\]}])")


class JSONExtractionError(ValueError):
    pass


def extract_json_object(text: str | None) -> dict[str, Any]:
    """The first-to-last-brace JSON object in `text`; raises JSONExtractionError."""
    if not text:
        raise JSONExtractionError("the judge returned no content")
    start = text.find("{")
    if start == -1:
        raise JSONExtractionError("the judge's reply contains no JSON object")
    end = text.rfind("}")
    candidate = text[start : end + 1] if end > start else text[start:] + "}"
    for attempt in (candidate, _TRAILING_COMMA.sub(r"\1", candidate)):
        try:
            value = json.loads(attempt)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            return value
        raise JSONExtractionError("the judge's reply is JSON but not an object")
    raise JSONExtractionError("the judge's reply is not valid JSON")
