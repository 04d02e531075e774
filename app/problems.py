"""RFC 9457 problem details: the one shape every 4xx/5xx answer takes."""

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, Literal, TypeVar

from fastapi import Request, Response
from fastapi.responses import JSONResponse
from google.rpc.status_pb2 import Status
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.plain_errors import pydantic_message

PROBLEM_MEDIA_TYPE = "application/problem+json"
PROBLEM_BASE = "https://loupe.dev/problems/"
# Location segments that pydantic adds for union members, not for fields (see media/parts.py).
_TAG_PREFIX = "@"
# Field errors one answer lists at most; a 10,000-case submission can have many more.
MAX_FIELD_ERRORS = 100

T = TypeVar("T")


class FieldError(BaseModel):
    loc: str = Field(description="Where the bad value is, e.g. `test_cases[3].actual_output`.")
    pointer: str = Field(description="The same place as a JSON Pointer into the request body.")
    msg: str
    type: str


class Problem(BaseModel):
    """An RFC 9457 problem; `errors` lists each bad field of a request."""

    type: str = "about:blank"
    title: str
    status: int
    detail: str | None = None
    instance: str | None = None
    errors: list[FieldError] | None = None
    required_scope: str | None = Field(
        None, description="On a 403: the scope the call needs, which the caller lacks."
    )


class ProblemError(Exception):
    """Raise anywhere in a request to answer with a problem.

    Args:
        field: where the request is at fault (`["query", "after"]`, `["header",
            "Idempotency-Key"]`, a body path): errors[] then names it, with the detail as its
            message, unless `errors` is given.
    """

    def __init__(
        self,
        status: int,
        title: str,
        detail: str | None = None,
        *,
        slug: str | None = None,
        errors: list[FieldError] | None = None,
        headers: dict[str, str] | None = None,
        field: list[str | int] | None = None,
        required_scope: str | None = None,
    ) -> None:
        super().__init__(detail or title)
        if errors is None and field:
            code = slug.replace("-", "_") if slug else "value_error"
            errors = [field_error(field, detail or title, code)]
        self.status = status
        self.title = title
        self.detail = detail
        self.slug = slug
        self.errors = errors
        self.headers = headers
        self.required_scope = required_scope


class ProblemHTTPError(StarletteHTTPException):
    """A ProblemError where only HTTPExceptions get through: FastAPI turns anything else raised
    while it reads a body into a bare 400."""

    def __init__(self, problem: ProblemError) -> None:
        super().__init__(problem.status, problem.detail)
        self.problem = problem


def problem_responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI `responses=` entries declaring problem+json bodies, for typed SDK errors."""
    return {
        code: {
            "model": Problem,
            "content": {PROBLEM_MEDIA_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}},
        }
        for code in codes
    }


def field_error(path: list[str | int], msg: str, type_: str = "value_error") -> FieldError:
    """A FieldError for a path into the request body."""
    return FieldError(loc=format_loc(path), pointer=format_pointer(path), msg=msg, type=type_)


def format_loc(path: list[str | int]) -> str:
    out = ""
    for segment in path:
        if isinstance(segment, int):
            out += f"[{segment}]"
        else:
            out += f".{segment}" if out else segment
    return out


def format_pointer(path: list[str | int]) -> str:
    return "/" + "/".join(str(s).replace("~", "~0").replace("/", "~1") for s in path)


def clean_loc(raw: tuple[Any, ...], body: Any) -> list[str | int]:
    """The body path of a validation error, without pydantic's union-member segments."""
    return _located(raw, body, named=True)[0]


_UNKNOWN = object()


def _located(raw: tuple[Any, ...], body: Any, named: bool) -> tuple[list[str | int], str | None]:
    """The body path of a validation error, and the union member's name pydantic put last in
    it (`constrained-str`, `int`: the member that refused the value at that path), if any.

    Args:
        named: whether a last segment absent from the body is still a field (a `missing`
            one): else it is a union member's name.
    """
    path = list(raw)
    if path and path[0] in ("body", "query", "path", "header"):
        where = path.pop(0)
        if where != "body":
            return [where, *path], None
    cleaned: list[str | int] = []
    member: str | None = None
    # An unparsed body (None) says nothing of which segments are the client's.
    node: Any = body if body is not None else _UNKNOWN
    for i, segment in enumerate(path):
        if isinstance(segment, str) and segment.startswith(_TAG_PREFIX):
            continue
        member = None
        last = i == len(path) - 1
        # Mapping, not dict: a multipart body arrives as Starlette's FormData.
        if isinstance(segment, str) and isinstance(node, Mapping):
            if segment in node:
                node = node[segment]
            elif not last:
                # A discriminator value (e.g. a metric type) standing for the union member.
                continue
            elif not named:
                member = segment
                continue
        elif isinstance(segment, int) and isinstance(node, list) and 0 <= segment < len(node):
            node = node[segment]
        elif isinstance(segment, str) and not last:
            continue
        elif isinstance(segment, str) and node is not _UNKNOWN and not isinstance(node, Mapping):
            # A union member's name (`constrained-str`, `int`) under a value that is no
            # object: pydantic's, not the client's.
            member = segment
            continue
        cleaned.append(segment)
    return cleaned, member


