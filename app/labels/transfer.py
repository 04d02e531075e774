"""Labels in and out as files: an import's JSON Lines or CSV read into bodies, and the
tenant's labels streamed out in either format.

An import names its problems by line (`/lines/<n>/<field>`, n counted from 1 as an editor
shows it; a CSV record by the line it starts on, the header being line 1).
"""

import csv
import io
import json
from collections.abc import Iterator
from typing import Any

from fastapi.responses import StreamingResponse

from app.api import nesting
from app.labels.repository import LabelFilter, LabelRepository
from app.labels.schemas import EXPORT_ONLY_FIELDS, Label
from app.problems import FieldError, ProblemError, field_error, invalid_field
from app.runtime import Runtime

JSONL_TYPES = ("application/x-ndjson", "application/jsonl", "application/json-lines")
CSV_TYPE = "text/csv"
# An import is one transaction that checks every line first: past this many lines, split it.
MAX_IMPORT_LINES = 5000
# What a CSV import's header may name (each as in POST /v1/labels).
CSV_COLUMNS = ("result_id", "evaluation_id", "test_case_id", "metric", "value", "rationale")
# ...and what an export's header names besides (an export goes back in: importing.py reads its
# actor, selection and queue_id and ignores the rest).
CSV_EXPORT_ONLY = EXPORT_ONLY_FIELDS
# The cells read as true / false / a number rather than text.
_CSV_TYPED = ("value", "passed", "judge_passed", "judge_score", "threshold")
_EXPORT_PAGE = 1000
# What a spreadsheet reads as the start of a formula (OWASP, "CSV Injection"), as the results
# export guards against: a rationale or test case id starting with one would run when opened.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
EXPORT_COLUMNS = [
    "id",
    "metric_version",
    "item_key",
    "result_id",
    "evaluation_id",
    "test_case_id",
    "metric",
    "value",
    "passed",
    "rationale",
    "judge_score",
    "judge_passed",
    "threshold",
    "selection",
    "queue_id",
    "actor",
    "actor_name",
    "created_at",
    "updated_at",
]

Lines = list[tuple[int, Any]]


def _too_many(count: int) -> ProblemError:
    return ProblemError(
        413,
        "Content Too Large",
        f"The import has {count} lines or more; at most {MAX_IMPORT_LINES} go in one request.",
        slug="too-many-lines",
        field=["body"],
    )


_EXTENSIONS = {".jsonl": JSONL_TYPES[0], ".ndjson": JSONL_TYPES[0], ".csv": CSV_TYPE}


def upload_media(filename: str | None, content_type: str | None) -> str:
    """An uploaded file's media type: its part's, when one of the import's, else the one its
    name's extension gives (curl sends `application/octet-stream` for a .jsonl file)."""
    media = (content_type or "").split(";", 1)[0].strip().lower()
    if media in (*JSONL_TYPES, CSV_TYPE):
        return media
    name = (filename or "").lower()
    by_name = next((kind for ext, kind in _EXTENSIONS.items() if name.endswith(ext)), None)
    return by_name or media


def read_import(content_type: str, raw: bytes) -> tuple[Lines, list[FieldError]]:
    """Each line's (number, body) of an import, and the lines that are no body at all (not
    JSON, not CSV under the header); 415 for another media type, 413 past MAX_IMPORT_LINES,
    422 for a body that is not UTF-8 or holds no line."""
    media = content_type.split(";", 1)[0].strip().lower()
    if media not in (*JSONL_TYPES, CSV_TYPE):
        raise ProblemError(
            415,
            "Unsupported Media Type",
            f"Send the labels as application/x-ndjson (one JSON body a line) or text/csv, "
            f"not {media or 'no Content-Type'}.",
            slug="unsupported-media-type",
            field=["header", "Content-Type"],
        )
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as bad:
        raise invalid_field(
            ["body"],
            f"the body is not UTF-8: byte {bad.start} ({bad.object[bad.start]:#04x}) is "
            f"{bad.reason}; send the labels encoded as UTF-8",
            "not_utf8",
        ) from None
    lines, errors = _csv(text) if media == CSV_TYPE else _jsonl(text)
    if not lines and not errors:
        raise ProblemError(
            422, "Invalid request", "body: no labels to import", slug="validation", field=["body"]
        )
    return lines, errors


