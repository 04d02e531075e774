"""Answer a request for a stored blob, for the API and the console alike."""

from fastapi import Response
from sqlalchemy.orm import Session

from app import problems
from app.media.store import owned_blob
from app.problems import ProblemError

# Content-addressed: the bytes at a digest never change. `private`: the answer depends on who
# asks (shared caches must not hand one tenant's image to another).
CACHE_CONTROL = "private, max-age=31536000, immutable"


def blob_response(
    session: Session, tenant_id: str, sha256: str, if_none_match: str | None
) -> Response:
    """The blob's bytes with its type, ETag and Cache-Control; 304 when the ETag matches.

    404 unless the tenant's own rows reference the blob, whether or not it exists.
    """
    blob = owned_blob(session, tenant_id, sha256.lower()) if len(sha256) == 64 else None
    if blob is None:
        raise not_found(sha256)
    etag = f'"{blob.sha256}"'
    headers = {
        "ETag": etag,
        "Cache-Control": CACHE_CONTROL,
        "X-Content-Type-Options": "nosniff",
    }
    if if_none_match is not None and _matches(if_none_match, etag):
        return Response(status_code=304, headers=headers)
    return Response(bytes(blob.data), media_type=blob.media_type, headers=headers)


def not_found(sha256: str) -> ProblemError:
    """The 404 for a blob the caller may not load, whether or not it exists."""
    return problems.not_found(f"No media {sha256[:80]!r}.", field=["path", "sha256"])


def _matches(if_none_match: str, etag: str) -> bool:
    """RFC 9110 If-None-Match: `*`, or a listed tag equal to ours by weak comparison (a
    cache may hold our tag as `W/"..."`)."""
    tags = [tag.strip() for tag in if_none_match.split(",")]
    return "*" in tags or etag in (tag.removeprefix("W/") for tag in tags)
