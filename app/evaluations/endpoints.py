"""The evaluations API: submit, read, list, page test cases and results, export, cancel."""

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request, Response, status
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import AfterValidator

from app.api import openapi
from app.api.deps import (
    OwnMediaDep,
    RuntimeDep,
    SessionDep,
    TenantDep,
    checked_with_media,
    with_tenant,
)
from app.api.idempotent import idempotent
from app.api.query import id_after, id_cursor
from app.api.routing import LeanRoute, post_only
from app.evaluations import (
    batches,
    calibration,
    checks,
    estimate,
    export,
    intervals,
    kinds,
    read_model,
    reads,
    service,
)
from app.evaluations import lifecycle_service as lifecycle
from app.evaluations.schemas import (
    TERMINAL_STATUSES,
    Evaluation,
    EvaluationCreate,
    EvaluationList,
    EvaluationResultList,
    EvaluationStatus,
    ResultOrder,
    ResultStatus,
    TestCaseBatch,
    TestCaseBatchAppended,
    TestCaseList,
)
from app.labels import service as labels
from app.problems import FieldError, ProblemError, checked_anyway, problem_responses
from app.usage.schemas import Estimate

router = APIRouter(prefix="/v1/evaluations", tags=["evaluations"], route_class=LeanRoute)
# A request body accepted as it stands, for the OpenAPI document (app/api/openapi.py).
OPENAPI = openapi.Extras(
    examples={
        "create_evaluation": {
            "test_cases": [
                {
                    "id": "logo",
                    "input": "What shape is the logo?",
                    "actual_output": "A red circle.",
                    "expected_output": "A red circle.",
                }
            ],
            "metrics": [{"type": "exact_match"}],
        }
    }
)

LimitQuery = Annotated[int, Query(ge=1, le=1000)]
# The read model's flag as a filter (`status` keeps its values); shared with GET /v1/runs.
CompletedWithErrorsQuery = Annotated[
    bool | None,
    Query(
        description="`true`: only those that completed with errored results "
        "(`completed_with_errors`); `false`: only the others."
    ),
]
# How long a poller should wait before asking again about a running evaluation.
POLL_AFTER_SECONDS = "2"


# The schema is named under problem+json too: generators read the first media type listed, and
# an empty one makes them return nothing for every error.
_PROBLEMS = problem_responses(400, 401, 404, 409, 413, 415, 422)


@router.post(
    "",
    status_code=status.HTTP_202_ACCEPTED,
    response_model=Evaluation,
    responses=_PROBLEMS,
)
@checked_with_media(checks.body_problems)
@idempotent()
def create_evaluation(
    payload: EvaluationCreate,
    session: SessionDep,
    tenant: TenantDep,
    runtime: RuntimeDep,
    own: OwnMediaDep,
) -> Response:
    """Submit test cases and metrics; scoring runs on workers. Poll `Location` for progress."""
    evaluation = service.create(session, tenant, payload, runtime.settings, own)
    body = read_model.to_schema(session, evaluation).model_dump(mode="json")
    headers = {"Location": f"/v1/evaluations/{evaluation.id}", "Retry-After": POLL_AFTER_SECONDS}
    lifecycle.submit(session, runtime, evaluation)
    session.commit()
    return JSONResponse(body, status_code=status.HTTP_202_ACCEPTED, headers=headers)


@router.post("/estimate", response_model=Estimate, responses=_PROBLEMS)
@checked_with_media(checks.body_problems)
def estimate_evaluation(
    payload: EvaluationCreate,
    session: SessionDep,
    tenant: TenantDep,
    runtime: RuntimeDep,
    own: OwnMediaDep,
) -> Estimate:
    """What submitting this body would cost: judge calls, tokens and dollars, per metric and
    in total. Checked as a submit is (the same 422); nothing is stored, no judge is called."""
    return estimate.of_submission(session, tenant, payload, runtime.settings, own)


post_only(router, "/estimate")


@router.get("", response_model=EvaluationList, responses=_PROBLEMS)
def list_evaluations(
    session: SessionDep,
    tenant: TenantDep,
    after: Annotated[str | None, AfterValidator(kinds.listed_after)] = None,
    limit: LimitQuery = 20,
    status: Annotated[EvaluationStatus | None, Query(description="Only this status.")] = None,
    name: Annotated[
        str | None, Query(max_length=256, description="Only names containing this (any case).")
    ] = None,
    kind: Annotated[
        str,
        AfterValidator(kinds.listed_kind),
        Query(
            description="`evaluation` (the default): evaluations submitted here. `eval_run`: "
            "OpenAI Evals runs (`/v1/evals/{eval_id}/runs`). `online`: online rules' days "
            "(`/v1/online_rules`), each a rule's judged calls of one UTC day. The last two are "
            "never listed unless asked for; cancel and delete them through their own routes."
        ),
    ] = "evaluation",
    completed_with_errors: CompletedWithErrorsQuery = None,
) -> EvaluationList:
    """The tenant's evaluations (or, with `kind=eval_run`, OpenAI eval runs; `kind=online`,
    online rules' days), newest first."""
    rows = reads.page(
        session,
        tenant,
        (kind,),
        id_cursor(after, kinds.by_name(kind).id_prefixes),
        limit,
        status=status,
        name=name,
        completed_with_errors=completed_with_errors,
    )
    data = read_model.to_schemas(session, rows[:limit])
    return EvaluationList.of(data, len(rows) > limit)


