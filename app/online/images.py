"""A held conversation's images: the ones the media pipeline refuses left out of their turn
(the conversation judged without them), and the held calls pointed at what was stored.

The address policy stays whole: a refused image is never fetched by another way, only left
out; the turn keeps its text, and its `metadata.images_dropped` says which image and why."""

from typing import Any

from app.media.ingest import Intake
from app.media.store import reference
from app.problems import format_pointer

# Where a turn's content sits in the one-case contents given to `take_in`.
_TURNS = ["test_cases", 0, "turns"]


def drop_refused(case: dict[str, Any], intake: Intake) -> int | None:
    """Leave every refused image out of its turn of `case` and out of `intake` (so the rest
    is stored); how many were left out, or None if something other than a turn's image was
    refused (the conversation is then refused whole, as before)."""
    if not intake.errors:
        return 0
    why = {error.pointer: error for error in intake.errors}
    if any(source.url not in intake.clips for source in intake.audio_sources):
        return None
    refused: dict[int, list[tuple[int, dict[str, Any], Any]]] = {}
    for source in intake.sources:
        if source.url in intake.images:
            continue
        for _, path, part in source.uses:
            error = why.get(format_pointer(path))
            if error is None or len(path) < 6 or path[:3] != _TURNS or path[4] != "content":
                return None
            refused.setdefault(int(path[3]), []).append((int(path[5]), part, error))
    for number, parts in refused.items():
        _leave_out(case["turns"][number], parts)
    intake.sources = [source for source in intake.sources if source.url in intake.images]
    intake.errors = []
    dropped = sum(len(parts) for parts in refused.values())
    case["metadata_"]["images_dropped"] = dropped
    return dropped


def _leave_out(turn: dict[str, Any], parts: list[tuple[int, dict[str, Any], Any]]) -> None:
    """Take the refused parts out of the turn's content; note each in its metadata by its
    number among the turn's images (1 for the first)."""
    content = turn["content"]
    gone = {id(part) for _, part, _ in parts}
    numbers = {}
    seen = 0
    for part in content:
        if isinstance(part, dict) and part.get("type") == "image_url":
            seen += 1
            numbers[id(part)] = seen
    turn.setdefault("metadata", {})["images_dropped"] = [
        {"image": numbers[id(part)], "type": error.type, "reason": error.msg}
        for _, part, error in sorted(parts, key=lambda item: item[0])
    ]
    kept = [part for part in content if id(part) not in gone]
    if all(isinstance(part, dict) and part.get("type") == "text" for part in kept):
        # Text alone reads as text (no image left to place it beside).
        turn["content"] = "\n".join(str(part.get("text") or "") for part in kept)
    else:
        turn["content"] = kept


def stored_references(intake: Intake) -> dict[str, str]:
    """Each image URL taken in, by the `blob:sha256:` reference of what was stored."""
    return {
        source.url: reference(intake.images[source.url].sha256)
        for source in intake.sources
        if source.url in intake.images
    }


def with_stored(exchange: dict[str, Any], stored: dict[str, str]) -> dict[str, Any]:
    """A held call's exchange with its images that were stored as references to them: a
    resumed conversation reads them from the store, never fetching or decoding them again."""
    if not stored:
        return exchange
    inputs = [
        {**item, "user": [_stored_part(part, stored) for part in item["user"]]}
        if isinstance(item.get("user"), list)
        else item
        for item in exchange.get("inputs") or []
    ]
    return {**exchange, "inputs": inputs}


def _stored_part(part: Any, stored: dict[str, str]) -> Any:
    if not (isinstance(part, dict) and part.get("type") == "image_url"):
        return part
    url = (part.get("image_url") or {}).get("url")
    if url not in stored:
        return part
    return {**part, "image_url": {**part["image_url"], "url": stored[url]}}
