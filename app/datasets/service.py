"""Dataset decisions: parse and validate an upload, take in its media, store its rows."""

import json
import re
from collections.abc import Sequence
from typing import Any

from sqlalchemy.orm import Session

from app import audit
from app.config import Settings
from app.datasets.formats import (
    ArchiveTooLarge,
    DatasetFormatError,
    DatasetFormatErrors,
    DatasetSubset,
    parse_upload,
)
from app.datasets.repository import DatasetRepository
from app.datasets.schemas import Dataset as DatasetSchema
from app.datasets.schemas import DatasetRow as DatasetRowSchema
from app.ids import new_id
from app.media import gc
from app.media.ingest import Intake, take_in
from app.media.links import MediaUrl, with_media_urls
from app.media.own import OwnMedia
from app.media.store import DatabaseBlobStore
from app.models import Dataset, DatasetRow, Tenant
from app.problems import MAX_FIELD_ERRORS, FieldError, ProblemError, format_pointer, not_found
from app.tenants import limits

# The setting behind each cap of an uploaded zip, named in the 413.
_CAP_SETTINGS = {
    "members": "LOUPE_MAX_ARCHIVE_MEMBERS",
    "uncompressed_bytes": "LOUPE_MAX_ARCHIVE_BYTES",
    "ratio": "LOUPE_MAX_ARCHIVE_RATIO",
    "archive_ratio": "LOUPE_MAX_ARCHIVE_RATIO",
    "declared_size": "the member's declared size",
}


def _too_large_problem(error: ArchiveTooLarge) -> ProblemError:
    # 413 as for an upload over LOUPE_MAX_DATASET_BYTES: what it unpacks to is too large.
    cap = _CAP_SETTINGS[error.cap]
    return ProblemError(
        413,
        "Dataset too large",
        f"file: {error.file}: {error.message} (cap: {cap})",
        slug="dataset-too-large",
        field=["file"],
    )


def _format_problem(error: DatasetFormatError) -> ProblemError:
    """422 naming each row problem (DatasetFormatErrors: every one, up to MAX_FIELD_ERRORS)."""
    every = error.errors if isinstance(error, DatasetFormatErrors) else [error]
    fields = [_field_error(each) for each in every[:MAX_FIELD_ERRORS]]
    detail = f"{fields[0].loc}: {error.message}"
    if len(every) > 1:
        detail += f" (and {len(every) - 1} more)"
    return ProblemError(422, "Invalid dataset", detail, slug="invalid-dataset", errors=fields)


def _segments(field: str) -> list[str | int]:
    """The path a row's field names (`messages[0].content` -> messages, 0, content), so that
    the error's pointer is a JSON Pointer's segments throughout."""
    return [
        int(index) if index else name for name, index in re.findall(r"([^.\[\]]+)|\[(\d+)\]", field)
    ]


def _media_problem(error: FieldError) -> DatasetFormatError:
    """A media check's error (its path `file/<file>/line/<n>/messages/...`) as a row's problem,
    named as every other row problem is, keeping its type."""
    segments = [part.replace("~1", "/").replace("~0", "~") for part in error.pointer.split("/")[2:]]
    file, line, rest = segments[0], int(segments[2]), segments[3:]
    field = "".join(f"[{part}]" if part.isdigit() else f".{part}" for part in rest)
    return DatasetFormatError(file, line, field.lstrip("."), error.msg, error.type)


def _in_upload_order(
    problems: list[DatasetFormatError], subsets: list[DatasetSubset]
) -> DatasetFormatError:
    """The problems found in passes (rows, then media and sizes) in file and line order."""
    order = {subset.file: number for number, subset in enumerate(subsets)}
    problems.sort(key=lambda problem: (order.get(problem.file, -1), problem.line or 0))
    return problems[0] if len(problems) == 1 else DatasetFormatErrors(problems)


def _field_error(error: DatasetFormatError) -> FieldError:
    where = error.file + (f":{error.line}" if error.line else "")
    loc = f"{where}:{error.field}" if error.field else where
    path: list[str | int] = ["file", error.file]
    if error.line:
        path += ["line", error.line]
    if error.field:
        path += _segments(error.field)
    return FieldError(loc=loc, pointer=format_pointer(path), msg=error.message, type=error.code)