# What a union member pydantic names expects, for one message naming them all.
_MEMBER_KINDS = {
    "str": "a string",
    "constrained-str": "a string",
    "int": "an integer",
    "constrained-int": "an integer",
    "float": "a number",
    "constrained-float": "a number",
    "bool": "a boolean",
    "none": "null",
    "list": "an array",
    "tuple": "an array",
    "set": "an array",
    "dict": "an object",
}
_MISMATCHES = ("_type", "_parsing", "int_from_float", "literal_error", "union_tag_invalid")


def _member_kind(member: str) -> str:
    name = member.split("[", 1)[0]
    if name.startswith("function-") and member.endswith("]"):
        # A validated type (`function-after[check_template(), str]`): the type it validates.
        name = member[:-1].rsplit(",", 1)[-1].strip().split("[", 1)[0]
    if name == "tagged-union":
        return "an object"  # models told apart by a field such as `type`
    kind = _MEMBER_KINDS.get(name)
    if kind is None and member[:1].isupper():
        return "an object"  # a model's class name
    return kind or "a valid value"


def located_errors(
    raw_errors: list[Any], body: Any
) -> list[tuple[list[str | int], str, str, Mapping[str, Any]]]:
    """Each pydantic error as (body path, message, type, the error), with union members'
    names left out of the paths: the members' errors at one value become one error there.

    A value no member takes (`"id": {}` for a string or an integer) was two errors at
    `id.constrained-str` and `id.int`, paths into nothing; it is one, "must be a string or an
    integer". A value of a member's type that fails that member's rule (a string too long)
    is that member's error alone.
    """
    located = [
        (*_located(tuple(e.get("loc", ())), body, e.get("type") == "missing"), e)
        for e in raw_errors
    ]
    members: dict[tuple[str | int, ...], list[tuple[str, Mapping[str, Any]]]] = {}
    for path, member, error in located:
        if member is not None:
            members.setdefault(tuple(path), []).append((member, error))
    # Paths under which some error lies deeper: a union's value there was of a member's type
    # (an array, an object) and failed inside, where those errors say what is wrong.
    deeper = {tuple(path[:end]) for path, _, _ in located for end in range(len(path))}
    found = []
    said: set[tuple[str | int, ...]] = set()
    for path, member, error in located:
        kind = str(error.get("type", "value_error"))
        if member is None:
            found.append((path, pydantic_message(error), kind, error))
            continue
        at = tuple(path)
        tried = members[at]
        fits = [e for _, e in tried if not str(e.get("type", "")).endswith(_MISMATCHES)]
        if fits or at in deeper:
            # The value is of a member's type: that member's complaint is the one to hear.
            if not str(error.get("type", "")).endswith(_MISMATCHES):
                found.append((path, pydantic_message(error), kind, error))
            continue
        if at in said:
            continue
        said.add(at)
        kinds = list(dict.fromkeys(_member_kind(name) for name, _ in tried))
        message = "must be " + (
            ", ".join(kinds[:-1]) + " or " + kinds[-1] if len(kinds) > 1 else kinds[0]
        )
        found.append((path, message, "union_type" if len(tried) > 1 else kind, error))
    return found


# How a route's errors are said: `problem` (RFC 9457 alone) or `openai` (the routes the official
# `openai` SDK calls, declared by their router's route class: the SDK reads `error: {message,
# type, param, code}` and raises BadRequestError for 400, as OpenAI answers a bad body).
# `otlp`: the OTLP/HTTP receiver's, a `google.rpc.Status` in the request's encoding
# (`otlp_protobuf`: the Status message alone; `otlp_json`: the problem with Status's `code`
# and `message` beside its members, one body for both readers).
ErrorDialect = Literal["problem", "openai", "otlp_json", "otlp_protobuf"]
# gRPC status codes by HTTP status, as the OTLP specification maps them.
OTLP_PROTOBUF = "application/x-protobuf"
_GRPC_CODES = {400: 3, 401: 16, 403: 7, 404: 5, 413: 8, 415: 3, 429: 8, 503: 14}
_OPENAI_TYPES = {401: "authentication_error", 403: "permission_error", 429: "rate_limit_error"}


def _openai_error(problem: Problem) -> dict[str, Any]:
    first = problem.errors[0] if problem.errors else None
    return {
        "message": problem.detail or problem.title,
        "type": _OPENAI_TYPES.get(
            problem.status, "server_error" if problem.status >= 500 else "invalid_request_error"
        ),
        "param": first.loc if first else None,
        "code": problem.type.removeprefix(PROBLEM_BASE).replace("-", "_")
        if problem.type != "about:blank"
        else None,
    }


