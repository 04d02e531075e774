"""Loupe's own media, `<base URL>/v1/media/<sha256>` URLs and `blob:sha256:<hex>` references,
read from the blob store.

Test cases and dataset rows read back from the API name their images (and audio) by these URLs
(rows read before they did, by the references Loupe stores). Submitted again, or named by a
traced call, they are loaded from the store and never fetched: Loupe fetching itself would
need a key, and the address policy keeps loopback and private addresses out. Only blobs the
tenant may read by `GET /v1/media/{sha256}` are loaded (its own test cases or dataset rows
reference them); any other digest is refused in the same words whether or not another tenant
holds it.
"""

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import httpx
from sqlalchemy.orm import Session

from app.media.fetch import FetchError
from app.media.store import REFERENCE_PREFIX, StoredImage, owned_blobs

MEDIA_PATH = "/v1/media/"
_DIGEST = re.compile(r"[0-9a-fA-F]{64}")
_DEFAULT_PORTS = {"http": 80, "https": 443}


def not_found(digest: str) -> FetchError:
    """The field error for this server's media URL (or reference) naming a blob the tenant
    may not read: the same words whether the blob is unknown or another tenant's."""
    return FetchError(
        f"no media {digest} among this tenant's test cases and dataset rows "
        "(this server's /v1/media URLs and blob:sha256: references are read from its store, "
        "never fetched)",
        "media_not_found",
    )


def _origin(url: httpx.URL) -> tuple[str, str, int | None]:
    return url.scheme, url.host, url.port or _DEFAULT_PORTS.get(url.scheme)


@dataclass(frozen=True)
class OwnMedia:
    """This server's media as one tenant may read them.

    Args:
        base_url: the request's base URL as the server sees it (`request.base_url`: the Host
            it was sent to, or what a trusted proxy forwarded, and the root path), the same
            base the API builds media URLs on; None outside a request (the ticker), where
            only `blob:sha256:` references are this server's.
    """

    base_url: str | None
    session: Session
    tenant_id: str

    def digest(self, url: str) -> str | None:
        """The SHA-256 `url` names if it is a `blob:sha256:<hex>` reference or this server's
        media path, else None (a URL on any other scheme, host or port is fetched like any
        other)."""
        if url.startswith(REFERENCE_PREFIX):
            named = url[len(REFERENCE_PREFIX) :]
            return named.lower() if _DIGEST.fullmatch(named) else None
        if self.base_url is None:
            return None
        try:
            target = httpx.URL(url)
            base = httpx.URL(self.base_url)
        except (httpx.InvalidURL, TypeError, ValueError):
            return None
        if _origin(target) != _origin(base) or target.query or target.fragment:
            return None
        prefix = base.path.rstrip("/") + MEDIA_PATH
        if not target.path.startswith(prefix):
            return None
        digest = target.path[len(prefix) :]
        return digest.lower() if _DIGEST.fullmatch(digest) else None

    def resolve(self, urls: Iterable[str]) -> dict[str, StoredImage | FetchError]:
        """For each of `urls` naming this server's media: the blob, if the tenant's own rows
        reference it, else the error that names no owner. Other URLs are left out."""
        named = {url: digest for url in urls if (digest := self.digest(url)) is not None}
        stored = owned_blobs(self.session, self.tenant_id, named.values())
        return {url: stored.get(digest) or not_found(digest) for url, digest in named.items()}

    def as_references(self, content: Any) -> Any:
        """`content` (a string or parts) with this server's media URLs as `blob:sha256:`
        references, for content judged later outside this request (a held conversation's
        calls): the reference is read as the URL would have been, the tenant's own blobs
        only, when the content is taken in."""
        if not isinstance(content, list):
            return content
        return [self._part_as_reference(part) for part in content]

    def _part_as_reference(self, part: Any) -> Any:
        if not isinstance(part, dict):
            return part
        for kind, key in (("image_url", "url"), ("input_audio", "data")):
            media = part.get(kind)
            if part.get("type") == kind and isinstance(media, dict):
                digest = self.digest(str(media.get(key) or ""))
                if digest is not None:
                    return {**part, kind: {**media, key: REFERENCE_PREFIX + digest}}
        return part