def checked_upload(
    dataset_id: str, filename: str, data: bytes, fmt: str, settings: Settings, own: OwnMedia | None
) -> tuple[list[DatasetSubset], list[dict[str, Any]], Intake, list[int]]:
    """An upload's subsets, rows, media taken in (not stored yet) and each row's size; raises
    one 422 naming every row at fault (a 413 past an archive cap)."""
    # Every row's problem in one answer: those of its format, its media and its size.
    problems: list[DatasetFormatError] = []
    try:
        subsets = parse_upload(
            filename,
            data,
            fmt,  # type: ignore[arg-type]
            max_members=settings.max_archive_members,
            max_uncompressed_bytes=settings.archive_bytes_cap,
            max_ratio=settings.max_archive_ratio,
            problems=problems,
        )
    except ArchiveTooLarge as error:
        raise _too_large_problem(error) from error
    except DatasetFormatError as error:
        raise _format_problem(error) from error
    total = sum(len(subset.rows) for subset in subsets)
    if total > settings.max_dataset_rows:
        raise ProblemError(
            422,
            "Invalid dataset",
            f"file: {total} rows; at most {settings.max_dataset_rows} (LOUPE_MAX_DATASET_ROWS)",
            slug="invalid-dataset",
            field=["file"],
        )
    rows = _rows(dataset_id, subsets)
    files = {subset.name: subset.file for subset in subsets}
    contents = [
        (
            ["file", files[row["subset"]], "line", row["line"], "messages", index, "content"],
            message["content"],
        )
        for row in rows
        for index, message in enumerate(row["messages"])
    ]
    # A dataset's media are budgeted as a whole archive, not as one API request: its bytes up
    # to the archive cap, its pixels in the same proportion to its bytes as a request's.
    pixels_per_byte = settings.max_request_image_pixels / settings.max_request_image_bytes
    media_settings = settings.model_copy(
        update={
            "max_request_image_bytes": settings.archive_bytes_cap,
            "max_request_image_pixels": int(settings.archive_bytes_cap * pixels_per_byte),
        }
    )
    intake = take_in(contents, media_settings, own)
    problems.extend(_media_problem(error) for error in intake.errors)
    sizes = [_row_bytes(row) for row in rows]
    for row, size in zip(rows, sizes, strict=True):
        if size > settings.max_dataset_row_bytes:
            message = (
                f"the row holds {size} bytes of text (media counted as references); at most "
                f"{settings.max_dataset_row_bytes} (LOUPE_MAX_DATASET_ROW_BYTES)"
            )
            problems.append(DatasetFormatError(files[row["subset"]], row["line"], None, message))
    if problems:
        raise _format_problem(_in_upload_order(problems, subsets))
    return subsets, rows, intake, sizes


def create(
    session: Session,
    tenant: Tenant,
    *,
    filename: str,
    data: bytes,
    fmt: str,
    name: str | None,
    settings: Settings,
    own: OwnMedia | None = None,
) -> Dataset:
    """Validate every row of an upload, store its media once and its rows.

    A bad row answers 422 naming its file, line and field; a zip over a cap, or an upload
    that would take the tenant past its storage quota, 413 naming `file`. Nothing is stored
    unless the whole upload is (the caller commits).
    """
    # Refused before parsing when the tenant is already full; checked again, exactly, below.
    limits.admit_storage(session, tenant, settings, 1, lock=False)
    dataset_id = new_id("ds")
    subsets, rows, intake, sizes = checked_upload(dataset_id, filename, data, fmt, settings, own)
    total = len(rows)
    intake.store(DatabaseBlobStore(session, tenant.id))
    # The media just stored count as used already; the rows are added to them.
    stored_bytes = sum(sizes)
    limits.admit_storage(session, tenant, settings, stored_bytes)
    dataset = Dataset(
        id=dataset_id,
        tenant_id=tenant.id,
        # Cut to their columns, as /v1/files keeps a file's name (a zip's name of 600
        # characters was a 500 on PostgreSQL).
        name=name or filename[:256],
        format=fmt,
        filename=filename[:512],
        subsets=[
            {
                "name": subset.name,
                "file": subset.file,
                "rows": len(subset.rows),
                "warnings": subset.warnings,
            }
            for subset in subsets
        ],
        row_count=total,
        stored_bytes=stored_bytes,
    )
    DatasetRepository(session, tenant.id).add(dataset, rows)
    audit.record(
        session,
        None,
        "dataset.create",
        "dataset",
        dataset.id,
        tenant_id=tenant.id,
        name=dataset.name,
        rows=total,
    )
    return dataset


