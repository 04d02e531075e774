"""The handlers that answer every error FastAPI, Starlette or Loupe raises as problem+json,
each in the dialect of the route that took the request."""

import json
import logging
from collections.abc import Mapping
from typing import Any

import sqlalchemy.exc
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from app.api.query import BAD_CURSOR
from app.db_outage import database_away, unreachable
from app.plain_errors import pydantic_message
from app.problems import (
    BODY_CHECK_ATTRIBUTE,
    PROBLEM_BASE,
    FieldError,
    Problem,
    ProblemError,
    ProblemHTTPError,
    error_dialect,
    field_error,
    invalid_request,
    located_errors,
    problem_response,
)

logger = logging.getLogger("loupe")

_JSON_KINDS = {list: "an array", str: "a string", bool: "a boolean", int: "a number"}


def _whole_body_error(error: Mapping[str, Any], body: Any) -> FieldError:
    """The FieldError for a request body that is missing or is not a JSON object."""
    if error.get("type") == "missing":
        return field_error(["body"], "the request body is empty; send a JSON object", "missing")
    if body is None or isinstance(body, (list, str, bool, int, float)):
        kind = "null" if body is None else _JSON_KINDS.get(type(body), "a number")
        return field_error(["body"], f"expected a JSON object, got {kind}", "object_type")
    return field_error(["body"], pydantic_message(error), error.get("type", "value_error"))


# The bare HTTP errors Starlette and FastAPI raise while reading a body: the problem type and
# the fault named at `body` (our own code raises `ProblemHTTPError`, never these).
_BODY_FAULTS = {400: ("malformed-body", "malformed_body"), 413: ("body-too-large", "too_large")}
_TITLES = {
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
    409: "Conflict",
    413: "Content Too Large",
    415: "Unsupported Media Type",
    422: "Unprocessable Content",
    429: "Too Many Requests",
    500: "Internal Server Error",
    503: "Service Unavailable",
}


def _routing_detail(request: Request, status: int, headers: dict[str, str]) -> str | None:
    """The detail of a 404 or 405 from routing, naming the method and path asked for."""
    asked = f"{request.method} {request.url.path}"
    if status == 404:
        return f"No such route: {asked}."
    if status == 405:
        allowed = headers.get("Allow")
        return f"{asked}: method not allowed" + (
            f"; this path takes {allowed}." if allowed else "."
        )
    return None


def _path_fault(request: Request, exc: ProblemError) -> list[FieldError] | None:
    """A 404 or 409 that names no field names the path's id it is about: a 404 the id its
    detail names first (`No run 'r' in eval 'e'.` is the run's), a 409 the resource acted on
    (the path's last id)."""
    params = {name: str(value) for name, value in request.path_params.items() if str(value)}
    if exc.status not in (404, 409) or not params:
        return None
    detail = exc.detail or exc.title
    if exc.status == 404:
        named = sorted(
            (detail.find(value), name) for name, value in params.items() if value in detail
        )
        if not named:
            return None
        field = named[0][1]
    else:
        field = list(params)[-1]
    code = (
        exc.slug.replace("-", "_")
        if exc.slug
        else ("not_found" if exc.status == 404 else "conflict")
    )
    return [field_error(["path", field], detail, code)]


# Seconds a client is told to wait while the database is unreachable.
_STORAGE_RETRY_AFTER = "5"


_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def _allowed_methods(request: Request) -> list[str]:
    """Every method some route answers on the request's path.

    Starlette's 405 lists the methods of the first route whose path matched, so a path served
    by two routes (GET and POST /v1/evaluations) advertised only one of them.
    """
    allowed = []
    for method in _METHODS:
        # A fresh scope per method: matching writes routing state into the scope it is given.
        scope = {
            "type": "http",
            "method": method,
            "path": request.scope["path"],
            "root_path": request.scope.get("root_path", ""),
            "headers": [],
        }
        if any(route.matches(scope)[0] == Match.FULL for route in request.app.router.routes):
            allowed.append(method)
    return allowed


