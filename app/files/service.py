"""File decisions: validate an upload's JSONL rows, store it, read it back for a run."""

import codecs
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from sqlalchemy.orm import Session
from starlette.datastructures import UploadFile as StarletteUploadFile

from app import audit
from app.api import nesting
from app.config import Settings
from app.db import utcnow
from app.files.repository import EvalFileRepository
from app.files.schemas import FileObject
from app.ids import new_id
from app.models import EvalFile, Tenant
from app.problems import (
    MAX_FIELD_ERRORS,
    Collected,
    FieldError,
    ProblemError,
    bad_request,
    field_error,
    format_loc,
    not_found,
)
from app.tenants import limits

PURPOSES = ("evals",)


def parse_lines(
    content: bytes, where: list[str | int], *, by_line: bool = False
) -> list[tuple[int, dict[str, Any]]]:
    """The `{"item": {...}, "sample"?: {...}}` rows of a JSONL file with their 1-based line
    numbers; blank lines skipped, a leading UTF-8 byte order mark allowed.

    Raises a 400 naming every bad line (up to MAX_FIELD_ERRORS), so a file is fixed in one go.

    Args:
        where: the request's field holding the file (an upload's `file`, a source's `id`).
        by_line: name each fault by its own path under `where`, its line and the field within
            it (`file/line/3/item`); else `where`.
    """
    rows, faults = read_lines(content, where, by_line=by_line)
    if faults:
        raise lines_problem(faults)
    if not rows:
        raise bad_request("file has no rows", where)
    return rows


def read_lines(
    content: bytes, where: list[str | int], *, by_line: bool = True
) -> tuple[list[tuple[int, dict[str, Any]]], list[FieldError]]:
    """`parse_lines` that does not raise: the good rows with their line numbers, and a fault
    for each bad line (reading stops at MAX_FIELD_ERRORS of them), so a caller can check the
    good rows further and name everything in one answer."""
    name = "file"
    # utf-8-sig: editors on Windows start UTF-8 files with a byte order mark.
    content = content.removeprefix(codecs.BOM_UTF8)
    rows = []
    faults: list[FieldError] = []

    def fault(number: int, inside: list[str | int], message: str, code: str) -> None:
        at = [*where, "line", number, *inside] if by_line else where
        faults.append(field_error(at, f"{name} line {number}{message}", code))

    # Lines end at "\n" only: splitting at U+2028 and other separators a JSON string may hold
    # raw would miscount every line after them. Each line is decoded alone, so a line that is
    # not UTF-8 is one fault among the others, not the whole file's.
    for number, raw in enumerate(content.split(b"\n"), start=1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            message = f": not UTF-8 text (byte {raw[exc.start]:#04x} at column {exc.start + 1})"
            fault(number, [], message, "invalid_value")
            continue
        if not line.strip():
            continue
        try:
            row = nesting.loads(line)
        except nesting.TooDeep as exc:
            fault(number, [], f": {exc}", exc.code)
        except nesting.RefusedJson as exc:
            # Text no row can hold, or a number none can (NaN, 1e400: a run stored null).
            fault(number, exc.path, f", {format_loc(exc.path) or 'the row'}: {exc}", exc.code)
        except ValueError as exc:
            fault(number, [], f": not valid JSON ({exc})", "invalid_value")
        else:
            problem = row_problem(row)
            if problem is None:
                rows.append((number, row))
            else:
                fault(number, problem[0], f": {problem[1]}", "invalid_value")
        if len(faults) >= MAX_FIELD_ERRORS:
            # An answer names at most this many; a broken file is not read to its end for them.
            break
    return rows, faults


def lines_problem(faults: list[FieldError]) -> ProblemError:
    """One 400 naming every bad line or row: its detail the first three, its errors all."""
    detail = "; ".join(fault.msg for fault in faults[:3])
    if len(faults) > 3:
        detail += f" (and {len(faults) - 3} more)"
    slug = faults[0].type.replace("_", "-")
    return ProblemError(400, "Bad Request", detail, slug=slug, errors=faults[:MAX_FIELD_ERRORS])


def expires_after(seconds: object) -> int | None:
    """The `expires_after[seconds]` form field the SDK sends, checked (None: no expiry)."""
    if seconds is None:
        return None
    try:
        expires = int(seconds) if isinstance(seconds, str) else -1
    except ValueError:
        expires = -1
    if not 3600 <= expires <= 2592000:
        raise bad_request(
            "expires_after.seconds must be an integer from 3600 to 2592000",
            ["expires_after", "seconds"],
        )
    return expires


def row_problem(row: Any) -> tuple[list[str | int], str] | None:
    """Where in a data-source row (its own path: [] for the row) and why it is not
    `{"item": {...}, "sample"?: {...}}`, or None."""
    if not isinstance(row, dict):
        return [], 'each row must be a JSON object like {"item": {...}}'
    if not isinstance(row.get("item"), dict):
        return ["item"], 'the row has no "item" object'
    if "sample" in row and row["sample"] is not None and not isinstance(row["sample"], dict):
        return ["sample"], '"sample" must be an object'
    return None


def check_purpose(purpose: str) -> None:
    """Raise a 400 unless files of this purpose are stored here."""
    if purpose not in PURPOSES:
        raise bad_request(
            f"purpose {purpose!r} is not supported here; Loupe stores files with purpose 'evals'",
            ["purpose"],
        )


def form_problems(form: Mapping[str, Any]) -> list[FieldError]:
    """What is wrong with an upload's form besides what its schema refused (a missing
    `purpose`, say): its expiry, its purpose and every bad line of its file."""
    problems = Collected()
    with problems.catch():
        expires_after(form.get("expires_after[seconds]"))
    purpose = form.get("purpose")
    if isinstance(purpose, str):
        with problems.catch():
            check_purpose(purpose)
    upload = form.get("file")
    if isinstance(upload, StarletteUploadFile):
        upload.file.seek(0)
        with problems.catch():
            parse_lines(upload.file.read(), ["file"], by_line=True)
    return [error for problem in problems.problems for error in problem.errors or []]


def create(
    session: Session,
    tenant: Tenant,
    filename: str,
    content: bytes,
    purpose: str,
    expires_after_seconds: object,
    settings: Settings,
) -> EvalFile:
    """Store an upload once its purpose, expiry and every line are right; a 400 names each
    of them that is not, in one answer."""
    problems = Collected()
    with problems.catch():
        expires = expires_after(expires_after_seconds)
    with problems.catch():
        check_purpose(purpose)
    rows: list[tuple[int, dict[str, Any]]] = []
    with problems.catch():
        rows = parse_lines(content, ["file"], by_line=True)
    problems.raise_if_any()
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
        expires_at=now + timedelta(seconds=expires) if expires else None,
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