def _row_bytes(row: dict[str, Any]) -> int:
    """What a stored row takes: its JSON and text, media as references (counted as blobs)."""
    fields = [row["messages"], row["labels"], row["options"], row["extra"]]
    size = len(json.dumps(fields, ensure_ascii=False, separators=(",", ":")).encode())
    return size + len((row["answer"] or "").encode())


def _rows(dataset_id: str, subsets: list[DatasetSubset]) -> list[dict[str, Any]]:
    return [
        {
            "dataset_id": dataset_id,
            "subset": subset.name,
            "index": index,
            "line": row.line,
            "kind": row.kind,
            "messages": row.messages,
            "answer": row.answer,
            "labels": row.labels,
            "options": row.options,
            "extra": row.extra or None,
        }
        for subset in subsets
        for index, row in enumerate(subset.rows)
    ]


def get_or_404(session: Session, tenant: Tenant, dataset_id: str) -> Dataset:
    dataset = DatasetRepository(session, tenant.id).get(dataset_id)
    if dataset is None:
        raise not_found(f"No dataset {dataset_id!r}.")
    return dataset


def page(session: Session, tenant: Tenant, after: str | None, limit: int) -> Sequence[Dataset]:
    """The tenant's datasets, newest first; `limit + 1` so the caller can tell whether more
    follow."""
    return DatasetRepository(session, tenant.id).page(after, limit)


def rows_page(
    session: Session,
    tenant: Tenant,
    dataset: Dataset,
    subset: str | None,
    after: int | None,
    limit: int,
) -> Sequence[DatasetRow]:
    """The dataset's rows (of `subset`, if given) in upload order after the row `after`;
    `limit + 1` so the caller can tell whether more follow."""
    return DatasetRepository(session, tenant.id).rows_page(dataset, subset, after, limit)


def to_schema(dataset: Dataset) -> DatasetSchema:
    return DatasetSchema.model_validate(
        {
            "id": dataset.id,
            "name": dataset.name,
            "format": dataset.format,
            "filename": dataset.filename,
            "row_count": dataset.row_count,
            "subsets": dataset.subsets,
            "created_at": dataset.created_at,
        }
    )


def row_to_schema(row: DatasetRow, media_url: MediaUrl) -> DatasetRowSchema:
    """A stored row as clients read it, media references as URLs from `media_url` (as test
    cases read), so a row read back can be uploaded or submitted again as it reads."""
    return DatasetRowSchema(
        id=str(row.id),
        subset=row.subset,
        index=row.index,
        line=row.line,
        kind=row.kind,  # type: ignore[arg-type]
        messages=with_media_urls(row.messages, media_url),
        answer=row.answer,
        labels=row.labels,
        options=row.options,
        extra=row.extra,
    )


def delete(session: Session, tenant: Tenant, dataset_id: str) -> set[str]:
    """Delete a dataset and its rows; returns the blob digests they referenced (for
    app.media.gc once committed). A dataset runs still read answers 409."""
    dataset = get_or_404(session, tenant, dataset_id)
    datasets = DatasetRepository(session, tenant.id)
    used = datasets.runs_using(dataset)
    if used:
        raise ProblemError(
            409,
            "Conflict",
            f"{used} run(s) use dataset {dataset_id!r}; delete them first (DELETE /v1/runs/...).",
            slug="dataset-in-use",
        )
    digests = gc.release(session, dataset.id)
    audit.record(
        session,
        None,
        "dataset.delete",
        "dataset",
        dataset.id,
        tenant_id=tenant.id,
        name=dataset.name,
    )
    datasets.delete(dataset)
    return digests
