"""`/v1/evals`: the OpenAI Evals API, for the official `openai` client pointed at Loupe.

Errors carry `error: {message, type, param, code}` beside the problem members (app/problems.py);
a bad body is a 400 (BadRequestError), and no state conflict answers 409, which the SDK retries.
"""

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request, Response, status

from app.api import openapi
from app.api.deps import OwnMediaDep, RuntimeDep, SessionDep, TenantDep, get_runtime
from app.api.idempotent import idempotent
from app.api.query import id_cursor
from app.api.routing import OpenAIRoute, post_only
from app.evals import estimate as estimates
from app.evals import report, service
from app.evals.repository import EvalRepository, EvalRunRepository
from app.evals.schemas import (
    Eval,
    EvalCreate,
    EvalDeleted,
    EvalList,
    EvalRunCreate,
    EvalRunDeleted,
    EvalRunList,
    EvalRunObject,
    EvalUpdate,
    OutputItem,
    OutputItemList,
)
from app.evaluations import lifecycle_service as lifecycle
from app.evaluations.schemas import TERMINAL_STATUSES
from app.media.own import OwnMedia
from app.models import EvalDefinition, EvalRun, Evaluation, Tenant
from app.problems import (
    FieldError,
    ProblemError,
    bad_request,
    checked_anyway,
    not_found,
    problem_responses,
)
from app.usage.schemas import Estimate

router = APIRouter(prefix="/v1/evals", tags=["evals"], route_class=OpenAIRoute)

_ITEM = {"question": "Capital of France?", "answer": "Paris"}
_RUN = {
    "name": "first run",
    "data_source": {
        "type": "jsonl",
        "source": {
            "type": "file_content",
            "content": [{"item": _ITEM, "sample": {"output_text": "Paris"}}],
        },
    },
}
# Request bodies accepted as they stand, for the OpenAPI document (app/api/openapi.py).
# An eval run's fields holding scores, emptied for a caller without `read` (app/api/withheld.py).
WITHHELD = {"eval.run": {"per_testing_criteria_results": []}}
OPENAPI = openapi.Extras(
    examples={
        "create_eval": {
            "name": "capitals",
            "data_source_config": {
                "type": "custom",
                "item_schema": {
                    "type": "object",
                    "properties": {
                        "question": {"type": "string"},
                        "answer": {"type": "string"},
                    },
                    "required": ["question", "answer"],
                },
            },
            "testing_criteria": [
                {
                    "type": "string_check",
                    "name": "exact",
                    "operation": "eq",
                    "input": "{{ sample.output_text }}",
                    "reference": "{{ item.answer }}",
                }
            ],
        },
        "update_eval": {"name": "capitals (v2)"},
        "create_eval_run": _RUN,
    },
    links=[openapi.BodyLink("create_eval", "201", "create_eval_run", _RUN)],
)
_PROBLEMS = problem_responses(400, 401, 404)
LimitQuery = Annotated[int, Query(ge=1, le=100)]
Order = Literal["asc", "desc"]


@router.post("", response_model=Eval, status_code=status.HTTP_201_CREATED, responses=_PROBLEMS)
@checked_anyway(service.body_problems)
@idempotent()
def create_eval(
    payload: EvalCreate,
    session: SessionDep,
    tenant: TenantDep,
    runtime: RuntimeDep,
    response: Response,
) -> Eval:
    """Define an eval: the rows' `item_schema` and the criteria that grade each row."""
    definition = service.create_eval(session, tenant, payload, runtime.settings)
    body = service.eval_schema(definition)
    session.commit()
    response.headers["Location"] = f"/v1/evals/{definition.id}"
    return body


@router.get("", response_model=EvalList, responses=_PROBLEMS)
def list_evals(
    session: SessionDep,
    tenant: TenantDep,
    after: str | None = None,
    limit: LimitQuery = 20,
    order: Order = "asc",
    order_by: Literal["created_at", "updated_at"] = "created_at",
) -> EvalList:
    definitions = EvalRepository(session, tenant.id).page(
        id_cursor(after, "eval", ("after",)), limit, order == "asc", order_by
    )
    if definitions is None:
        raise bad_request(
            f"after {after!r} is not one of your evals (deleted?); with order_by=updated_at "
            "a page can only follow an existing eval",
            ["after"],
        )
    return EvalList.of(
        [service.eval_schema(d) for d in definitions[:limit]], len(definitions) > limit
    )


@router.get("/{eval_id}", response_model=Eval, responses=_PROBLEMS)
def retrieve_eval(eval_id: str, session: SessionDep, tenant: TenantDep) -> Eval:
    return service.eval_schema(service.get_eval_or_404(session, tenant, eval_id))


