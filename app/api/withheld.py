"""What a caller without `read` sees of a change's answer: the object's receipt (its `object`,
`id`, `status` and the ids it was made of), never its scores. A key with `write` alone creates,
cancels, closes and reruns evaluations, runs, eval runs and comparisons, and each of those
answers carried the judge's scores (a comparison's per-metric verdicts, an evaluation's means)
that the key could not GET."""

from typing import Any

import orjson
from starlette.responses import Response

# The answers whose bodies carry scores: an evaluation's (and a run's, an alignment's)
# per-metric summaries, an eval run's counts per criterion, a comparison's verdicts.
SCORED = frozenset({"evaluation", "run", "eval.run", "alignment", "comparison"})
# What a receipt keeps: what the object is, where it stands, and what the caller named.
KEPT = (
    "object",
    "id",
    "kind",
    "status",
    "created_at",
    "eval_id",
    "baseline_id",
    "candidate_id",
)
# The answer's header naming the scope that would show the rest.
HEADER = "Loupe-Withheld"


def receipt(body: dict[str, Any]) -> dict[str, Any]:
    """The receipt of a scored object's answer."""
    return {name: body[name] for name in KEPT if name in body}


def withheld(response: Response) -> Response:
    """`response` with a scored object's body cut to its receipt (other answers as they are)."""
    body = getattr(response, "body", None)
    if not body or response.media_type != "application/json":
        return response
    try:
        content = orjson.loads(body)
    except orjson.JSONDecodeError:
        return response
    if not isinstance(content, dict) or content.get("object") not in SCORED:
        return response
    headers = {
        name: value
        for name, value in response.headers.items()
        if name.lower() not in ("content-length", "content-type")
    }
    headers[HEADER] = "read"
    return Response(
        orjson.dumps(receipt(content)),
        status_code=response.status_code,
        headers=headers,
        media_type="application/json",
        background=response.background,
    )
