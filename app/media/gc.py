"""Removing blobs no row references any more, safely against a request storing them again.

Rows that name blobs (test cases, dataset rows) are stored with a `blob_ref` per blob and
holder (the evaluation or dataset), in the same transaction (`record`). Deleting an evaluation
or a dataset drops its refs with its rows and passes the digests they named to `collect`, in a
transaction of its own after the rows are gone. A blob is removed only when no ref names it; a
tenant's `blob_owner` row goes when none of its own refs do. Lookups by digest, not searches
through every row's content.

The race: another request may be storing the same image while we look. `DatabaseBlobStore.put`
locks every blob it reuses (`FOR SHARE`) or inserts it, in the request's transaction, which
also writes the rows and their refs. Here (PostgreSQL) the candidates are first locked
`FOR UPDATE`, which waits for such requests to commit; the ref check that follows is a new
statement, so under READ COMMITTED it sees their refs and keeps the blob. A request that comes
after our lock finds the blob gone once we commit and inserts it again. SQLite runs one writer
at a time: a request's put and our delete cannot interleave, as both are writes inside their
transactions.
"""

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy import and_, delete, exists, select
from sqlalchemy.orm import Session

from app.db import dialect_insert
from app.media.store import REFERENCE_PREFIX
from app.models import Blob, BlobOwner, BlobRef

# The columns of test cases and dataset rows that can hold `blob:sha256:` references.
CASE_COLUMNS = (
    "input",
    "actual_output",
    "expected_output",
    "context",
    "retrieval_context",
    "messages",
    "turns",
    "scenario",
    "expected_outcome",
)
ROW_COLUMNS = ("messages",)


def references(values: Iterable[Any]) -> set[str]:
    """The blob digests named anywhere in stored JSON values."""
    found: set[str] = set()
    for value in values:
        if value is None:
            continue
        text = value if isinstance(value, str) else json.dumps(value)
        start = text.find(REFERENCE_PREFIX)
        while start != -1:
            digest = text[start + len(REFERENCE_PREFIX) : start + len(REFERENCE_PREFIX) + 64]
            if len(digest) == 64:
                found.add(digest)
            start = text.find(REFERENCE_PREFIX, start + 1)
    return found


def record(
    session: Session,
    tenant_id: str,
    holder_id: str,
    rows: Sequence[Mapping[str, Any]],
    columns: Sequence[str],
) -> None:
    """Store a ref for every blob `rows` name (in the transaction storing the rows); a holder
    given more rows later (an open evaluation's appended cases) may name a blob it holds."""
    digests = references(row.get(column) for row in rows for column in columns)
    if digests:
        statement = dialect_insert(session, BlobRef)
        session.execute(
            statement.on_conflict_do_nothing(index_elements=[BlobRef.sha256, BlobRef.holder_id]),
            [
                {"sha256": d, "holder_id": holder_id, "tenant_id": tenant_id}
                for d in sorted(digests)
            ],
        )


def release(session: Session, holder_id: str) -> set[str]:
    """Drop a holder's refs (with its rows); returns the digests they named, to `collect`."""
    return set(
        session.scalars(
            delete(BlobRef).where(BlobRef.holder_id == holder_id).returning(BlobRef.sha256)
        )
    )


def _referenced(digest: str, tenant_id: str | None = None) -> Any:
    """A condition: some evaluation or dataset (of `tenant_id`, if given) names the blob."""
    refs = select(BlobRef.holder_id).where(BlobRef.sha256 == digest)
    if tenant_id is not None:
        refs = refs.where(BlobRef.tenant_id == tenant_id)
    return exists(refs)


def collect(session: Session, tenant_id: str, digests: Iterable[str]) -> list[str]:
    """Remove the blobs among `digests` that nothing references (and the tenant's ownership of
    those its own rows no longer reference); returns the digests removed. The caller commits."""
    candidates = sorted(set(digests))
    if not candidates:
        return []
    if session.get_bind().dialect.name == "postgresql":
        # Waits for requests that are storing (and so locked) any of these blobs.
        session.execute(
            select(Blob.sha256).where(Blob.sha256.in_(candidates)).with_for_update()
        ).all()
    removed = []
    for digest in candidates:
        session.execute(
            delete(BlobOwner).where(
                and_(
                    BlobOwner.tenant_id == tenant_id,
                    BlobOwner.sha256 == digest,
                    ~_referenced(digest, tenant_id),
                )
            )
        )
        gone = session.execute(
            delete(Blob)
            .where(and_(Blob.sha256 == digest, ~_referenced(digest)))
            .returning(Blob.sha256)
        ).first()
        if gone is not None:
            removed.append(digest)
    return removed
