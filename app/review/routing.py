"""Why an item is offered to people: near the threshold, fragile, among the lowest scores, or
drawn into the random audit share. Pure functions of the scores and the queue's routing."""

import hashlib
import math
from collections.abc import Mapping, Sequence
from typing import Any

# Routed reasons, in the order an item is tested for them (the first that fits is its reason).
ROUTED = ("near_threshold", "fragile", "lowest")
AUDIT = "audit"
# Claims offer routed items first, then the audit share; items routing passed over never.
PRIORITY = {**dict.fromkeys(ROUTED, 0), AUDIT: 1, None: 2}


def audit_draw(queue_id: str, result_id: str) -> float:
    """A number in [0, 1) fixed for the item in the queue: the audit share takes the items
    drawing below it, the same ones every time they are looked at."""
    digest = hashlib.sha256(f"{queue_id}\x00{result_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def lowest_cutoff(scores: Sequence[float], share: float) -> float | None:
    """The highest score among the lowest `share` of `scores` (at least one item; ties with it
    are in too), or None without scores."""
    if not scores:
        return None
    count = max(1, math.ceil(share * len(scores) - 1e-9))
    return sorted(scores)[count - 1]


def reason(
    routing: Mapping[str, Any],
    score: float,
    threshold: float | None,
    fragile: bool | None,
    cutoff: float | None,
    draw: float,
) -> str | None:
    """Why the item is offered (`near_threshold`, `fragile`, `lowest`, `audit`), or None.

    Args:
        cutoff: `lowest_cutoff` of the queue's scores (None: no `lowest` routing).
        draw: the item's `audit_draw`.
    """
    near = routing.get("near_threshold")
    if near and threshold is not None and abs(score - threshold) <= near["width"] + 1e-12:
        return "near_threshold"
    if routing.get("fragile") and fragile:
        return "fragile"
    if routing.get("lowest") and cutoff is not None and score <= cutoff:
        return "lowest"
    if draw < float(routing.get("audit_share") or 0):
        return AUDIT
    return None
