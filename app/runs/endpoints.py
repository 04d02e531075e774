"""Runs: start, read (status and report), list, page and export samples, cancel."""

import csv
import io
import json
from collections.abc import Iterable, Iterator
from typing import Annotated, Literal

from fastapi import APIRouter, Query, Response, status
from fastapi.responses import JSONResponse, StreamingResponse

from app.api import openapi
from app.api.deps import RuntimeDep, SessionDep, TenantDep, checked_with_tenant
from app.api.idempotent import idempotent
from app.api.query import id_after, id_cursor, position, position_after
from app.api.routing import LeanRoute, post_only
from app.evaluations import lifecycle_service as lifecycle
from app.evaluations.endpoints import CompletedWithErrorsQuery
from app.evaluations.export import csv_cell
from app.evaluations.schemas import TERMINAL_STATUSES
from app.models import Run as RunModel
from app.problems import problem_responses
from app.runs import checks, report, service
from app.runs.schemas import Run, RunCreate, RunList, Sample, SampleList
from app.runtime import Runtime
from app.usage.schemas import Estimate

router = APIRouter(
    prefix="/v1/runs",
    tags=["runs"],
    route_class=LeanRoute,
    responses=problem_responses(400, 401, 404, 409, 413, 415, 422),
)
# A dataset's id goes to a run of it (app/api/openapi.py).
# A run's fields holding scores, emptied for a caller without `read` (app/api/withheld.py).
WITHHELD = {"run": {"report": []}}
OPENAPI = openapi.Extras(
    links=[
        openapi.BodyLink(
            "create_dataset",
            "201",
            "create_run",
            {
                "dataset_id": "$response.body#/id",
                "predictions": [{"index": 0, "prediction": "Blue"}],
            },
        )
    ]
)

LimitQuery = Annotated[int, Query(ge=1, le=1000)]
POLL_AFTER_SECONDS = "2"


@router.post("", status_code=status.HTTP_202_ACCEPTED, response_model=Run)
@checked_with_tenant(checks.body_problems)
@idempotent()
def create_run(
    payload: RunCreate, session: SessionDep, tenant: TenantDep, runtime: RuntimeDep
) -> Response:
    """Run a candidate model (or score given predictions) over a dataset; poll `Location`."""
    evaluation = service.create(session, tenant, payload, runtime.settings)
    run, evaluation = service.get_or_404(session, tenant, evaluation.id)
    body = report.to_schema(session, run, evaluation).model_dump(mode="json")
    lifecycle.submit(session, runtime, evaluation)
    session.commit()
    headers = {"Location": f"/v1/runs/{run.id}", "Retry-After": POLL_AFTER_SECONDS}
    return JSONResponse(body, status_code=status.HTTP_202_ACCEPTED, headers=headers)


@router.post("/estimate", response_model=Estimate)
@checked_with_tenant(checks.body_problems)
def estimate_run(
    payload: RunCreate, session: SessionDep, tenant: TenantDep, runtime: RuntimeDep
) -> Estimate:
    """What starting this run would cost: the candidate model's calls and tokens (one call per
    sample) and the judge's, per metric and in total. Checked as a run is; nothing is stored,
    no model is called."""
    return service.estimate_cost(session, tenant, payload, runtime.settings)


post_only(router, "/estimate")


@router.get("", response_model=RunList)
def list_runs(
    session: SessionDep,
    tenant: TenantDep,
    after: Annotated[str | None, id_after("run")] = None,
    limit: LimitQuery = 20,
    completed_with_errors: CompletedWithErrorsQuery = None,
) -> RunList:
    """The tenant's runs, newest first."""
    rows = service.page(
        session, tenant, id_cursor(after, "run"), limit, completed_with_errors=completed_with_errors
    )
    data = [report.to_schema(session, run, evaluation) for run, evaluation in rows[:limit]]
    return RunList.of(data, len(rows) > limit)


@router.get("/{run_id}", response_model=Run)
def get_run(
    run_id: str, session: SessionDep, tenant: TenantDep, runtime: RuntimeDep, response: Response
) -> Run:
    """Status, progress and the report table (metric, subset, num, score)."""
    run, evaluation = service.get_or_404(session, tenant, run_id)
    if evaluation.status not in TERMINAL_STATUSES:
        response.headers["Retry-After"] = POLL_AFTER_SECONDS
    # Three missed heartbeats, as GET /v1/evaluations/{id}: the job is busy no longer, or gone.
    return report.to_schema(session, run, evaluation, 3 * runtime.settings.heartbeat_seconds)