@router.get("/{evaluation_id}", response_model=Evaluation, responses=_PROBLEMS)
def get_evaluation(
    evaluation_id: str,
    session: SessionDep,
    tenant: TenantDep,
    runtime: RuntimeDep,
    response: Response,
) -> Evaluation:
    """Status, result counts, per-metric summary and judge usage."""
    evaluation = service.get_or_404(session, tenant, evaluation_id, kinds.listed())
    if evaluation.status not in TERMINAL_STATUSES:
        response.headers["Retry-After"] = POLL_AFTER_SECONDS
    # Three missed heartbeats: the job is busy no longer, or its worker is gone.
    return read_model.to_schema(session, evaluation, 3 * runtime.settings.heartbeat_seconds)


@router.get(
    "/{evaluation_id}/test_cases",
    response_model=TestCaseList,
    responses=_PROBLEMS,
)
def list_evaluation_test_cases(
    evaluation_id: str,
    request: Request,
    session: SessionDep,
    tenant: TenantDep,
    after: str | None = None,
    limit: LimitQuery = 100,
) -> TestCaseList:
    """The submitted test cases in order; images as `GET /v1/media/{sha256}` URLs."""
    evaluation = service.get_or_404(session, tenant, evaluation_id, kinds.listed())
    rows = reads.test_case_page(session, tenant, evaluation, after, limit)
    if rows is None:
        raise ProblemError(
            400,
            "Bad Request",
            f"after: {after!r} is not a test case id of this evaluation",
            slug="bad-cursor",
            field=["query", "after"],
        )

    def media_url(digest: str) -> str:
        return str(request.url_for("get_media", sha256=digest))

    data = [read_model.test_case_to_schema(row, media_url) for row in rows[:limit]]
    return TestCaseList.of(data, len(rows) > limit)


MetricQuery = Annotated[str | None, Query(description="Only this metric's results (its name).")]
StatusQuery = Annotated[
    ResultStatus | None, Query(description="Only passed, failed or errored results.")
]
FragileQuery = Annotated[
    bool | None,
    Query(
        description="true: only results judged more than once whose judgments straddle the "
        "threshold; false: only those whose judgments agree."
    ),
]
OrderQuery = Annotated[
    ResultOrder | None,
    Query(description="By score; results without one come last. Default: test case order."),
]


@router.get(
    "/{evaluation_id}/results",
    response_model=EvaluationResultList,
    responses=_PROBLEMS,
)
def list_evaluation_results(
    evaluation_id: str,
    session: SessionDep,
    tenant: TenantDep,
    after: Annotated[str | None, id_after("res")] = None,
    limit: LimitQuery = 100,
    metric: MetricQuery = None,
    status: StatusQuery = None,
    order: OrderQuery = None,
    fragile: FragileQuery = None,
) -> EvaluationResultList:
    """Stored results in (test case, metric) order, each with score, reason, error and logs."""
    evaluation = service.get_or_404(session, tenant, evaluation_id, kinds.listed())
    service.check_metric(evaluation, metric)
    rows = reads.result_page(
        session,
        tenant,
        evaluation,
        after,
        limit,
        metric=metric,
        status=status,
        order=order,
        fragile=fragile,
    )
    if rows is None:
        raise ProblemError(
            400,
            "Bad Request",
            f"after: {after!r} is not a result of this evaluation",
            slug="bad-cursor",
            field=["query", "after"],
        )
    shown = rows[:limit]
    labelled = labels.summaries(session, tenant.id, shown)
    checked = calibration.agreement_of(session, tenant.id, shown)
    data = [
        read_model.result_to_schema(row).model_copy(
            update={
                "labels": labelled.get(row.id),
                "agreement": checked.get(row.metric_version or ""),
            }
        )
        for row in shown
    ]
    return EvaluationResultList.of(data, len(rows) > limit)


