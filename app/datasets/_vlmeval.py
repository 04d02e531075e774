"""VLMEvalKit MCQ and VQA TSV/CSV rows: the image first, then the question (and options)."""

import string
from typing import Any

from app.datasets._archive import Archive
from app.datasets._general import text_answer
from app.datasets._mcq import answer_label, mcq_prompt, option_labels
from app.datasets._media_refs import image_from_base64, image_url
from app.datasets._tabular import Record, is_blank, list_cell
from app.datasets._types import DatasetFormatError, DatasetRow, RowScope, add_problem

# VLMEvalKit writes an image shared by several rows once; the other rows' `image` cell holds
# the index of the row that has it. Real base64 images are always longer than this.
_INDEX_REFERENCE_MAX = 64


def vlmeval_rows(
    records: list[Record],
    kind: str,
    file: str,
    archive: Archive | None,
    warnings: list[str],
    problems: list[DatasetFormatError],
) -> list[DatasetRow]:
    """Rows of a VLMEvalKit `kind` ("mcq" or "vqa") file; `extra` holds index and category."""
    shared = {
        str(r.fields.get("index", "")).strip(): r.fields["image"]
        for r in records
        if len(str(r.fields.get("image") or "")) > _INDEX_REFERENCE_MAX
    }
    rows = []
    for record in records:
        try:
            rows.append(_row(record, kind, shared, RowScope(file, record.line, archive, warnings)))
        except DatasetFormatError as problem:
            add_problem(problems, problem)  # the other rows are still checked
    return rows


def _row(record: Record, kind: str, shared: dict[str, Any], scope: RowScope) -> DatasetRow:
    fields = record.fields
    index = _required(fields, "index", scope)
    question = _required(fields, "question", scope)
    content = _images(fields, shared, scope)
    extra: dict[str, Any] = {"index": index}
    if not is_blank(fields.get("category")):
        extra["category"] = fields["category"].strip()
    if not is_blank(fields.get("hint")):
        # MMBench-style hints carry context the question depends on; VLMEvalKit sends them.
        question = f"Hint: {fields['hint'].strip()}\n{question}"
    options: list[str] | None = None
    labels: list[str] | None = None
    if kind == "mcq":
        options = _options(fields, scope)
        labels = option_labels(len(options))
        answer: str | None = answer_label(fields.get("answer"), labels, scope)
        content.append({"type": "text", "text": mcq_prompt(question, options, labels)})
    else:
        answer = text_answer(fields.get("answer"), scope)
        content.append({"type": "text", "text": question})
    return DatasetRow(
        line=record.line,
        kind="mcq" if kind == "mcq" else "vqa",
        messages=[{"role": "user", "content": content}],
        answer=answer,
        labels=labels,
        options=options,
        extra=extra,
    )


def _required(fields: dict[str, Any], column: str, scope: RowScope) -> str:
    if column not in fields:
        raise scope.error(column, f"the file has no {column!r} column")
    if is_blank(fields[column]):
        raise scope.error(column, f"the row's {column} is empty")
    return fields[column].strip() if column == "index" else fields[column]


def _options(fields: dict[str, Any], scope: RowScope) -> list[str]:
    """Option texts from columns A, B, C, ...: consecutive, present and non-empty."""
    options: list[str] = []
    for letter in string.ascii_uppercase:
        if is_blank(fields.get(letter)):
            break
        options.append(fields[letter])
    later = [c for c in string.ascii_uppercase[len(options) + 1 :] if not is_blank(fields.get(c))]
    if later:
        scope.warn(f"option column {later[0]} follows an empty option column; ignored")
    if not options:
        raise scope.error("A", "an MCQ row needs option columns A, B, ... with text")
    return options


def _cell_values(cell: str) -> list[str]:
    """One value, or several when VLMEvalKit wrote a list (multi-image rows)."""
    if cell.lstrip().startswith("["):
        try:
            return [str(value) for value in list_cell(cell)]
        except ValueError:
            return [cell]
    return [cell]


def _images(fields: dict[str, Any], shared: dict[str, str], scope: RowScope) -> list[dict]:
    if "image" not in fields and "image_path" not in fields:
        raise scope.error("image", "the file needs an 'image' (base64) or 'image_path' column")
    # `image` wins when both are set, as in VLMEvalKit, which writes it out to image_path.
    cell = fields.get("image") or ""
    if not is_blank(cell):
        if len(cell) <= _INDEX_REFERENCE_MAX and cell.strip() in shared:
            cell = shared[cell.strip()]
        values = _cell_values(cell)
        urls = [
            image_from_base64(value, scope, "image" if len(values) == 1 else f"image[{i}]")
            for i, value in enumerate(values)
        ]
    elif not is_blank(fields.get("image_path")):
        values = _cell_values(fields["image_path"])
        urls = [
            image_url(
                value,
                scope,
                "image_path" if len(values) == 1 else f"image_path[{i}]",
                by_suffix=True,
            )
            for i, value in enumerate(values)
        ]
    else:
        raise scope.error("image", "the row has neither an image nor an image_path")
    return [{"type": "image_url", "image_url": {"url": url}} for url in urls]