def _cursor(after: str | None) -> int | None:
    return None if after is None else position("after", after, "a sample id")


@router.get("/{run_id}/samples", response_model=SampleList)
def list_run_samples(
    run_id: str,
    session: SessionDep,
    tenant: TenantDep,
    after: Annotated[str | None, position_after("a sample id")] = None,
    limit: LimitQuery = 100,
) -> SampleList:
    """Per sample: prediction, extracted answer, scores, judge verdict and reasoning, errors."""
    run, evaluation = service.get_or_404(session, tenant, run_id)
    state = report.SampleState.of(evaluation)
    data, has_more = report.samples(session, run, state, _cursor(after), limit)
    return SampleList.of(data, has_more)


_CSV_FIXED = [
    "index",
    "subset",
    "row_index",
    "prediction",
    "reference",
    "extracted_answer",
    "verdict",
    "reasoning",
    "errors",
]


@router.get(
    "/{run_id}/samples/export",
    responses={200: {"content": {"application/x-ndjson": {}, "text/csv": {}}}},
)
def export_run_samples(
    run_id: str,
    session: SessionDep,
    tenant: TenantDep,
    runtime: RuntimeDep,
    format: Literal["jsonl", "csv"] = "jsonl",
) -> StreamingResponse:
    """Every sample as JSON Lines or CSV (one column per score key)."""
    run, evaluation = service.get_or_404(session, tenant, run_id)
    # Streamed a page at a time from a session of its own (the request's closes first).
    pages = _pages(runtime, run, report.SampleState.of(evaluation))
    if format == "jsonl":
        lines = (sample.model_dump_json() + "\n" for page in pages for sample in page)
        return StreamingResponse(
            lines,
            media_type="application/x-ndjson",
            headers={"Content-Disposition": f'attachment; filename="{run_id}.jsonl"'},
        )
    return StreamingResponse(
        _csv(pages, report.score_keys(session, run)),
        media_type="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{run_id}.csv"'},
    )


def _pages(runtime: Runtime, run: RunModel, state: report.SampleState) -> Iterator[list[Sample]]:
    # A session per page, closed before the page is sent: a slow reader holds no pooled
    # connection.
    after = None
    while True:
        with runtime.session() as session:
            page, has_more = report.samples(session, run, state, after, 1000)
        yield page
        if not has_more or not page:
            return
        after = page[-1].index


def _csv(pages: Iterable[list[Sample]], keys: list[str]) -> Iterator[str]:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow([csv_cell(name) for name in (*_CSV_FIXED, *keys)])
    for page in pages:
        for sample in page:
            row = sample.model_dump()
            row["errors"] = json.dumps(row["errors"]) if row["errors"] else ""
            cells = [*(row[name] for name in _CSV_FIXED), *(sample.scores.get(k) for k in keys)]
            writer.writerow([csv_cell(cell) for cell in cells])
        yield buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()


@router.post("/{run_id}/cancel", response_model=Run)
def cancel_run(run_id: str, session: SessionDep, tenant: TenantDep, runtime: RuntimeDep) -> Run:
    """Stop a queued or running run; samples already scored are kept."""
    run, evaluation = service.get_or_404(session, tenant, run_id)
    evaluation = lifecycle.cancel(session, runtime, evaluation)
    body = report.to_schema(session, run, evaluation)
    session.commit()
    return body


@router.delete("/{run_id}", status_code=status.HTTP_204_NO_CONTENT)
def delete_run(
    run_id: str, session: SessionDep, tenant: TenantDep, runtime: RuntimeDep
) -> Response:
    """Delete a finished run: its samples, scores and report (the dataset stays).
    A queued or running one answers 409: cancel it first."""
    _, evaluation = service.get_or_404(session, tenant, run_id)
    lifecycle.delete(session, runtime, evaluation)
    session.commit()
    return Response(status_code=status.HTTP_204_NO_CONTENT)