@router.post("/{eval_id}", response_model=Eval, responses=_PROBLEMS)
def update_eval(eval_id: str, payload: EvalUpdate, session: SessionDep, tenant: TenantDep) -> Eval:
    """Change `name` or `metadata` (which replaces the whole map)."""
    definition = service.update_eval(session, tenant, eval_id, payload)
    body = service.eval_schema(definition)
    session.commit()
    return body


@router.delete("/{eval_id}", response_model=EvalDeleted, responses=_PROBLEMS)
def delete_eval(
    eval_id: str, session: SessionDep, tenant: TenantDep, runtime: RuntimeDep
) -> EvalDeleted:
    """Delete an eval with its runs and their output items; running runs are canceled first."""
    definition = service.get_eval_or_404(session, tenant, eval_id)
    service.delete_eval(session, runtime, tenant, definition)
    session.commit()
    return EvalDeleted(eval_id=eval_id)


def _run_or_404(
    session: SessionDep, tenant: Tenant, eval_id: str, run_id: str, *, for_update: bool = False
) -> tuple[EvalDefinition, EvalRun, Evaluation]:
    definition = service.get_eval_or_404(session, tenant, eval_id)
    found = EvalRunRepository(session, tenant.id).get(eval_id, run_id, for_update=for_update)
    if found is None:
        raise not_found(f"No run {run_id!r} in eval {eval_id!r}.")
    return definition, *found


def _run_problems(request: Request, body: Mapping[str, Any]) -> list[FieldError]:
    """What else is wrong with a run the schema refused (a `name` that is not a string, say):
    its data source, checked as a valid body's is, so one answer names every field at fault."""
    tenant_id = getattr(request.state, "tenant_id", None)
    data_source = body.get("data_source")
    if tenant_id is None or not isinstance(data_source, dict):
        return []
    runtime = get_runtime(request)
    extra = {"webhook_url": body["webhook_url"]} if "webhook_url" in body else {}
    payload = EvalRunCreate.model_construct(data_source=data_source, **extra)
    eval_id = str(request.path_params.get("eval_id", ""))
    with runtime.session() as session:
        tenant = session.get(Tenant, tenant_id)
        if tenant is None:
            return []
        try:
            own = OwnMedia(str(request.base_url), session, tenant.id)
            service.check_run(
                session, tenant, eval_id, payload, runtime.settings, store=False, own=own
            )
        except ProblemError as problem:
            # A missing eval is the path's 404, not a field of this body.
            return list(problem.errors or []) if problem.status in (400, 422) else []
    return []


@router.post(
    "/{eval_id}/runs",
    response_model=EvalRunObject,
    status_code=status.HTTP_201_CREATED,
    responses=_PROBLEMS,
)
@checked_anyway(_run_problems)
@idempotent()
def create_eval_run(
    eval_id: str,
    payload: EvalRunCreate,
    request: Request,
    session: SessionDep,
    tenant: TenantDep,
    runtime: RuntimeDep,
    own: OwnMediaDep,
    response: Response,
) -> EvalRunObject:
    """Run an eval over `jsonl` rows or a model's `completions`; grading runs on workers."""
    evaluation = service.create_run(session, tenant, eval_id, payload, runtime.settings, own)
    definition, run, evaluation = _run_or_404(session, tenant, eval_id, evaluation.id)
    body = report.run_schema(session, definition, run, evaluation, str(request.base_url))
    lifecycle.submit(session, runtime, evaluation)
    session.commit()
    response.headers["Location"] = f"/v1/evals/{definition.id}/runs/{run.id}"
    return body


# Before POST /{eval_id}/runs/{run_id} (the legacy cancel), which would take `estimate` for a run.
@router.post("/{eval_id}/runs/estimate", response_model=Estimate, responses=_PROBLEMS)
@checked_anyway(_run_problems)
def estimate_eval_run(
    eval_id: str,
    payload: EvalRunCreate,
    session: SessionDep,
    tenant: TenantDep,
    runtime: RuntimeDep,
    own: OwnMediaDep,
) -> Estimate:
    """What creating this run would cost: its model's calls (`completions`) and its graders',
    per criterion and in total. Checked as a run is (the same 400); nothing is stored, no model
    is called."""
    return estimates.estimate_run(session, tenant, eval_id, payload, runtime.settings, own)


post_only(router, "/{eval_id}/runs/estimate")


@router.get("/{eval_id}/runs", response_model=EvalRunList, responses=_PROBLEMS)
def list_eval_runs(
    eval_id: str,
    request: Request,
    session: SessionDep,
    tenant: TenantDep,
    after: str | None = None,
    limit: LimitQuery = 20,
    order: Order = "asc",
    status: Literal["queued", "in_progress", "completed", "canceled", "failed"] | None = None,
) -> EvalRunList:
    definition = service.get_eval_or_404(session, tenant, eval_id)
    runs = EvalRunRepository(session, tenant.id).page(
        eval_id, status, id_cursor(after, "evalrun", ("after",)), limit, order == "asc"
    )
    base = str(request.base_url)
    return EvalRunList.of(
        [report.run_schema(session, definition, r, e, base) for r, e in runs[:limit]],
        len(runs) > limit,
    )


