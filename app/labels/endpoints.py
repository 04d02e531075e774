"""The labels API: people's verdicts on judged results, given, listed, imported, exported."""

from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Query, Request, Response, status
from fastapi.responses import StreamingResponse
from starlette.datastructures import UploadFile

from app.api.deps import CallerDep, RuntimeDep, SessionDep, TenantDep, checked_with_tenant
from app.api.idempotent import idempotent
from app.api.query import id_after, id_cursor
from app.api.routing import LeanRoute
from app.labels import checks, importing, service, transfer
from app.labels.schemas import Label, LabelCreate, LabelImport, LabelList
from app.problems import invalid_field, problem_responses
from app.tenants.scopes import READ, REVIEW, SCOPE_EXTENSION

router = APIRouter(
    prefix="/v1/labels",
    tags=["labels"],
    route_class=LeanRoute,
    responses=problem_responses(400, 401, 403, 404, 409, 413, 415, 422),
)

LimitQuery = Annotated[int, Query(ge=1, le=100)]
VersionQuery = Annotated[
    str | None, Query(min_length=1, max_length=40, description="Only this metric version's.")
]
EvaluationQuery = Annotated[
    str | None,
    Query(
        min_length=1,
        max_length=40,
        description="Only those given on this evaluation's results (where a label was given, "
        "not every evaluation whose results show it: see item_key).",
    ),
]
ResultQuery = Annotated[
    str | None,
    Query(
        min_length=1,
        max_length=40,
        description="Only those given on this result (a re-run's result shows labels given "
        "on another: filter by metric_version and item_key for those).",
    ),
]
ActorQuery = Annotated[
    str | None,
    Query(min_length=1, max_length=80, description="Only this actor's (`person:…`, `key:…`)."),
]
ItemQuery = Annotated[
    str | None,
    Query(
        min_length=1,
        max_length=64,
        description="Only those of this item (a result's `labels.item_key`): with "
        "metric_version, the labels a result counts, whichever evaluation they were given on.",
    ),
]
_IMPORT_EXAMPLE = (
    '{"result_id": "res_0193c4aa5b0c1d2e3f405162", "value": 0.8, "rationale": "Close."}\n'
    '{"evaluation_id": "evn_0193c4aa5b0c1d2e3f405162", "test_case_id": "logo", '
    '"metric": "helpfulness", "value": false}\n'
)
# Only JSON Lines is described: SDK generators give one body parameter per media type and
# cannot send text (the Python SDK sends it as bytes); text/csv is taken all the same.
_IMPORT_BODY = {
    "required": True,
    "content": {
        "application/x-ndjson": {
            "schema": {"type": "string", "format": "binary"},
            "example": _IMPORT_EXAMPLE,
        },
    },
}


def _shown(row: object) -> Label:
    return Label.model_validate(row, from_attributes=True)


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    response_model=Label,
    responses={
        200: {
            "model": Label,
            "description": "Your earlier label of the item, replaced (or, given through a "
            "review queue, the same label as it stands).",
        }
    },
    openapi_extra={SCOPE_EXTENSION: REVIEW},
)
@checked_with_tenant(checks.body_problems)
# A label is its caller's, and shows the judge's score only to a caller with `read`: a key
# another caller used replays nothing to them.
@idempotent(per_caller=True)
def create_label(
    payload: LabelCreate, session: SessionDep, caller: CallerDep, response: Response
) -> Label:
    """Label a judged result: your value on the metric's scale (or pass / fail), bound to the
    metric version and the item's content. Labelling the same item and version again replaces
    your label (200); the first time is a 201. A label you gave through a review queue is
    final: the same one again answers 200 with it as it stands, another is a 409
    `already-labelled` (delete it to give the item back to its queue). A caller without
    `read` gets `judge_score` and `judge_passed` as null (they are stored all the same)."""
    label, created = service.label(session, caller.tenant.id, caller.actor, payload)
    body = _shown(label)
    if not caller.may(READ):
        # A key or person without `read` reads no judged result: labelling one shows them
        # nothing the judge said (a review queue shows it once they answered an item it gave).
        body = body.model_copy(update={"judge_score": None, "judge_passed": None})
    session.commit()
    if created:
        response.headers["Location"] = f"/v1/labels/{label.id}"
    response.status_code = status.HTTP_201_CREATED if created else status.HTTP_200_OK
    return body


