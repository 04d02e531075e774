"""Loupe's own media URLs, `<base URL>/v1/media/<sha256>`, read from the blob store.

Test cases read back from the API name their images (and audio) by these URLs. Submitted again,
they are loaded from the store and never fetched: Loupe fetching itself would need a key, and
the address policy keeps loopback and private addresses out. Only blobs the submitting tenant
may read by `GET /v1/media/{sha256}` are loaded (its own test cases or dataset rows reference
them); any other digest is refused in the same words whether or not another tenant holds it.
"""

import re
from collections.abc import Iterable
from dataclasses import dataclass

import httpx
from sqlalchemy.orm import Session

from app.media.fetch import FetchError
from app.media.store import StoredImage, owned_blobs

MEDIA_PATH = "/v1/media/"
_DIGEST = re.compile(r"[0-9a-fA-F]{64}")
_DEFAULT_PORTS = {"http": 80, "https": 443}


def not_found(digest: str) -> FetchError:
    """The field error for this server's media URL naming a blob the tenant may not read:
    the same words whether the blob is unknown or another tenant's."""
    return FetchError(
        f"no media {digest} among this tenant's test cases and dataset rows "
        "(this server's /v1/media URLs are read from its store, never fetched)",
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
            base the API builds media URLs on.
    """

    base_url: str
    session: Session
    tenant_id: str

    def digest(self, url: str) -> str | None:
        """The SHA-256 `url` names if it is this server's media path, else None (a URL on
        any other scheme, host or port is fetched like any other)."""
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