def install_problem_handlers(app: FastAPI) -> None:
    """Turn every error FastAPI or Loupe raises into application/problem+json."""

    @app.exception_handler(ProblemError)
    async def _problem(request: Request, exc: ProblemError) -> JSONResponse:
        return problem_response(
            Problem(
                type=PROBLEM_BASE + exc.slug if exc.slug else "about:blank",
                title=exc.title,
                status=exc.status,
                detail=exc.detail,
                instance=request.url.path,
                errors=exc.errors or _path_fault(request, exc),
                required_scope=exc.required_scope,
            ),
            exc.headers,
            error_dialect(request),
        )

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        raw_errors = exc.errors()
        if any(e.get("type") == "json_invalid" for e in raw_errors):
            first = raw_errors[0]
            # FastAPI's message is always "JSON decode error"; the parser's says what and where.
            reason = str((first.get("ctx") or {}).get("error") or first.get("msg"))
            return problem_response(
                Problem(
                    type=PROBLEM_BASE + "malformed-json",
                    title="Malformed JSON",
                    status=400,
                    detail=f"The request body is not valid JSON: {reason}",
                    instance=request.url.path,
                    errors=[field_error(["body"], reason, "json_invalid")],
                ),
                dialect=error_dialect(request),
            )
        content_type = request.headers.get("content-type", "")
        if (
            request.method in ("POST", "PUT", "PATCH")
            and "json" not in content_type
            and any(tuple(e.get("loc", ())) == ("body",) for e in raw_errors)
        ):
            return problem_response(
                Problem(
                    type=PROBLEM_BASE + "unsupported-media-type",
                    title="Unsupported Media Type",
                    status=415,
                    detail="Send the body as JSON with `Content-Type: application/json`.",
                    instance=request.url.path,
                    errors=[field_error(["body"], "expected application/json", "media_type")],
                ),
                dialect=error_dialect(request),
            )
        body = exc.body if hasattr(exc, "body") else None
        if isinstance(body, bytes):
            try:
                body = json.loads(body)
            except ValueError:
                body = None
        errors = []
        for path, message, kind, e in located_errors(raw_errors, body):
            if not path:
                # The body as a whole is wrong: name it, never an empty `loc` (or `param`).
                errors.append(_whole_body_error(e, body))
                continue
            if e.get("type") in ("union_tag_invalid", "union_tag_not_found"):
                # Point at the discriminator field itself (`metrics[1].type`), not the item.
                field = str((e.get("ctx") or {}).get("discriminator", "")).strip("'\"")
                if field.isidentifier():
                    path.append(field)
            errors.append(field_error(path, message, kind))
        if all(e.get("type") == BAD_CURSOR for e in raw_errors):
            # A cursor alone is answered as the endpoints answer one they cannot place.
            detail = "; ".join(
                f"{error.loc.removeprefix('query.')}: {error.msg}" for error in errors
            )
            return await _problem(
                request,
                ProblemError(400, "Bad Request", detail, slug="bad-cursor", errors=errors),
            )
        endpoint = getattr(request.scope.get("route"), "endpoint", None)
        check = getattr(endpoint, BODY_CHECK_ATTRIBUTE, None)
        if check is not None and isinstance(body, Mapping):
            # What the schema stage cannot see (a metric's needs, images that do not decode):
            # in this answer too, not the next one's.
            # A field the schema refused is not named twice.
            refused = {error.loc for error in errors}
            more = await run_in_threadpool(check, request, body)
            errors.extend(error for error in more if error.loc not in refused)
        return await _problem(request, invalid_request(errors))

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if isinstance(exc, ProblemHTTPError):
            return await _problem(request, exc.problem)
        detail = exc.detail if isinstance(exc.detail, str) else None
        headers = dict(exc.headers or {})
        if exc.status_code == 405 and "Allow" in headers:
            headers["Allow"] = ", ".join(_allowed_methods(request)) or headers["Allow"]
        if detail == _TITLES.get(exc.status_code):
            # Starlette's default detail only repeats the title; say what was asked for.
            detail = _routing_detail(request, exc.status_code, headers) or detail
        # A body over the limit that came chunked is refused while FastAPI reads it (413); a
        # form Starlette cannot parse (a part over 1 MB, too many fields) is its bare 400.
        slug, fault = _BODY_FAULTS.get(exc.status_code, (None, None))
        return problem_response(
            Problem(
                type=PROBLEM_BASE + slug if slug else "about:blank",
                title=_TITLES.get(exc.status_code, "Error"),
                status=exc.status_code,
                detail=detail,
                instance=request.url.path,
                errors=[field_error(["body"], detail or slug, fault)] if fault else None,
            ),
            headers,
            error_dialect(request),
        )

    @app.exception_handler(sqlalchemy.exc.SQLAlchemyError)
    async def _storage(request: Request, exc: sqlalchemy.exc.SQLAlchemyError) -> JSONResponse:
        # Answered here, not as an unexpected error: that one is re-raised to the server,
        # which then closes the client's connection.
        if not unreachable(exc):
            raise exc
        database_away("request", exc)
        request_id = getattr(request.state, "request_id", None)
        # The database is unreachable (restarting, failing over): not a Loupe bug, and a
        # retry shortly may well work, as /readyz says meanwhile.
        problem = Problem(
            type=PROBLEM_BASE + "storage-unavailable",
            title="Service Unavailable",
            status=503,
            detail="The database is unavailable; retry shortly.",
            instance=request.url.path,
        )
        response = problem_response(
            problem, {"Retry-After": _STORAGE_RETRY_AFTER}, error_dialect(request)
        )
        if request_id is not None:
            response.headers["X-Request-Id"] = request_id
        return response

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        # Starlette answers an unhandled error outside every middleware: the request id the
        # telemetry layer gave the request is put back on the log line and the answer here.
        request_id = getattr(request.state, "request_id", None)
        logger.exception(
            "unhandled error on %s %s (request %s)",
            request.method,
            request.url.path,
            request_id,
        )
        response = problem_response(
            Problem(
                title="Internal Server Error",
                status=500,
                detail="An unexpected error occurred; it has been logged.",
                instance=request.url.path,
            ),
            dialect=error_dialect(request),
        )
        if request_id is not None:
            response.headers["X-Request-Id"] = request_id
        return response
