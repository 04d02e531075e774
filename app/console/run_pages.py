"""Console pages for dataset runs and datasets (same services as `/v1/runs`, `/v1/datasets`).

The one console module that names a kind's package: these are the `run` kind's own pages (its
`console_path`), as `/v1/runs` is its own API.
"""

from typing import Annotated

from fastapi import APIRouter, Header, Request
from fastapi.responses import HTMLResponse

from app.api.deps import SessionDep
from app.api.query import position
from app.console._render import SignedIn, live_page, page
from app.datasets import service as datasets
from app.evaluations.schemas import TERMINAL_STATUSES
from app.runs import report as run_report
from app.runs import service as runs

router = APIRouter(prefix="/console", include_in_schema=False)

PAGE_SIZE = 25
SAMPLES_PAGE_SIZE = 20


def _cursor(after: str | None) -> int | None:
    return position("after", after, "a position") if after else None


@router.get("/runs")
def runs_page(
    request: Request, session: SessionDep, signed_in: SignedIn, after: str | None = None
) -> HTMLResponse:
    rows = runs.page(session, signed_in.tenant, after or None, PAGE_SIZE)
    return page(
        request,
        "runs.html",
        signed_in,
        runs=[run_report.to_schema(session, run, found) for run, found in rows[:PAGE_SIZE]],
        has_more=len(rows) > PAGE_SIZE,
    )


@router.get("/runs/{run_id}")
def run_page(
    request: Request,
    run_id: str,
    session: SessionDep,
    signed_in: SignedIn,
    after: str | None = None,
    hx_request: Annotated[str | None, Header()] = None,
) -> HTMLResponse:
    run, evaluation = runs.get_or_404(session, signed_in.tenant, run_id)
    samples, has_more = run_report.samples_with_conversations(
        session, run, run_report.SampleState.of(evaluation), _cursor(after), SAMPLES_PAGE_SIZE
    )
    summary = run_report.to_schema(session, run, evaluation)
    return live_page(
        request,
        "run.html",
        signed_in,
        live=summary.status not in TERMINAL_STATUSES,
        hx_request=hx_request,
        run=summary,
        samples=samples,
        has_more=has_more,
    )


@router.get("/datasets")
def datasets_page(
    request: Request, session: SessionDep, signed_in: SignedIn, after: str | None = None
) -> HTMLResponse:
    rows = datasets.page(session, signed_in.tenant, after or None, PAGE_SIZE)
    return page(
        request,
        "datasets.html",
        signed_in,
        datasets=[datasets.to_schema(row) for row in rows[:PAGE_SIZE]],
        has_more=len(rows) > PAGE_SIZE,
    )


@router.get("/datasets/{dataset_id}")
def dataset_page(
    request: Request,
    dataset_id: str,
    session: SessionDep,
    signed_in: SignedIn,
    subset: str | None = None,
    after: str | None = None,
) -> HTMLResponse:
    dataset = datasets.get_or_404(session, signed_in.tenant, dataset_id)
    rows = datasets.rows_page(
        session, signed_in.tenant, dataset, subset or None, _cursor(after), PAGE_SIZE
    )
    return page(
        request,
        "dataset.html",
        signed_in,
        dataset=datasets.to_schema(dataset),
        rows=rows[:PAGE_SIZE],
        has_more=len(rows) > PAGE_SIZE,
        subset=subset or "",
    )