@router.get(
    "/{evaluation_id}/results/export",
    responses={**_PROBLEMS, 200: {"content": {"application/x-ndjson": {}, "text/csv": {}}}},
)
def export_evaluation_results(
    evaluation_id: str,
    session: SessionDep,
    tenant: TenantDep,
    runtime: RuntimeDep,
    format: Literal["jsonl", "csv"] = "jsonl",
    metric: MetricQuery = None,
    status: StatusQuery = None,
    fragile: FragileQuery = None,
) -> StreamingResponse:
    """Every stored result (or the filtered ones) as JSON Lines or CSV, in test case order."""
    evaluation = service.get_or_404(session, tenant, evaluation_id, kinds.listed())
    service.check_metric(evaluation, metric)
    return export.stream(runtime, evaluation, format, metric, status, fragile)


def batch_problems(request: Request, body: Mapping[str, Any]) -> list[FieldError]:
    """A batch that failed its schema: its other cases checked against the evaluation's
    metrics all the same, so one 422 names every case at fault."""
    evaluation_id = request.path_params.get("evaluation_id")
    if evaluation_id is None:
        return []
    return with_tenant(
        request,
        lambda session, tenant, settings, own: batches.body_problems(
            session, tenant, settings, evaluation_id, body, own
        ),
    )


@router.post(
    "/{evaluation_id}/test_cases",
    status_code=status.HTTP_202_ACCEPTED,
    response_model=TestCaseBatchAppended,
    responses=_PROBLEMS,
)
@checked_anyway(batch_problems)
@idempotent()
def append_evaluation_test_cases(
    evaluation_id: str,
    payload: TestCaseBatch,
    session: SessionDep,
    tenant: TenantDep,
    runtime: RuntimeDep,
    own: OwnMediaDep,
) -> Response:
    """Append a batch of test cases to an open evaluation (submitted with `open: true`); each
    case is checked as a submit's are, ids unique across batches. Send each batch with its own
    `Idempotency-Key`: a retried batch is appended once. Scoring starts right away."""
    evaluation, indices = batches.append(session, runtime, tenant, evaluation_id, payload, own)
    body = TestCaseBatchAppended(
        evaluation_id=evaluation.id,
        first_index=indices.start,
        count=len(indices),
        test_case_count=indices.stop,
    ).model_dump(mode="json")
    session.commit()
    headers = {"Location": f"/v1/evaluations/{evaluation.id}", "Retry-After": POLL_AFTER_SECONDS}
    return JSONResponse(body, status_code=status.HTTP_202_ACCEPTED, headers=headers)


@router.post("/{evaluation_id}/close", response_model=Evaluation, responses=_PROBLEMS)
def close_evaluation(
    evaluation_id: str, session: SessionDep, tenant: TenantDep, runtime: RuntimeDep
) -> Evaluation:
    """Say an open evaluation has all its test cases (again: no change). It completes once
    every appended case is scored, or now if they all are."""
    evaluation = batches.close(session, tenant, evaluation_id)
    # Closed for every job to see before the results are counted (batches.complete_if_scored).
    session.commit()
    batches.complete_if_scored(session, runtime, evaluation)
    session.commit()
    if evaluation.status == "completed":
        # Completed by this close: its intervals stored now, as a last job's would be.
        intervals.settle_completed(runtime, evaluation.id)
    body = read_model.to_schema(session, evaluation)
    session.commit()
    return body


@router.post(
    "/{evaluation_id}/cancel",
    response_model=Evaluation,
    responses=_PROBLEMS,
)
def cancel_evaluation(
    evaluation_id: str, session: SessionDep, tenant: TenantDep, runtime: RuntimeDep
) -> Evaluation:
    """Stop a queued or running evaluation; results already stored are kept. An online rule's
    day or an OpenAI eval run (read here too) answers 409 naming the routes that manage it."""
    evaluation = service.get_for_update(session, tenant, evaluation_id, kinds.listed())
    evaluation = lifecycle.cancel(session, runtime, evaluation, through=kinds.DEFAULT_KIND)
    body = read_model.to_schema(session, evaluation)
    session.commit()
    return body


@router.delete(
    "/{evaluation_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    responses=problem_responses(404, 409),
)
def delete_evaluation(
    evaluation_id: str, session: SessionDep, tenant: TenantDep, runtime: RuntimeDep
) -> Response:
    """Delete a finished evaluation: its test cases, results and images no other row uses.
    A queued or running one answers 409: cancel it first. An online rule's day or an OpenAI
    eval run (read here too) answers 409 naming the routes that manage it."""
    evaluation = service.get_for_update(session, tenant, evaluation_id, kinds.listed())
    lifecycle.delete(session, runtime, evaluation, through=kinds.DEFAULT_KIND)
    session.commit()
    return Response(status_code=status.HTTP_204_NO_CONTENT)
