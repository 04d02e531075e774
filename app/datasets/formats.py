"""Parse an uploaded dataset file into normalised rows, one subset per data file.

Formats (EvalScope 1.14.1): `general_vqa` (OpenAI chat `messages` + optional `answer`, or
plain-text user content with `<image N>` placeholders), `general_vmcq` (MMMU-style `question`,
`options`, `answer` label, `image_N` media), and the legacy VLMEvalKit TSVs `vlmeval_mcq` /
`vlmeval_vqa`. Pure: no network and no server disk; relative media paths resolve only inside an
uploaded zip (see `_archive.Archive.find` for the lookup order, `_media_refs` for what is
accepted as media).
"""

import io
from pathlib import PurePosixPath
from typing import BinaryIO, get_args

from app.api import nesting
from app.datasets._archive import DATA_SUFFIXES, Archive, ArchiveCaps, ArchiveError, ArchiveTooLarge
from app.datasets._general import vmcq_row, vqa_row
from app.datasets._mcq import MCQ_ANSWER_MARKER, mcq_prompt, option_labels
from app.datasets._tabular import read_records
from app.datasets._types import (
    DatasetFormat,
    DatasetFormatError,
    DatasetFormatErrors,
    DatasetRow,
    DatasetSubset,
    RowScope,
    add_problem,
    raise_collected,
)
from app.datasets._vlmeval import vlmeval_rows
from app.problems import format_loc

__all__ = [
    "MCQ_ANSWER_MARKER",
    "ArchiveCaps",
    "ArchiveTooLarge",
    "DatasetFormat",
    "DatasetFormatError",
    "DatasetFormatErrors",
    "DatasetRow",
    "DatasetSubset",
    "mcq_prompt",
    "option_labels",
    "parse_upload",
]

# A subset's name (a data file's name without its extension and split) is stored with each row.
MAX_SUBSET_NAME = 256
# EvalScope names files `<subset>_<split>`; the split is test for VQA and val for VMCQ.
_SPLIT_SUFFIX = {"general_vqa": "_test", "general_vmcq": "_val"}


def parse_upload(
    filename: str,
    data: bytes,
    fmt: DatasetFormat,
    *,
    max_members: int = 1000,
    max_uncompressed_bytes: int = 1 << 30,
    max_ratio: int = 100,
    problems: list[DatasetFormatError] | None = None,
) -> list[DatasetSubset]:
    """Subsets from a .jsonl/.tsv/.csv file, or a .zip of such files plus the media they use.

    Data files are parsed line by line as they inflate, never held whole.

    Args:
        filename: the upload's name; its extension picks the reader.
        max_members: most zip members accepted (directories included).
        max_uncompressed_bytes: most bytes a zip may unpack to (or a bare file may hold).
        max_ratio: most inflated bytes per compressed byte of a zip member and of the zip.
        problems: given, rows' problems are added to it and the good rows returned, so that
            the caller names them with what it finds later (media) in one answer.

    Raises:
        ArchiveTooLarge: a zip over a cap, naming the member and the cap.
        DatasetFormatError: naming the file, line and field (DatasetFormatErrors, every
            row's problem of every file, when there are several).
    """
    if fmt not in get_args(DatasetFormat):
        raise DatasetFormatError(filename, None, None, f"unknown dataset format {fmt!r}")
    suffix = PurePosixPath(filename.replace("\\", "/")).suffix.lower()
    archive: Archive | None = None
    if suffix == ".zip":
        caps = ArchiveCaps(max_members, max_uncompressed_bytes, max_ratio)
        archive = Archive(filename, data, caps)
        files = archive.data_files()
        if not files:
            message = "the zip holds no .jsonl, .tsv or .csv file"
            raise_collected([*archive.misplaced, DatasetFormatError(filename, None, None, message)])
    elif suffix in DATA_SUFFIXES:
        if len(data) > max_uncompressed_bytes:
            message = f"the file has {len(data)} bytes; at most {max_uncompressed_bytes}"
            raise DatasetFormatError(filename, None, None, message)
        files = [filename]
    else:
        message = f"unsupported file type {suffix or '(none)'!r}; upload .jsonl, .tsv, .csv or .zip"
        raise DatasetFormatError(filename, None, None, message)

    # Every row's problem, of every file, in one answer (capped where it is shown), after the
    # members named outside the zip or twice and the files whose names make no subset.
    collecting = problems is not None
    problems = [] if problems is None else problems
    misnamed = list(archive.misplaced) if archive is not None else []
    names: dict[str, str] = {}
    for file in files:
        name = subset_name(file, fmt)
        if len(name) > MAX_SUBSET_NAME:
            # Stored with every row (PostgreSQL refused the rows: a 500; SQLite took them).
            message = (
                f"the file's name makes a subset name of {len(name)} characters; at most "
                f"{MAX_SUBSET_NAME} (rename the file)"
            )
            misnamed.append(DatasetFormatError(file, None, None, message))
        elif name in names:
            message = f"subset {name!r} is also given by {names[name]}"
            misnamed.append(DatasetFormatError(file, None, None, message))
        else:
            names[name] = file
    for problem in misnamed:
        add_problem(problems, problem)

    subsets = []
    for name, file in names.items():
        if archive is None:
            subsets.append(_parse_file(name, file, io.BytesIO(data), fmt, None, problems))
            continue
        try:
            with archive.open(file) as stream:
                subsets.append(_parse_file(name, file, stream, fmt, archive, problems))
        except ArchiveError as exc:
            # A member that cannot be read (encrypted, corrupt) is one fault among the
            # others: the other files are still read for theirs.
            add_problem(problems, DatasetFormatError(file, None, None, str(exc)))
    if not collecting:
        raise_collected(problems)
    return subsets


