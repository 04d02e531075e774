"""The size of each image a judge call will be sent, known before the run: for estimates."""

from collections.abc import Callable
from typing import Any

from sqlalchemy.orm import Session

from app.media.images import NormalisedImage
from app.media.store import DatabaseBlobStore, digest_of
from app.usage import tokens

ImageSizes = Callable[[str], tokens.ImageSize | None]


def sizes_of(
    images: dict[str, NormalisedImage],
    session: Session | None = None,
    contents: Any = None,
) -> ImageSizes:
    """Image URL -> the size the judge is sent (after normalisation); None when unknown.

    Args:
        images: images the checks took in, by the URL the request gave.
        contents: content holding `blob:sha256:` references (a dataset's stored rows), whose
            sizes are read from the blob store with `session`.
    """
    stored: dict[str, tuple[int, int]] = {}
    if session is not None and contents is not None:
        digests = {digest_of(url) for url in _image_urls(contents)}
        stored = DatabaseBlobStore(session).sizes(digest for digest in digests if digest)

    def size(url: str) -> tokens.ImageSize | None:
        image = images.get(url)
        if image is not None:
            return tokens.ImageSize(image.sent.width, image.sent.height)
        known = stored.get(digest_of(url) or "")
        return tokens.ImageSize(*known) if known else None

    return size


def _image_urls(content: Any) -> list[str]:
    """Every image part's URL in JSON content, however nested."""
    if isinstance(content, list):
        return [url for item in content for url in _image_urls(item)]
    if not isinstance(content, dict):
        return []
    if content.get("type") == "image_url":
        image = content.get("image_url")
        url = image if isinstance(image, str) else (image or {}).get("url")
        return [url] if isinstance(url, str) else []
    return [url for value in content.values() for url in _image_urls(value)]
