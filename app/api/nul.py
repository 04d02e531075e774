"""U+0000 (NUL) in a request's path, query or form fields is refused naming each one.

PostgreSQL's text cannot hold it: an id, a cursor, a filter or a form field with one failed
in the database (a 500) in distributed mode, while SQLite took it. JSON bodies and uploaded
JSONL are checked as they are parsed (`app/api/nesting.py`); this dependency of every `/v1`
router and of the console's pages covers the rest, before any lookup, in both modes.
"""

from fastapi import Request
from starlette.datastructures import UploadFile

from app.api.nesting import NUL
from app.problems import FieldError, ProblemError, field_error

_MESSAGE = "holds U+0000 (NUL), which Loupe cannot store"
_FORMS = ("multipart/form-data", "application/x-www-form-urlencoded")


async def refuse_nul(request: Request) -> None:
    """400 problem+json naming every path or query parameter holding U+0000; 422 (400 on the
    OpenAI routes) naming every form field, or uploaded file's name, holding one."""
    address: list[FieldError] = []
    for name, value in request.path_params.items():
        if isinstance(value, str) and NUL in value:
            address.append(field_error(["path", name], f"the value {_MESSAGE}", "nul_character"))
    for name, value in request.query_params.multi_items():
        if NUL in name or NUL in value:
            what = "the name" if NUL in name else "the value"
            address.append(field_error(["query", name], f"{what} {_MESSAGE}", "nul_character"))
    if address:
        raise _problem(400, "Bad Request", address)
    media = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media not in _FORMS:
        return
    # The endpoint's own form, already parsed by FastAPI (Starlette keeps it on the request).
    form = await request.form()
    fields: list[FieldError] = []
    for name, value in form.multi_items():
        if NUL in name:
            fields.append(field_error([name], f"the field's name {_MESSAGE}", "nul_character"))
        elif isinstance(value, UploadFile):
            if value.filename and NUL in value.filename:
                fields.append(field_error([name], f"the file name {_MESSAGE}", "nul_character"))
        elif NUL in value:
            fields.append(field_error([name], f"the value {_MESSAGE}", "nul_character"))
    if fields:
        raise _problem(422, "Invalid request", fields)


def _problem(status: int, title: str, errors: list[FieldError]) -> ProblemError:
    detail = "; ".join(f"{error.loc}: {error.msg}" for error in errors[:3])
    return ProblemError(status, title, detail, slug="nul-character", errors=errors)
