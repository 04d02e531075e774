"""The parser's result types, its error, and the row scope errors and warnings are reported in."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from app.problems import MAX_FIELD_ERRORS

if TYPE_CHECKING:
    from app.datasets._archive import Archive

DatasetFormat = Literal["general_vqa", "general_vmcq", "vlmeval_mcq", "vlmeval_vqa"]


class DatasetFormatError(ValueError):
    """Why an upload was refused: the file, 1-based line and field it concerns, where known."""

    def __init__(
        self,
        file: str,
        line: int | None,
        field: str | None,
        message: str,
        code: str = "dataset_row",
    ) -> None:
        # All go to args, so the error survives pickling (RQ stores a job's exception).
        super().__init__(file, line, field, message, code)
        self.file = file
        self.line = line
        self.field = field
        self.message = message
        # The error's `type`: a media check's own (`media_not_found`, ...) or a row's.
        self.code = code

    def __str__(self) -> str:
        place = self.file if self.line is None else f"{self.file}:{self.line}"
        if self.field:
            return f"{place}: {self.field}: {self.message}"
        return f"{place}: {self.message}"


class DatasetFormatErrors(DatasetFormatError):
    """Every row problem of an upload, in file and line order; reads as the first."""

    def __init__(self, errors: list[DatasetFormatError]) -> None:
        first = errors[0]
        super().__init__(first.file, first.line, first.field, first.message, first.code)
        self.errors = errors


def add_problem(problems: list[DatasetFormatError], problem: DatasetFormatError) -> None:
    """Collect a row's problem; past MAX_FIELD_ERRORS the upload is not read further (an
    answer names at most that many, and a broken file is not read to its end for them)."""
    problems.append(problem)
    if len(problems) >= MAX_FIELD_ERRORS:
        raise_collected(problems)


def raise_collected(problems: list[DatasetFormatError]) -> None:
    """Raise the problems collected row by row, one answer naming them all (none: nothing)."""
    if len(problems) == 1:
        raise problems[0]
    if problems:
        raise DatasetFormatErrors(problems)


@dataclass
class DatasetRow:
    line: int
    kind: Literal["vqa", "mcq"]
    messages: list[dict[str, Any]]
    answer: str | None
    labels: list[str] | None
    options: list[str] | None
    extra: dict[str, Any]


@dataclass
class DatasetSubset:
    name: str
    file: str
    rows: list[DatasetRow]
    warnings: list[str]


@dataclass
class RowScope:
    """One row being parsed: where it is, the archive its paths resolve in, its file's warnings."""

    file: str
    line: int
    archive: Archive | None
    warnings: list[str]

    def error(self, field: str | None, message: str) -> DatasetFormatError:
        return DatasetFormatError(self.file, self.line, field, message)

    def warn(self, message: str) -> None:
        self.warnings.append(f"line {self.line}: {message}")
