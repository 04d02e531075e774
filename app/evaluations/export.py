"""Results streamed out as JSON Lines or CSV, for the API and the console alike.

CSV cells that a spreadsheet would run as formulas start with a single quote; JSON Lines carry
every value as it is.
"""

import csv
import io
import json
from collections.abc import Iterable, Iterator
from typing import Any

from fastapi.responses import StreamingResponse

from app.evaluations import read_model
from app.evaluations.repository import EvaluationRepository
from app.evaluations.schemas import EvaluationResult
from app.models import Evaluation
from app.runtime import Runtime


def stream(
    runtime: Runtime,
    evaluation: Evaluation,
    format: str,
    metric: str | None = None,
    status: str | None = None,
    fragile: bool | None = None,
) -> StreamingResponse:
    """The evaluation's results (optionally filtered) as a download in `jsonl` or `csv`."""
    # Streamed a page at a time, each read in a session of its own (the request's closes first).
    pages = _result_pages(runtime, evaluation, metric, status, fragile)
    if format == "jsonl":
        # A chunk per page, not per line: Starlette runs a sync iterator's every step on a
        # worker thread, so a hop per result cost more than writing it.
        chunks = ("".join(result.model_dump_json() + "\n" for result in page) for page in pages)
        return StreamingResponse(
            chunks,
            media_type="application/x-ndjson",
            headers={"Content-Disposition": f'attachment; filename="{evaluation.id}.jsonl"'},
        )
    return StreamingResponse(
        _csv(pages),
        media_type="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{evaluation.id}.csv"'},
    )


# What a spreadsheet reads as the start of a formula (OWASP, "CSV Injection"): a test case id,
# metric name, reason or prediction starting with one would run when the file is opened.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """A value as a CSV cell: None empty, text a spreadsheet would run as a formula prefixed
    with a single quote (shown as text), anything else as it is."""
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(_FORMULA_STARTS):
        return "'" + value
    return value


_CSV_COLUMNS = [
    "id",
    "test_case_id",
    "test_case_index",
    "metric",
    "type",
    "score",
    "passed",
    "threshold",
    "reason",
    "error",
    "fragile",
    "stability",
    "metric_version",
    "judge_calls",
    "prompt_tokens",
    "completion_tokens",
    "cost_usd",
    "logs",
    "created_at",
]


def _result_pages(
    runtime: Runtime,
    evaluation: Evaluation,
    metric: str | None,
    status: str | None,
    fragile: bool | None = None,
) -> Iterator[list[EvaluationResult]]:
    after = None
    while True:
        # A session per page, closed before the page is sent: a client reading slowly (or not
        # at all) held a pooled connection for as long as it liked, and a few such exports
        # left every other request waiting for one (keyset pages need no one transaction).
        with runtime.session() as session:
            # `evaluation` was read for its tenant by the request that started the export.
            rows = EvaluationRepository(session, evaluation.tenant_id).result_page(
                evaluation, after, 1000, metric=metric, status=status, fragile=fragile
            )
            page = [read_model.result_to_schema(row) for row in (rows or [])[:1000]]
        yield page
        if not rows or len(rows) <= 1000:
            return
        after = page[-1].id


def _csv(pages: Iterable[list[EvaluationResult]]) -> Iterator[str]:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(_CSV_COLUMNS)
    for page in pages:
        for result in page:
            row = result.model_dump(mode="json")
            row["error"] = json.dumps(row["error"]) if row["error"] else ""
            row["logs"] = json.dumps(row["logs"]) if row["logs"] else ""
            row["stability"] = json.dumps(row["stability"]) if row["stability"] else ""
            row["judge_calls"] = result.usage.calls
            row["prompt_tokens"] = result.usage.prompt_tokens
            row["completion_tokens"] = result.usage.completion_tokens
            writer.writerow([csv_cell(row[name]) for name in _CSV_COLUMNS])
        yield buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
