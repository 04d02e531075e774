"""What a reviewer without `read` may load: the images and audio of the test cases they hold
or labelled, and nothing else of the team's (`GET /v1/media/{sha256}` and the console's media
route ask here for a `review` caller)."""

from typing import Any

from sqlalchemy.orm import Session

from app.media.links import with_media_urls
from app.models import TestCase
from app.review.repository import ReviewQueueRepository


def may_load(session: Session, tenant_id: str, actor: str, sha256: str) -> bool:
    """Whether a test case of an item `actor` holds or labelled references the blob."""
    cases = ReviewQueueRepository(session, tenant_id).held_cases_naming(actor, sha256.lower())
    return any(sha256.lower() in _digests(case) for case in cases)


def _digests(case: TestCase) -> set[str]:
    """Every blob a test case's content references, as its media URLs would name them."""
    found: set[str] = set()

    def collect(digest: str) -> str:
        found.add(digest)
        return digest

    contents: list[Any] = [
        case.input,
        case.actual_output,
        case.expected_output,
        case.context,
        case.retrieval_context,
    ]
    contents += [
        value
        for turn in case.turns or []
        for value in (turn.get("content"), turn.get("retrieval_context"))
    ]
    for content in contents:
        with_media_urls(content, collect)
    return found