@router.get("", response_model=LabelList)
def list_labels(
    session: SessionDep,
    tenant: TenantDep,
    metric_version: VersionQuery = None,
    evaluation_id: EvaluationQuery = None,
    result_id: ResultQuery = None,
    actor: ActorQuery = None,
    item_key: ItemQuery = None,
    after: Annotated[str | None, id_after("lbl")] = None,
    limit: LimitQuery = 20,
) -> LabelList:
    """The tenant's labels, newest first."""
    where = service.LabelFilter(metric_version, evaluation_id, result_id, actor, item_key)
    rows = service.page(session, tenant.id, where, id_cursor(after, "lbl"), limit)
    return LabelList.of([_shown(row) for row in rows[:limit]], len(rows) > limit)


@router.get(
    "/export",
    responses={200: {"content": {"application/x-ndjson": {}, "text/csv": {}}}},
)
def export_labels(
    tenant: TenantDep,
    runtime: RuntimeDep,
    format: Literal["jsonl", "csv"] = "jsonl",
    metric_version: VersionQuery = None,
    evaluation_id: EvaluationQuery = None,
    result_id: ResultQuery = None,
    actor: ActorQuery = None,
    item_key: ItemQuery = None,
) -> StreamingResponse:
    """Every label of the tenant (or the filtered ones), oldest first, as JSON Lines or CSV
    (cells a spreadsheet would run as formulas start with a single quote). An export goes back
    in through POST /v1/labels/import as it stands."""
    where = service.LabelFilter(metric_version, evaluation_id, result_id, actor, item_key)
    return transfer.export(runtime, tenant.id, where, format)


async def _import_body(request: Request) -> tuple[str, bytes]:
    """The import's media type and bytes: the body, or the `file` field of a form upload."""
    content_type = request.headers.get("content-type", "")
    media = content_type.split(";", 1)[0].strip().lower()
    if media == "multipart/form-data":
        # Parsed once already (the NUL check reads every form): Starlette keeps it.
        form = await request.form()
        upload = form.get("file")
        if not isinstance(upload, UploadFile):
            raise invalid_field(
                ["body", "file"],
                "a form upload holds the labels as a file in the field `file` "
                "(curl -F file=@labels.jsonl)",
                "missing",
            )
        return transfer.upload_media(upload.filename, upload.content_type), await upload.read()
    if media == "application/x-www-form-urlencoded":
        # Form fields are no file of labels: read_import answers 415 for the media type.
        return content_type, b""
    return content_type, await request.body()


@router.post(
    "/import",
    response_model=LabelImport,
    openapi_extra={SCOPE_EXTENSION: REVIEW, "requestBody": _IMPORT_BODY},
)
def import_labels(
    # First, so the body is read before the route's own session is opened: that session kept
    # its pooled connection while a slow client trickled the body in. The key was checked
    # before the body was read, in a session closed at once (LeanRoute).
    body: Annotated[tuple[str, bytes], Depends(_import_body)],
    request: Request,
    session: SessionDep,
    caller: CallerDep,
) -> LabelImport:
    """Import labels, all or nothing: JSON Lines (`application/x-ndjson`, each line a POST
    /v1/labels body) or CSV (`text/csv`, header columns among result_id, evaluation_id,
    test_case_id, metric, value, rationale), at most 5000 lines; or either as a form upload's
    `file` (its part's type, else its name's extension: `.jsonl`, `.ndjson`, `.csv`). A line
    is your label, given directly, unless its `actor` names another of the team's people or
    keys: a team admin (the `admin` scope) then restores it as theirs, with its `selection` and
    `queue_id`, and anyone else is refused at that line. An export goes in as it stands (its
    other fields are ignored; an exported pass/fail label's `passed` is its value). A bad line,
    or a second line for the same item and person, stores nothing: the 422 names every bad
    line and field (`/lines/<n>/<field>`)."""
    lines, unread = transfer.read_import(*body)
    created, updated = importing.import_labels(session, caller, lines, unread)
    session.commit()
    return LabelImport(created=created, updated=updated)


@router.get("/{label_id}", response_model=Label)
def get_label(label_id: str, session: SessionDep, tenant: TenantDep) -> Label:
    """One label."""
    return _shown(service.get_or_404(session, tenant.id, label_id))


@router.delete(
    "/{label_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    openapi_extra={SCOPE_EXTENSION: REVIEW},
)
def delete_label(label_id: str, session: SessionDep, caller: CallerDep) -> Response:
    """Delete your own label; a team admin (the `admin` scope) may delete anyone's. Another's
    label is a 403 naming whose it is."""
    service.delete(session, caller, service.get_or_404(session, caller.tenant.id, label_id))
    session.commit()
    return Response(status_code=status.HTTP_204_NO_CONTENT)
