"""Candidate models: register, read, list, delete."""

from typing import Annotated

from fastapi import APIRouter, Query, Response, status

from app import audit
from app.api.deps import RuntimeDep, SessionDep, TenantDep, checked_with_tenant
from app.api.idempotent import idempotent
from app.api.query import id_after, id_cursor
from app.api.routing import LeanRoute
from app.candidates import service
from app.candidates.repository import CandidateModelRepository
from app.candidates.schemas import CandidateModel, CandidateModelCreate, CandidateModelList
from app.problems import problem_responses

router = APIRouter(
    prefix="/v1/models",
    tags=["models"],
    route_class=LeanRoute,
    responses=problem_responses(400, 401, 404, 409, 413, 415, 422),
)

LimitQuery = Annotated[int, Query(ge=1, le=100)]


@router.post("", status_code=status.HTTP_201_CREATED, response_model=CandidateModel)
@checked_with_tenant(service.body_problems)
@idempotent()
def create_model(
    payload: CandidateModelCreate,
    session: SessionDep,
    tenant: TenantDep,
    runtime: RuntimeDep,
    response: Response,
) -> CandidateModel:
    """Register a candidate model (an OpenAI-compatible endpoint) for dataset runs."""
    model = service.create(session, tenant, payload, runtime.settings)
    body = service.to_schema(model)
    session.commit()
    response.headers["Location"] = f"/v1/models/{model.id}"
    return body


@router.get("", response_model=CandidateModelList)
def list_models(
    session: SessionDep,
    tenant: TenantDep,
    after: Annotated[str | None, id_after("model")] = None,
    limit: LimitQuery = 20,
) -> CandidateModelList:
    """The tenant's candidate models, newest first (keys are never returned)."""
    rows = CandidateModelRepository(session, tenant.id).page(id_cursor(after, "model"), limit)
    data = [service.to_schema(row) for row in rows[:limit]]
    return CandidateModelList.of(data, len(rows) > limit)


@router.get("/{model_id}", response_model=CandidateModel)
def get_model(model_id: str, session: SessionDep, tenant: TenantDep) -> CandidateModel:
    """One candidate model."""
    return service.to_schema(service.get_or_404(session, tenant, model_id))


@router.delete("/{model_id}", status_code=status.HTTP_204_NO_CONTENT)
def delete_model(model_id: str, session: SessionDep, tenant: TenantDep) -> Response:
    """Forget a model and its key; runs that used it keep their predictions. A model a queued
    or running run still calls is kept (409 naming the runs), as a dataset runs read is:
    cancel them or let them finish first; so is a model an online rule judges with (409 naming
    the rules): give them another judge first."""
    model = service.get_or_404(session, tenant, model_id)
    service.check_unused(session, tenant, model)
    audit.record(
        session, None, "model.delete", "model", model.id, tenant_id=tenant.id, name=model.name
    )
    CandidateModelRepository(session, tenant.id).delete(model)
    session.commit()
    return Response(status_code=status.HTTP_204_NO_CONTENT)
