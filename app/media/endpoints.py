"""The media API: images and audio clips the caller's rows reference."""

from typing import Annotated

from fastapi import APIRouter, Header, Response

from app.api.deps import SessionDep, TenantDep
from app.media.serving import blob_response
from app.problems import problem_responses

router = APIRouter(prefix="/v1/media", tags=["media"], responses=problem_responses(401, 404))


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
)
def get_media(
    sha256: str,
    session: SessionDep,
    tenant: TenantDep,
    if_none_match: Annotated[str | None, Header()] = None,
) -> Response:
    """A stored image or audio clip by SHA-256, if one of the caller's test cases or dataset
    rows references it (404 otherwise); cacheable forever, with an ETag."""
    return blob_response(session, tenant.id, sha256, if_none_match)
