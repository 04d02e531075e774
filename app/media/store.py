"""Content-addressed image storage: each distinct image once, keyed by SHA-256 of its bytes.

The database backend is the only one today; a filesystem or S3-compatible store can implement
the same `BlobStore` protocol later.
"""

import base64
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db import insert_ignoring_duplicates
from app.media.images import NormalisedImage
from app.models import Blob, BlobOwner

REFERENCE_PREFIX = "blob:sha256:"


def reference(sha256: str) -> str:
    """The URL a stored test case carries in place of an image: `blob:sha256:<hex>`."""
    return REFERENCE_PREFIX + sha256


def digest_of(url: str) -> str | None:
    """The SHA-256 a `blob:sha256:` reference names, or None for any other URL."""
    return url[len(REFERENCE_PREFIX) :] if url.startswith(REFERENCE_PREFIX) else None


@dataclass(frozen=True)
class StoredImage:
    sha256: str
    media_type: str
    data: bytes = field(repr=False)

    def data_url(self) -> str:
        """The image as a base64 data URL, the form judges receive."""
        return f"data:{self.media_type};base64,{base64.b64encode(self.data).decode('ascii')}"


class BlobStore(Protocol):
    def put(self, images: Iterable[NormalisedImage]) -> list[str]:
        """Store the images not stored yet; returns the digests that were new."""
        ...

    def get_many(self, digests: Iterable[str]) -> dict[str, StoredImage]:
        """The stored images among `digests`, by digest."""
        ...


class DatabaseBlobStore:
    """Blobs in the `blob` table, inside the caller's transaction (it commits).

    With an `owner` (a tenant id), every blob put is also recorded as that tenant's, new or
    not: blobs are shared by content, and media are served only to tenants referencing them.
    """

    def __init__(self, session: Session, owner: str | None = None) -> None:
        self.session = session
        self.owner = owner

    def put(self, images: Iterable[NormalisedImage]) -> list[str]:
        by_digest = {image.sha256: image for image in images}
        if not by_digest:
            return []
        stored = self._put_new(by_digest)
        if self.owner is not None:
            insert_ignoring_duplicates(
                self.session,
                BlobOwner,
                [{"tenant_id": self.owner, "sha256": digest} for digest in sorted(by_digest)],
            )
        return stored

    def _put_new(self, by_digest: dict[str, NormalisedImage]) -> list[str]:
        # The blobs reused stay until this transaction commits its references to them, even
        # if a deletion's garbage collection looks at them meanwhile (app/media/gc.py):
        # PostgreSQL locks them; on SQLite every image is inserted (or ignored), which makes
        # this transaction the writer before anything is checked.
        if self.session.get_bind().dialect.name == "sqlite":
            existing: set[str] = set()
        else:
            existing = set(
                self.session.scalars(
                    select(Blob.sha256)
                    .where(Blob.sha256.in_(list(by_digest)))
                    .with_for_update(read=True)
                )
            )
        rows = [
            {
                "sha256": digest,
                "media_type": image.media_type,
                "size": image.sent.bytes,
                "width": image.sent.width,
                "height": image.sent.height,
                "data": image.data,
            }
            for digest, image in by_digest.items()
            if digest not in existing
        ]
        new: list[str] = []
        for row in rows:
            # One at a time: a batch of 20 MB images is a lot of memory in one statement.
            # A concurrent submission may store the same image first; content addressing
            # makes theirs identical to ours.
            if insert_ignoring_duplicates(self.session, Blob, [row], returning=Blob.sha256):
                new.append(row["sha256"])
        return new

    def get_many(self, digests: Iterable[str]) -> dict[str, StoredImage]:
        wanted = list(set(digests))
        found: dict[str, StoredImage] = {}
        for start in range(0, len(wanted), 100):
            rows = self.session.execute(
                select(Blob.sha256, Blob.media_type, Blob.data).where(
                    Blob.sha256.in_(wanted[start : start + 100])
                )
            )
            for digest, media_type, data in rows:
                found[digest] = StoredImage(digest, media_type, bytes(data))
        return found

    def sizes(self, digests: Iterable[str]) -> dict[str, tuple[int, int]]:
        """(width, height) of the stored images among `digests` (their data is not read)."""
        wanted = list(set(digests))
        found: dict[str, tuple[int, int]] = {}
        for start in range(0, len(wanted), 500):
            rows = self.session.execute(
                select(Blob.sha256, Blob.width, Blob.height).where(
                    Blob.sha256.in_(wanted[start : start + 500])
                )
            )
            found.update({digest: (width, height) for digest, width, height in rows})
        return found


def owned_blob(session: Session, tenant_id: str, sha256: str) -> Blob | None:
    """The blob if the tenant's own rows reference it, else None (whoever else stored it)."""
    return session.scalars(
        select(Blob)
        .join(BlobOwner, BlobOwner.sha256 == Blob.sha256)
        .where(BlobOwner.tenant_id == tenant_id, Blob.sha256 == sha256)
    ).one_or_none()


def owned_blobs(session: Session, tenant_id: str, digests: Iterable[str]) -> dict[str, StoredImage]:
    """The blobs among `digests` that the tenant's own rows reference, by digest (the rule
    `owned_blob` applies, for many at once)."""
    wanted = sorted(set(digests))
    found: dict[str, StoredImage] = {}
    for start in range(0, len(wanted), 100):
        rows = session.execute(
            select(Blob.sha256, Blob.media_type, Blob.data)
            .join(BlobOwner, BlobOwner.sha256 == Blob.sha256)
            .where(BlobOwner.tenant_id == tenant_id, Blob.sha256.in_(wanted[start : start + 100]))
        )
        for digest, media_type, data in rows:
            found[digest] = StoredImage(digest, media_type, bytes(data))
    return found
