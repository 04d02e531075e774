"""`/v1/files`: the upload, read, list and delete calls `file_id` eval runs need."""

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from fastapi import APIRouter, File, Form, Query, Request, Response, UploadFile

from app import audit
from app.api.deps import RuntimeDep, SessionDep, TenantDep
from app.api.idempotent import idempotent
from app.api.query import id_cursor
from app.api.routing import OpenAIRoute
from app.files import service
from app.files.repository import EvalFileRepository
from app.files.schemas import FileDeleted, FileList, FileObject
from app.problems import FieldError, checked_anyway, problem_responses

router = APIRouter(prefix="/v1/files", tags=["files"], route_class=OpenAIRoute)
_PROBLEMS = problem_responses(400, 401, 404, 413)


def _form_problems(request: Request, form: Mapping[str, Any]) -> list[FieldError]:
    return service.form_problems(form)


@router.post("", response_model=FileObject, responses=_PROBLEMS)
@checked_anyway(_form_problems)
@idempotent()
async def create_file(
    request: Request,
    runtime: RuntimeDep,
    session: SessionDep,
    tenant: TenantDep,
    file: Annotated[UploadFile, File(description='JSONL rows `{"item": {...}}`.')],
    purpose: Annotated[str, Form()],
) -> FileObject:
    """Upload a JSONL file with `purpose=evals`; every line is checked now, by number."""
    form = await request.form()
    # The SDK sends nested fields as `expires_after[seconds]`; checked with the rest.
    seconds = form.get("expires_after[seconds]")
    content = await file.read()
    stored = service.create(
        session,
        tenant,
        file.filename or "upload.jsonl",
        content,
        purpose,
        seconds,
        runtime.settings,
    )
    body = service.to_schema(stored)
    session.commit()
    return body


@router.get("", response_model=FileList, responses=_PROBLEMS)
def list_files(
    session: SessionDep,
    tenant: TenantDep,
    purpose: str | None = None,
    after: str | None = None,
    limit: Annotated[int, Query(ge=1, le=10000)] = 10000,
    order: Literal["asc", "desc"] = "desc",
) -> FileList:
    """The tenant's files, newest first by default."""
    files = EvalFileRepository(session, tenant.id).page(
        purpose, id_cursor(after, "file", ("after",)), limit, order == "desc"
    )
    return FileList.of([service.to_schema(f) for f in files[:limit]], len(files) > limit)


@router.get("/{file_id}", response_model=FileObject, responses=_PROBLEMS)
def retrieve_file(file_id: str, session: SessionDep, tenant: TenantDep) -> FileObject:
    return service.to_schema(service.get_or_404(session, tenant, file_id))


@router.get(
    "/{file_id}/content",
    response_class=Response,
    responses={
        200: {
            "description": "The file as uploaded: one JSON object per line.",
            "content": {"application/jsonl": {"schema": {"type": "string", "format": "binary"}}},
        },
        **_PROBLEMS,
    },
)
def retrieve_file_content(file_id: str, session: SessionDep, tenant: TenantDep) -> Response:
    """The file's bytes as uploaded."""
    file = service.get_or_404(session, tenant, file_id, with_content=True)
    return Response(file.content, media_type="application/jsonl")


@router.delete("/{file_id}", response_model=FileDeleted, responses=_PROBLEMS)
def delete_file(file_id: str, session: SessionDep, tenant: TenantDep) -> FileDeleted:
    """Delete a file; runs already made from it keep their rows."""
    file = service.get_or_404(session, tenant, file_id)
    audit.record(
        session, None, "file.delete", "file", file.id, tenant_id=tenant.id, filename=file.filename
    )
    EvalFileRepository(session, tenant.id).delete(file)
    session.commit()
    return FileDeleted(id=file_id)
