"""What a caller without `read` sees of a change's answer: the object in its documented shape,
its scores left out. A key with `write` alone creates, cancels, closes and reruns evaluations,
runs, eval runs and comparisons, and each of those answers carried the judge's scores (a
comparison's per-metric verdicts, an evaluation's means) that the key could not GET.

The shape is kept (a typed client, the SDKs' included, parses the answer as it would any
other): the fields that hold scores are emptied, and the header `Loupe-Withheld: read` says
so. Counts of results (`result_counts`) are progress and stay."""

from collections.abc import Mapping
from typing import Any

import orjson
from starlette.responses import Response

# Per object, its fields that hold scores and what they read as when withheld (each a value its
# schema allows: an empty list, or null where the field is null until it has scores): the
# core's objects here, each kind's from the registry (`use`, app/kinds.py).
WITHHELD: dict[str, dict[str, Any]] = {
    "evaluation": {"per_metric": []},
    "comparison": {"metrics": []},
}


def use(kinds: Mapping[str, Mapping[str, Any]]) -> None:
    """Add the kinds' objects and their fields that hold scores (at start-up)."""
    for name, fields in kinds.items():
        WITHHELD[name] = dict(fields)


# The answer's header naming the scope that would show the rest.
HEADER = "Loupe-Withheld"


def without_scores(body: dict[str, Any]) -> dict[str, Any]:
    """A scored object's answer with its scores emptied."""
    return {
        **body,
        **{name: value for name, value in WITHHELD[body["object"]].items() if name in body},
    }


def withheld(response: Response) -> Response:
    """`response` with a scored object's scores emptied (other answers as they are)."""
    body = getattr(response, "body", None)
    if not body or response.media_type != "application/json":
        return response
    try:
        content = orjson.loads(body)
    except orjson.JSONDecodeError:
        return response
    if not isinstance(content, dict) or content.get("object") not in WITHHELD:
        return response
    headers = {
        name: value
        for name, value in response.headers.items()
        if name.lower() not in ("content-length", "content-type")
    }
    headers[HEADER] = "read"
    return Response(
        orjson.dumps(without_scores(content)),
        status_code=response.status_code,
        headers=headers,
        media_type="application/json",
        background=response.background,
    )