def error_dialect(request: Request) -> ErrorDialect:
    """The dialect of the route that took the request (`problem` when none did)."""
    dialect = getattr(request.scope.get("route"), "error_dialect", "problem")
    if dialect == "otlp":
        return otlp_dialect(request.headers.get("content-type", ""))
    return dialect


def otlp_dialect(content_type: str) -> ErrorDialect:
    """The OTLP receiver's errors for a request of this Content-Type: a protobuf Status for a
    protobuf export, else JSON."""
    protobuf = content_type.lower().startswith(OTLP_PROTOBUF)
    return "otlp_protobuf" if protobuf else "otlp_json"


def problem_response(
    problem: Problem, headers: dict[str, str] | None = None, dialect: ErrorDialect = "problem"
) -> JSONResponse:
    body = problem.model_dump(exclude_none=True)
    if dialect in ("otlp_json", "otlp_protobuf"):
        code = _GRPC_CODES.get(problem.status, 13 if problem.status >= 500 else 3)
        message = problem.detail or problem.title
        if dialect == "otlp_protobuf":
            status = Status(code=code, message=message).SerializeToString()
            return Response(  # type: ignore[return-value]
                status, status_code=problem.status, media_type=OTLP_PROTOBUF, headers=headers
            )
        body |= {"code": code, "message": message}
    if dialect == "openai":
        if problem.status == 422:
            problem.status = body["status"] = 400
        # The same problem, plus the member the SDK reads: one body satisfies both readers.
        body["error"] = _openai_error(problem)
    return JSONResponse(
        body, status_code=problem.status, media_type=PROBLEM_MEDIA_TYPE, headers=headers
    )


def invalid_request(errors: list[FieldError], total: int | None = None) -> ProblemError:
    """The 422 naming every field at fault: detail lists the first three, errors[] the first
    100 (`total`: how many there are in all, when more were found than kept)."""
    total = max(total or 0, len(errors))
    detail = "; ".join(f"{error.loc}: {error.msg}" for error in errors[:3])
    if total > 3:
        detail += f" (and {total - 3} more)"
    return ProblemError(
        422, "Invalid request", detail, slug="validation", errors=errors[:MAX_FIELD_ERRORS]
    )


# A body that is still checked past a failed schema (see `checked_anyway`).
BodyCheck = Callable[[Request, Mapping[str, Any]], list[FieldError]]
BODY_CHECK_ATTRIBUTE = "loupe_body_check"


def checked_anyway(check: BodyCheck) -> Callable[[T], T]:
    """Mark an endpoint whose JSON body, when it fails its schema, is still checked by `check`
    (run in a thread, given the request and the parsed body): its field errors join the
    schema's in one 422, so a client fixes every problem at once rather than one stage a
    round."""

    def mark(endpoint: T) -> T:
        setattr(endpoint, BODY_CHECK_ATTRIBUTE, check)
        return endpoint

    return mark


class Collected:
    """Problems of checks that each raise at their first, gathered to be answered once: run
    every check that can run `with collected.catch():`, then `collected.raise_if_any()`."""

    def __init__(self) -> None:
        self.problems: list[ProblemError] = []

    @contextmanager
    def catch(self) -> Iterator[None]:
        try:
            yield
        except ProblemError as problem:
            # A client's problem is gathered; a server's (5xx) or a limit's (429) ends the checks.
            if not 400 <= problem.status < 500 or problem.status == 429:
                raise
            self.problems.append(problem)

    def add(self, problem: ProblemError) -> None:
        self.problems.append(problem)

    def __bool__(self) -> bool:
        return bool(self.problems)

    def raise_if_any(self) -> None:
        """Raise the first problem's kind naming every field of all of them, if any."""
        if not self.problems:
            return
        first = self.problems[0]
        if len(self.problems) == 1:
            raise first
        errors = [error for problem in self.problems for error in problem.errors or []]
        details = [problem.detail or problem.title for problem in self.problems]
        detail = "; ".join(details[:3])
        if len(details) > 3:
            detail += f" (and {len(details) - 3} more)"
        raise ProblemError(
            first.status, first.title, detail, slug=first.slug, errors=errors[:MAX_FIELD_ERRORS]
        )


def bad_request(message: str, path: list[str | int] | None = None, code: str = "invalid_value"):
    """A 400 naming the field at `path` (the `param` of the SDK's BadRequestError)."""
    errors = [field_error(path, message, code)] if path else None
    return ProblemError(400, "Bad Request", message, slug=code.replace("_", "-"), errors=errors)


def not_found(detail: str, field: list[str | int] | None = None) -> ProblemError:
    """A 404 saying what is not there; `field`: the path parameter or body field at fault."""
    return ProblemError(404, "Not Found", detail, slug="not-found", field=field)


def invalid_field(path: list[str | int], message: str, code: str = "value_error") -> ProblemError:
    """A 422 shaped like a failed validation: detail `loc: message`, errors[] naming the field."""
    return invalid_request([field_error(path, message, code)])
