"""What a reviewer without `read` may load: the images and audio of the test cases they hold
or labelled, and nothing else of the team's (`GET /v1/media/{sha256}` and the console's media
route ask here for a `review` caller)."""

from sqlalchemy.orm import Session

from app.media import gc
from app.review.repository import ReviewQueueRepository


def may_load(session: Session, tenant_id: str, actor: str, sha256: str) -> bool:
    """Whether a test case of an item `actor` holds or labelled references the blob."""
    digest = sha256.lower()
    cases = ReviewQueueRepository(session, tenant_id).held_cases_naming(actor, digest)
    return any(
        digest in gc.references(getattr(case, column) for column in gc.CASE_COLUMNS)
        for case in cases
    )
