"""Which images a metric showed its judge (or read itself), for its result's `logs.media`.

A job scores each (test case, metric) inside `watching()`; every judge call made meanwhile
(cached, shared or not) and every image a reference metric decodes adds its digest. A context
variable, not a field of `MetricContext`: one context serves every metric on a judge at once.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

_SEEN: ContextVar[set[str] | None] = ContextVar("loupe_media_seen", default=None)
# A stored image that could not be loaded still reaches the judge by its reference.
_BLOB_PREFIX = "blob:sha256:"


@contextmanager
def watching() -> Iterator[set[str]]:
    """What was shown while the block runs (tasks it starts included): `field:<place>` for an
    image of the test case (`field:actual_output[1]`), its digest for one shown without a place."""
    seen: set[str] = set()
    token = _SEEN.set(seen)
    try:
        yield seen
    finally:
        _SEEN.reset(token)


def record(content: Any) -> None:
    """Note every image in `content` (chat messages, a content value or parts) as shown."""
    seen = _SEEN.get()
    if seen is None:
        return
    stack = [content]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            if item.get("type") == "image_url":
                if item.get("case_field"):
                    # Its place in the test case: the same image elsewhere was not shown.
                    seen.add(f"field:{item['case_field']}")
                    continue
                url = str((item.get("image_url") or {}).get("url") or "")
                digest = item.get("sha256") or (
                    url[len(_BLOB_PREFIX) :] if url.startswith(_BLOB_PREFIX) else None
                )
                if digest:
                    seen.add(digest)
            elif "content" in item:
                stack.append(item["content"])
