"""Removing blobs no row references any more, safely against a request storing them again.

Deleting an evaluation or a dataset passes the digests its rows referenced to `collect`, in a
transaction of its own after the rows are gone. A blob is removed only when no test case and
no dataset row names it; a tenant's `blob_owner` row goes when none of its own rows do.

The race: another request may be storing the same image while we look. `DatabaseBlobStore.put`
locks every blob it reuses (`FOR SHARE`) or inserts it, in the request's transaction. Here
(PostgreSQL) the candidates are first locked `FOR UPDATE`, which waits for such requests to
commit; the reference check that follows is a new statement, so under READ COMMITTED it sees
their rows and keeps the blob. A request that comes after our lock finds the blob gone once we
commit and inserts it again. SQLite runs one writer at a time: a request's put and our delete
cannot interleave, as both are writes inside their transactions.
"""

import json
from collections.abc import Iterable
from typing import Any

from sqlalchemy import String, and_, cast, delete, exists, or_, select
from sqlalchemy.orm import Session

from app.media.store import REFERENCE_PREFIX
from app.models import Blob, BlobOwner, Dataset, DatasetRow, Evaluation, TestCase

# Test-case and dataset-row columns that can hold `blob:sha256:` references.
_CASE_COLUMNS = (
    TestCase.input,
    TestCase.actual_output,
    TestCase.expected_output,
    TestCase.context,
    TestCase.retrieval_context,
    TestCase.messages,
)
_ROW_COLUMNS = (DatasetRow.messages,)


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


def case_references(session: Session, evaluation_id: str) -> set[str]:
    """The blobs an evaluation's test cases reference."""
    rows = session.execute(select(*_CASE_COLUMNS).where(TestCase.evaluation_id == evaluation_id))
    return references(value for row in rows for value in row)


def row_references(session: Session, dataset_id: str) -> set[str]:
    """The blobs a dataset's rows reference."""
    rows = session.scalars(select(DatasetRow.messages).where(DatasetRow.dataset_id == dataset_id))
    return references(rows)


def _named(columns: tuple[Any, ...], digest: str) -> Any:
    pattern = f"%{REFERENCE_PREFIX}{digest}%"
    return or_(*(cast(column, String).like(pattern) for column in columns))


def _referenced(digest: str, tenant_id: str | None = None) -> Any:
    """A condition: some test case or dataset row (of `tenant_id`, if given) names the blob."""
    cases = select(TestCase.id).where(_named(_CASE_COLUMNS, digest))
    rows = select(DatasetRow.id).where(_named(_ROW_COLUMNS, digest))
    if tenant_id is not None:
        cases = cases.join(Evaluation, Evaluation.id == TestCase.evaluation_id).where(
            Evaluation.tenant_id == tenant_id
        )
        rows = rows.join(Dataset, Dataset.id == DatasetRow.dataset_id).where(
            Dataset.tenant_id == tenant_id
        )
    return or_(exists(cases), exists(rows))


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
