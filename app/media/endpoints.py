"""The media API: images and audio clips the caller's rows reference."""

from typing import Annotated

from fastapi import APIRouter, Header, Response

from app.api.deps import CallerDep, SessionDep
from app.media.serving import blob_response, not_found
from app.problems import problem_responses
from app.review import access
from app.tenants.scopes import READ, READ_OR_REVIEW

router = APIRouter(prefix="/v1/media", tags=["media"], responses=problem_responses(401, 403, 404))


@router.get(
    "/{sha256}",
    response_class=Response,
    responses={
        # Declared as bytes for SDK generators; the Content-Type says which image or audio.
        200: {
            "description": "The blob's bytes (`image/png`, `image/jpeg`, ..., `audio/wav`).",
            "content": {
                "application/octet-stream": {"schema": {"type": "string", "format": "binary"}}
            },
        },
        304: {"description": "Not modified (`If-None-Match` names the current ETag)."},
    },
    openapi_extra=READ_OR_REVIEW,
)
def get_media(
    sha256: str,
    session: SessionDep,
    caller: CallerDep,
    if_none_match: Annotated[str | None, Header()] = None,
) -> Response:
    """A stored image or audio clip by SHA-256, if one of the caller's test cases or dataset
    rows references it (404 otherwise); cacheable forever, with an ETag. A key with `review`
    but not `read` loads only the media of the review items it holds or labelled."""
    if not caller.may(READ) and not access.may_load(
        session, caller.tenant.id, caller.actor, sha256
    ):
        raise not_found(sha256)
    return blob_response(session, caller.tenant.id, sha256, if_none_match)
