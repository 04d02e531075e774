"""Split a data file into records (JSONL objects or TSV/CSV rows), each with its first line.

The file is read a line at a time from a binary stream (a zip member inflating as it is read),
so only the records built, never the file's whole text, are held.
"""

import ast
import csv
import json
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO

from app.api import nesting
from app.datasets._types import DatasetFormatError, add_problem
from app.problems import format_loc

# Base64 images make cells far larger than csv's default 128 KiB limit; 2**31-1 is the most a
# C long holds on every platform.
_FIELD_SIZE_LIMIT = min(sys.maxsize, 2**31 - 1)
# Where a lone CR ends a line: csv, and EvalScope's JSONL reading in text mode, take CR, LF and
# CRLF as line ends, as io.StringIO does.
_AFTER_LONE_CR = re.compile(r"(?<=\r)(?!\n)")


@dataclass
class Record:
    line: int
    fields: dict[str, Any]


def read_records(file: str, stream: BinaryIO, problems: list[DatasetFormatError]) -> list[Record]:
    """The rows of a .jsonl, .tsv or .csv file; an unreadable or empty file raises. A line that
    is not a row (bad JSON, a NUL, too many cells) is added to `problems` and skipped, so the
    other rows are still read and checked."""
    lines = _lines(file, stream)
    suffix = file.lower().rsplit(".", 1)[-1]
    if suffix == "jsonl":
        records = _jsonl(file, lines, problems)
    else:
        records = _delimited(file, lines, "\t" if suffix == "tsv" else ",", problems)
    if not records and not problems:
        raise DatasetFormatError(file, None, None, "the file holds no rows")
    return records


def _lines(file: str, stream: BinaryIO) -> Iterator[str]:
    """The file's text a line at a time, split on LF only (ends kept), a BOM dropped.

    Lines are decoded one by one, so a byte that is not UTF-8 is reported on its own line.
    """
    number = 0
    while raw := stream.readline():
        number += 1
        try:
            yield raw.decode("utf-8-sig" if number == 1 else "utf-8")
        except UnicodeDecodeError as exc:
            raise DatasetFormatError(file, number, None, "the file is not valid UTF-8") from exc


def _jsonl(file: str, lines: Iterator[str], problems: list[DatasetFormatError]) -> list[Record]:
    records = []
    # Lines end at CR, LF or CRLF, as EvalScope's text-mode reading ends them (str.splitlines
    # would also break inside strings holding U+2028 etc.), and are stripped as it strips them.
    for number, raw in enumerate(_universal_lines(lines), start=1):
        if not raw.strip():
            continue
        try:
            value = nesting.loads(raw.strip())
        except nesting.TooDeep as exc:
            add_problem(problems, DatasetFormatError(file, number, None, str(exc)))
            continue
        except nesting.RefusedJson as exc:
            # Text no row can hold, or a number none can (NaN, an integer too long to read).
            field = format_loc(exc.path) or None
            add_problem(problems, DatasetFormatError(file, number, field, str(exc)))
            continue
        except json.JSONDecodeError as exc:
            message = f"invalid JSON: {exc.msg} (column {exc.colno})"
            add_problem(problems, DatasetFormatError(file, number, None, message))
            continue
        if not isinstance(value, dict):
            add_problem(
                problems, DatasetFormatError(file, number, None, "each line must be a JSON object")
            )
            continue
        records.append(Record(number, value))
    return records


def _universal_lines(lines: Iterator[str]) -> Iterator[str]:
    """The lines split at a lone CR too (ends kept)."""
    for line in lines:
        yield from (piece for piece in _AFTER_LONE_CR.split(line) if piece)


def _delimited(
    file: str, lines: Iterator[str], delimiter: str, problems: list[DatasetFormatError]
) -> list[Record]:
    csv.field_size_limit(_FIELD_SIZE_LIMIT)
    reader = csv.reader(_universal_lines(lines), delimiter=delimiter)
    header: list[str] | None = None
    records: list[Record] = []
    consumed = 0  # lines read so far; a quoted cell may span several
    try:
        for cells in reader:
            start, consumed = consumed + 1, reader.line_num
            if not any(cell.strip() for cell in cells):
                continue
            if header is None:
                _refuse_nul(file, start, header, cells)
                header = _header(file, start, cells)
                continue
            try:
                _refuse_nul(file, start, header, cells)
            except DatasetFormatError as problem:
                add_problem(problems, problem)
                continue
            if len(cells) > len(header) and any(c.strip() for c in cells[len(header) :]):
                message = f"the row has {len(cells)} cells but the header has {len(header)}"
                add_problem(problems, DatasetFormatError(file, start, None, message))
                continue
            cells += [""] * (len(header) - len(cells))
            records.append(Record(start, dict(zip(header, cells, strict=False))))
    except csv.Error as exc:
        raise DatasetFormatError(file, consumed + 1, None, f"unreadable row: {exc}") from exc
    return records


def _refuse_nul(file: str, line: int, header: list[str] | None, cells: list[str]) -> None:
    """A cell holding a raw NUL byte is refused naming its column (PostgreSQL cannot store it,
    and csv reads it as any other character)."""
    for index, cell in enumerate(cells):
        if nesting.NUL in cell:
            if header is None or index >= len(header) or nesting.NUL in header[index]:
                column = f"column {index + 1}"
            else:
                column = header[index]
            message = "the cell holds U+0000 (NUL), which Loupe cannot store"
            raise DatasetFormatError(file, line, column, message)


def _header(file: str, line: int, cells: list[str]) -> list[str]:
    names = [cell.strip() for cell in cells]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        message = f"duplicate column {', '.join(map(repr, duplicates))} in the header"
        raise DatasetFormatError(file, line, None, message)
    return names


def list_cell(value: str) -> list[Any]:
    """A list written as JSON, or failing that as a Python literal (`['a', 'b']`)."""
    try:
        parsed = nesting.loads(value)
    except (nesting.TooDeep, nesting.UnreadableNumber) as exc:
        raise ValueError(str(exc)) from exc
    except nesting.UnstorableText:
        # Taken as written: the row's own check names the field the text lands in.
        parsed = json.loads(value)
    except json.JSONDecodeError:
        parsed = None
    if not isinstance(parsed, list):
        try:
            parsed = ast.literal_eval(value.strip())
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError) as exc:
            raise ValueError("not a JSON array or Python list") from exc
    if not isinstance(parsed, list | tuple):
        raise ValueError("not a JSON array or Python list")
    return list(parsed)


def is_blank(value: Any) -> bool:
    """An absent cell: missing, null, or empty (TSV/CSV cannot tell those apart)."""
    return value is None or (isinstance(value, str) and not value.strip())
