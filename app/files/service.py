"""File decisions: validate an upload's JSONL rows, store it, read it back for a run."""

from datetime import timedelta
from typing import Any

from sqlalchemy.orm import Session

from app import audit
from app.api import nesting
from app.config import Settings
from app.db import utcnow
from app.files.repository import EvalFileRepository
from app.files.schemas import FileObject
from app.ids import new_id
from app.models import EvalFile, Tenant
from app.problems import bad_request, format_loc, not_found
from app.tenants import limits

PURPOSES = ("evals",)


def parse_lines(content: bytes, where: list[str | int]) -> list[tuple[int, dict[str, Any]]]:
    """The `{"item": {...}, "sample"?: {...}}` rows of a JSONL file with their 1-based line
    numbers; blank lines skipped, a leading UTF-8 byte order mark allowed.

    Raises a 400 naming the line of the first bad row.
    """
    name = "file"
    try:
        # utf-8-sig: editors on Windows start UTF-8 files with a byte order mark.
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise bad_request(f"{name} is not UTF-8 text: {exc.reason}", where) from exc
    rows = []
    # Lines end at "\n" only: str.splitlines() would also split at U+2028 and other
    # separators a JSON string may hold raw, and miscount every line after them.
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            row = nesting.loads(line)
        except nesting.TooDeep as exc:
            raise bad_request(f"{name} line {number}: {exc}", where, exc.code) from exc
        except nesting.RefusedJson as exc:
            # Text no row can hold, or a number none can (NaN, 1e400: a run stored null).
            message = f"{name} line {number}, {format_loc(exc.path) or 'the row'}: {exc}"
            raise bad_request(message, where, exc.code) from exc
        except ValueError as exc:
            raise bad_request(f"{name} line {number}: not valid JSON ({exc})", where) from exc
        problem = row_problem(row)
        if problem is not None:
            raise bad_request(f"{name} line {number}: {problem}", where)
        rows.append((number, row))
    if not rows:
        raise bad_request(f"{name} has no rows", where)
    return rows


def row_problem(row: Any) -> str | None:
    """Why a data-source row is not `{"item": {...}, "sample"?: {...}}`, or None."""
    if not isinstance(row, dict):
        return 'each row must be a JSON object like {"item": {...}}'
    if not isinstance(row.get("item"), dict):
        return 'the row has no "item" object'
    if "sample" in row and row["sample"] is not None and not isinstance(row["sample"], dict):
        return '"sample" must be an object'
    return None


def create(
    session: Session,
    tenant: Tenant,
    filename: str,
    content: bytes,
    purpose: str,
    expires_after_seconds: int | None,
    settings: Settings,
) -> EvalFile:
    if purpose not in PURPOSES:
        raise bad_request(
            f"purpose {purpose!r} is not supported here; Loupe stores files with purpose 'evals'",
            ["purpose"],
        )
    rows = parse_lines(content, ["file"])
    limits.admit_storage(session, tenant, settings, len(content))
    now = utcnow()
    file = EvalFile(
        id=new_id("file"),
        tenant_id=tenant.id,
        filename=filename[:512],
        purpose=purpose,
        bytes=len(content),
        content=content,
        line_count=len(rows),
        created_at=now,
        expires_at=now + timedelta(seconds=expires_after_seconds)
        if expires_after_seconds
        else None,
    )
    EvalFileRepository(session, tenant.id).add(file)
    audit.record(
        session,
        None,
        "file.create",
        "file",
        file.id,
        tenant_id=tenant.id,
        filename=file.filename,
        bytes=file.bytes,
    )
    return file


def get_or_404(
    session: Session, tenant: Tenant, file_id: str, *, with_content: bool = False
) -> EvalFile:
    file = EvalFileRepository(session, tenant.id).get(file_id, with_content=with_content)
    if file is None or (file.expires_at is not None and file.expires_at <= utcnow()):
        raise not_found(f"No file {file_id!r}.")
    return file


def to_schema(file: EvalFile) -> FileObject:
    return FileObject(
        id=file.id,
        bytes=file.bytes,
        created_at=int(file.created_at.timestamp()),
        filename=file.filename,
        purpose=file.purpose,
        expires_at=int(file.expires_at.timestamp()) if file.expires_at else None,
    )
