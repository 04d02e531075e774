"""Splitting labelled items into a proposal share and a held-out share, seeded and grouped.

Items that share an image (the same blob, whichever field holds it) or a conversation (their
test cases' metadata names the same `conversation_id`, as an online rule's judged calls of one
chat do) form one group with their item keys, so one image or conversation never sits on both
sides: a candidate shown one as an example is never scored on it.
"""

import random
from collections.abc import Iterable, Mapping
from typing import Any

BLOB_PREFIX = "blob:sha256:"


def blobs_of(content: Any) -> set[str]:
    """The blob references (`blob:sha256:…`) anywhere in an item's content."""
    found: set[str] = set()
    stack = [content]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            if value.startswith(BLOB_PREFIX):
                found.add(value)
        elif isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return found


def conversation_marks(metadata: Any) -> set[str]:
    """The mark of the conversation a test case's metadata names (`conversation_id`), if any."""
    found = metadata.get("conversation_id") if isinstance(metadata, dict) else None
    return {f"conversation:{found}"} if isinstance(found, str) and found else set()


def groups(items: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """Item keys grouped so that items sharing a mark (a blob, a conversation) are in one
    group (union-find), each group sorted, the groups in the order of their first key."""
    parent = {key: key for key in items}

    def root(key: str) -> str:
        while parent[key] != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    owner: dict[str, str] = {}
    for key in sorted(items):
        for blob in items[key]:
            if blob in owner:
                parent[root(key)] = root(owner[blob])
            else:
                owner[blob] = key
    grouped: dict[str, list[str]] = {}
    for key in sorted(items):
        grouped.setdefault(root(key), []).append(key)
    return sorted(grouped.values(), key=lambda group: group[0])


def split(
    items: Mapping[str, Iterable[str]], held_out_share: float, seed: int
) -> tuple[list[str], list[str]]:
    """(proposal keys, held-out keys): whole groups, shuffled by `seed`, held out until the
    held-out share reaches `held_out_share` of the items; each side sorted."""
    shuffled = groups(items)
    random.Random(seed).shuffle(shuffled)
    wanted = round(held_out_share * len(items))
    proposal: list[str] = []
    held_out: list[str] = []
    for group in shuffled:
        (held_out if len(held_out) < wanted else proposal).extend(group)
    return sorted(proposal), sorted(held_out)