@router.get("/{eval_id}/runs/{run_id}", response_model=EvalRunObject, responses=_PROBLEMS)
def retrieve_eval_run(
    eval_id: str,
    run_id: str,
    request: Request,
    session: SessionDep,
    tenant: TenantDep,
    runtime: RuntimeDep,
) -> EvalRunObject:
    definition, run, evaluation = _run_or_404(session, tenant, eval_id, run_id)
    # Three missed heartbeats, as GET /v1/evaluations/{id}: the job is busy no longer, or gone.
    stalled_after = 3 * runtime.settings.heartbeat_seconds
    base = str(request.base_url)
    return report.run_schema(session, definition, run, evaluation, base, stalled_after)


@router.post("/{eval_id}/runs/{run_id}/cancel", response_model=EvalRunObject, responses=_PROBLEMS)
# openai SDKs before 3.23 cancel with an empty POST to the run itself.
@router.post(
    "/{eval_id}/runs/{run_id}",
    response_model=EvalRunObject,
    responses=_PROBLEMS,
    name="cancel_eval_run_legacy",
)
def cancel_eval_run(
    eval_id: str,
    run_id: str,
    request: Request,
    session: SessionDep,
    tenant: TenantDep,
    runtime: RuntimeDep,
) -> EvalRunObject:
    """Cancel a queued or running run; rows already graded keep their counts."""
    definition, run, evaluation = _run_or_404(session, tenant, eval_id, run_id, for_update=True)
    if evaluation.status in TERMINAL_STATUSES:
        if evaluation.status != "canceled":
            # 400, not 409: the SDK would retry a 409 twice more.
            raise bad_request(
                f"the run is already {evaluation.status}", ["run_id"], "run_not_cancelable"
            )
    else:
        try:
            evaluation = lifecycle.cancel(session, runtime, evaluation)
        except ProblemError as exc:
            raise bad_request(exc.detail or "", ["run_id"], "run_not_cancelable") from exc
    body = report.run_schema(session, definition, run, evaluation, str(request.base_url))
    session.commit()
    return body


@router.delete("/{eval_id}/runs/{run_id}", response_model=EvalRunDeleted, responses=_PROBLEMS)
def delete_eval_run(
    eval_id: str, run_id: str, session: SessionDep, tenant: TenantDep, runtime: RuntimeDep
) -> EvalRunDeleted:
    """Delete a run and its output items; a running run is canceled first."""
    _, _, evaluation = _run_or_404(session, tenant, eval_id, run_id, for_update=True)
    service.delete_runs(session, runtime, [evaluation])
    session.commit()
    return EvalRunDeleted(run_id=run_id)


@router.get(
    "/{eval_id}/runs/{run_id}/output_items", response_model=OutputItemList, responses=_PROBLEMS
)
def list_output_items(
    eval_id: str,
    run_id: str,
    session: SessionDep,
    tenant: TenantDep,
    after: str | None = None,
    limit: LimitQuery = 20,
    order: Order = "asc",
    status: Literal["pass", "fail", "failed", "error"] | None = None,
) -> OutputItemList:
    """The graded rows, each with every criterion's result and Loupe's reason."""
    definition, run, evaluation = _run_or_404(session, tenant, eval_id, run_id)
    grades = report.Grades.of(session, evaluation)
    wanted = "fail" if status == "failed" else status
    indexes = sorted(
        (i for i, s in grades.statuses.items() if wanted is None or s == wanted),
        reverse=order == "desc",
    )
    if after:
        cursor = report.item_index(run_id, after)
        if cursor is None:
            raise bad_request(f"after {after!r} is not an output item of this run", ["after"])
        indexes = [i for i in indexes if (i > cursor if order == "asc" else i < cursor)]
    page = indexes[: limit + 1]
    items = report.output_items(session, definition, run, evaluation, grades, page[:limit])
    items.sort(key=lambda item: item.datasource_item_id, reverse=order == "desc")
    return OutputItemList.of(items, len(page) > limit)


@router.get(
    "/{eval_id}/runs/{run_id}/output_items/{output_item_id}",
    response_model=OutputItem,
    responses=_PROBLEMS,
)
def retrieve_output_item(
    eval_id: str, run_id: str, output_item_id: str, session: SessionDep, tenant: TenantDep
) -> OutputItem:
    definition, run, evaluation = _run_or_404(session, tenant, eval_id, run_id)
    index = report.item_index(run_id, output_item_id)
    grades = report.Grades.of(session, evaluation)
    if index is None or index not in grades.statuses:
        raise not_found(f"No output item {output_item_id!r} in this run.")
    return report.output_items(session, definition, run, evaluation, grades, [index])[0]