def _jsonl(text: str) -> tuple[Lines, list[FieldError]]:
    lines: Lines = []
    errors: list[FieldError] = []
    # Lines end at "\n" only: str.splitlines() also splits at U+2028, U+0085 and other
    # separators an exported rationale holds raw inside its JSON string (as files/service.py).
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        if len(lines) + len(errors) >= MAX_IMPORT_LINES:
            raise _too_many(MAX_IMPORT_LINES + 1)
        try:
            body = nesting.loads(line)
        except nesting.RefusedJson as refused:
            # Too deep, or text no row can hold (U+0000, a lone surrogate): named where it is.
            errors.append(field_error(["lines", number, *refused.path], str(refused), refused.code))
            continue
        except json.JSONDecodeError as bad:
            errors.append(field_error(["lines", number], f"not JSON: {bad.msg}", "json_invalid"))
            continue
        if not isinstance(body, dict):
            errors.append(field_error(["lines", number], "not a JSON object", "model_type"))
            continue
        lines.append((number, body))
    return lines, errors


def _cell_value(text: str) -> Any:
    """A CSV `value` cell: true/false, else a number (else the text, which the body refuses)."""
    lowered = text.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    try:
        return float(text)
    except ValueError:
        return text


def _unguarded(cell: str) -> str:
    """A cell as it was before an export guarded it (`'=…` back to `=…`, `''…` to `'…`)."""
    if cell.startswith("'") and cell[1:].startswith((*_FORMULA_STARTS, "'")):
        return cell[1:]
    return cell


def _csv(text: str) -> tuple[Lines, list[FieldError]]:
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader)
    except StopIteration:
        return [], []
    except csv.Error as bad:
        return [], [field_error(["lines", 1], f"not CSV: {bad}", "csv_invalid")]
    unknown = [name for name in header if name not in (*CSV_COLUMNS, *CSV_EXPORT_ONLY)]
    if unknown or "value" not in header:
        message = (
            f"the header names {', '.join(map(repr, unknown))}, "
            if unknown
            else "the header has no value column; "
        ) + (
            f"its columns are {', '.join(CSV_COLUMNS)} (value required), and an export's "
            f"{', '.join(CSV_EXPORT_ONLY)}"
        )
        return [], [field_error(["lines", 1], message, "csv_header")]
    lines: Lines = []
    errors: list[FieldError] = []
    start = reader.line_num + 1
    while True:
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as bad:
            errors.append(field_error(["lines", start], f"not CSV: {bad}", "csv_invalid"))
            break
        number, start = start, reader.line_num + 1
        if not any(cell.strip() for cell in row):
            continue
        if len(lines) + len(errors) >= MAX_IMPORT_LINES:
            raise _too_many(MAX_IMPORT_LINES + 1)
        if len(row) != len(header):
            message = f"{len(row)} cells under a header of {len(header)} columns"
            errors.append(field_error(["lines", number], message, "csv_row"))
            continue
        body: dict[str, Any] = {
            name: _unguarded(cell) for name, cell in zip(header, row, strict=True) if cell
        }
        for name in _CSV_TYPED:
            if name in body:
                body[name] = _cell_value(body[name])
        lines.append((number, body))
    return lines, errors


def export(runtime: Runtime, tenant_id: str, where: LabelFilter, format: str) -> StreamingResponse:
    """The tenant's labels matching `where`, oldest first, as a `jsonl` or `csv` download."""
    pages = _pages(runtime, tenant_id, where)
    if format == "jsonl":
        lines = (label.model_dump_json() + "\n" for page in pages for label in page)
        return StreamingResponse(
            lines,
            media_type="application/x-ndjson",
            headers={"Content-Disposition": 'attachment; filename="labels.jsonl"'},
        )
    return StreamingResponse(
        _csv_rows(pages),
        media_type=CSV_TYPE,
        headers={"Content-Disposition": 'attachment; filename="labels.csv"'},
    )


def _pages(runtime: Runtime, tenant_id: str, where: LabelFilter) -> Iterator[list[Label]]:
    # Streamed a page at a time, each read in a session of its own closed before the page is
    # sent: a slow reader holds no pooled connection (the request's closes first).
    after = None
    while True:
        with runtime.session() as session:
            rows = LabelRepository(session, tenant_id).oldest_first(where, after, _EXPORT_PAGE)
            page = [Label.model_validate(row, from_attributes=True) for row in rows[:_EXPORT_PAGE]]
        yield page
        if len(rows) <= _EXPORT_PAGE:
            return
        after = page[-1].id


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    # A text that starts with a quote is quoted too, so the import takes off exactly the quote
    # the export put on: `'=x` typed as such comes back as `'=x`, not `=x`.
    if isinstance(value, str) and value.startswith((*_FORMULA_STARTS, "'")):
        return "'" + value
    return value


def _csv_rows(pages: Iterator[list[Label]]) -> Iterator[str]:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(EXPORT_COLUMNS)
    for page in pages:
        for label in page:
            row = label.model_dump(mode="json")
            writer.writerow([_cell(row[name]) for name in EXPORT_COLUMNS])
        yield buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
