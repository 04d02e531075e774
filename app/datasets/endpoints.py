"""Datasets: upload (multipart), read, list, page rows."""

from collections.abc import Mapping
from typing import Annotated, Any, get_args

from fastapi import APIRouter, File, Form, Query, Request, Response, UploadFile, status
from sqlalchemy.orm import Session
from starlette.datastructures import UploadFile as StarletteUploadFile

from app.api.deps import OwnMediaDep, RuntimeDep, SessionDep, TenantDep, checked_with_media
from app.api.idempotent import idempotent
from app.api.query import id_after, id_cursor, position, position_after
from app.api.routing import LeanRoute
from app.config import Settings
from app.datasets import service
from app.datasets.schemas import Dataset, DatasetFormatName, DatasetList, DatasetRowList
from app.media import gc
from app.media.own import OwnMedia
from app.models import Tenant
from app.problems import FieldError, ProblemError, field_error, problem_responses

router = APIRouter(
    prefix="/v1/datasets",
    tags=["datasets"],
    # Its key checked before an upload is spooled (app/api/routing.py).
    route_class=LeanRoute,
    responses=problem_responses(400, 401, 404, 413, 415, 422),
)

LimitQuery = Annotated[int, Query(ge=1, le=1000)]


def _upload_problems(
    session: Session, tenant: Tenant, settings: Settings, form: Mapping[str, Any], own: OwnMedia
) -> list[FieldError]:
    """What is wrong with the upload of a form that failed its schema (a name too long, say),
    named with the form's errors: an empty file, or, in a format Loupe reads, every row at
    fault, as a valid form's upload is checked."""
    upload = form.get("file")
    if not isinstance(upload, StarletteUploadFile):
        return []
    if upload.size == 0:
        return [field_error(["file"], "the upload is empty", "invalid_dataset")]
    fmt = form.get("format")
    if fmt not in get_args(DatasetFormatName):
        return []
    upload.file.seek(0)
    data = upload.file.read()
    try:
        service.checked_upload(
            "ds_check", upload.filename or "upload", data, str(fmt), settings, own
        )
    except ProblemError as problem:
        # A 413 (an archive past a cap) is not one of a 422's fields; it is answered alone.
        if problem.status == 422:
            return problem.errors or []
    return []


@router.post("", status_code=status.HTTP_201_CREATED, response_model=Dataset)
@checked_with_media(_upload_problems)
@idempotent()
def create_dataset(
    session: SessionDep,
    tenant: TenantDep,
    runtime: RuntimeDep,
    own: OwnMediaDep,
    response: Response,
    file: Annotated[
        UploadFile,
        File(
            description="A .jsonl, .tsv or .csv file, or a .zip of such files and their media.",
            # OpenAPI 3.0's spelling too, so SDK generators send a named file, not a string.
            json_schema_extra={"format": "binary"},
        ),
    ],
    format: Annotated[DatasetFormatName, Form(description="How the rows are laid out.")],
    name: Annotated[str | None, Form(max_length=256)] = None,
) -> Dataset:
    """Upload an EvalScope/VLMEvalKit benchmark file; every row is validated now."""
    data = file.file.read()
    if not data:
        raise ProblemError(
            422,
            "Invalid dataset",
            "file: the upload is empty",
            slug="invalid-dataset",
            field=["file"],
        )
    dataset = service.create(
        session,
        tenant,
        filename=file.filename or "upload",
        data=data,
        fmt=format,
        name=name,
        settings=runtime.settings,
        own=own,
    )
    body = service.to_schema(dataset)
    session.commit()
    response.headers["Location"] = f"/v1/datasets/{dataset.id}"
    return body


@router.get("", response_model=DatasetList)
def list_datasets(
    session: SessionDep,
    tenant: TenantDep,
    after: Annotated[str | None, id_after("ds")] = None,
    limit: LimitQuery = 20,
) -> DatasetList:
    """The tenant's datasets, newest first."""
    rows = service.page(session, tenant, id_cursor(after, "ds"), limit)
    data = [service.to_schema(row) for row in rows[:limit]]
    return DatasetList.of(data, len(rows) > limit)


@router.get("/{dataset_id}", response_model=Dataset)
def get_dataset(dataset_id: str, session: SessionDep, tenant: TenantDep) -> Dataset:
    """Subsets, row counts and the warnings the upload produced."""
    return service.to_schema(service.get_or_404(session, tenant, dataset_id))


@router.get("/{dataset_id}/rows", response_model=DatasetRowList)
def list_dataset_rows(
    request: Request,
    dataset_id: str,
    session: SessionDep,
    tenant: TenantDep,
    subset: str | None = None,
    after: Annotated[str | None, position_after("a row id")] = None,
    limit: LimitQuery = 100,
) -> DatasetRowList:
    """Stored rows in upload order; media as `GET /v1/media/{sha256}` URLs (an image part's
    `image_url.url`, an audio part's `input_audio.url`), which an upload or a submission
    takes back as they read."""

    def media_url(digest: str) -> str:
        return str(request.url_for("get_media", sha256=digest))

    dataset = service.get_or_404(session, tenant, dataset_id)
    cursor = None if after is None else position("after", after, "a row id")
    rows = service.rows_page(session, tenant, dataset, subset, cursor, limit)
    data = [service.row_to_schema(row, media_url) for row in rows[:limit]]
    return DatasetRowList.of(data, len(rows) > limit)


@router.delete(
    "/{dataset_id}", status_code=status.HTTP_204_NO_CONTENT, responses=problem_responses(409)
)
def delete_dataset(
    dataset_id: str, session: SessionDep, tenant: TenantDep, runtime: RuntimeDep
) -> Response:
    """Delete a dataset, its rows and the media no other row uses (409 while runs use it)."""
    digests = service.delete(session, tenant, dataset_id)
    session.commit()
    if digests:
        with runtime.session() as gc_session:
            gc.collect(gc_session, tenant.id, digests)
            gc_session.commit()
    return Response(status_code=status.HTTP_204_NO_CONTENT)