def subset_name(file: str, fmt: DatasetFormat) -> str:
    """The file's stem, without EvalScope's `_test` / `_val` split suffix."""
    stem = PurePosixPath(file.replace("\\", "/")).stem
    split = _SPLIT_SUFFIX.get(fmt)
    if split and stem.endswith(split) and len(stem) > len(split):
        return stem[: -len(split)]
    return stem


def _parse_file(
    name: str,
    file: str,
    stream: BinaryIO,
    fmt: DatasetFormat,
    archive: Archive | None,
    problems: list[DatasetFormatError],
) -> DatasetSubset:
    """The file's rows; each row's problem is added to `problems` and the next row read."""
    if fmt.startswith("vlmeval_") and file.lower().endswith(".jsonl"):
        raise DatasetFormatError(file, None, None, f"{fmt} reads .tsv or .csv files, not JSONL")
    first = len(problems)
    records = read_records(file, stream, problems)
    warnings: list[str] = []
    built: list[DatasetRow]
    if fmt == "vlmeval_mcq" or fmt == "vlmeval_vqa":
        kind = fmt.removeprefix("vlmeval_")
        built = vlmeval_rows(records, kind, file, archive, warnings, problems)
    else:
        build = vqa_row if fmt == "general_vqa" else vmcq_row
        built = []
        for record in records:
            try:
                built.append(build(record.fields, RowScope(file, record.line, archive, warnings)))
            except DatasetFormatError as problem:
                add_problem(problems, problem)
    rows = []
    for row in built:
        try:
            _refuse_nul(file, row)
        except DatasetFormatError as problem:
            add_problem(problems, problem)
            continue
        rows.append(row)
    # In line order within the file: a bad JSON line and a bad row are found in two passes.
    problems[first:] = sorted(problems[first:], key=lambda problem: problem.line or 0)
    return DatasetSubset(name=name, file=file, rows=rows, warnings=warnings)


def _refuse_nul(file: str, row: DatasetRow) -> None:
    """A row whose text holds U+0000 however it came (a Python list literal, JSON in a cell)
    is refused naming the field: PostgreSQL's text and jsonb cannot store it."""
    # Fields copied into the prompt (options) come first, so the one the file wrote is named.
    stored = {
        "options": row.options,
        "answer": row.answer,
        "labels": row.labels,
        "extra": row.extra,
        "messages": row.messages,
    }
    nul = nesting.first_unstorable(stored)
    if nul is not None:
        raise DatasetFormatError(file, row.line, format_loc(nul.path) or None, str(nul))
