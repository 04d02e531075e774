"""Unknown query parameters are refused: a misspelt filter must not silently list everything."""

from typing import Any

from fastapi import Request
from fastapi.dependencies.models import Dependant
from fastapi.dependencies.utils import request_params_to_args
from fastapi.routing import APIRoute
from pydantic import AfterValidator
from pydantic_core import PydanticCustomError

from app.plain_errors import pydantic_message
from app.problems import FieldError, ProblemError, bad_request, field_error

_known: dict[int, frozenset[str]] = {}


def _query_params(dependant: Dependant) -> list[Any]:
    params = list(dependant.query_params)
    for dependency in dependant.dependencies:
        params += _query_params(dependency)
    return params


def _query_names(dependant: Dependant) -> set[str]:
    return {param.alias for param in _query_params(dependant)}


def _declared_problems(route: APIRoute, request: Request) -> list[FieldError]:
    """The faults of the declared parameters' values, so that one answer names them beside the
    unknown ones (the schema's check would only run after those are fixed)."""
    _, errors = request_params_to_args(_query_params(route.dependant), request.query_params)
    return [
        field_error(["query", *map(str, error["loc"][1:])], pydantic_message(error), error["type"])
        for error in errors
    ]


def _declared(route: APIRoute) -> frozenset[str]:
    names = _known.get(id(route))
    if names is None:
        names = _known[id(route)] = frozenset(_query_names(route.dependant))
    return names


def reject_unknown_query(request: Request) -> None:
    """400 problem+json naming every query parameter the route does not declare."""
    route = request.scope.get("route")
    if not isinstance(route, APIRoute) or not request.query_params:
        return
    unknown = sorted(set(request.query_params) - _declared(route))
    if unknown:
        known = ", ".join(sorted(_declared(route))) or "none"
        errors = [
            field_error(["query", name], "unknown query parameter", "unknown_parameter")
            for name in unknown
        ]
        invalid = _declared_problems(route, request)
        detail = (
            f"unknown query parameter {', '.join(map(repr, unknown))} (this route takes: {known})"
        )
        if invalid:
            detail += "; " + "; ".join(f"{error.loc}: {error.msg}" for error in invalid)
        raise ProblemError(
            400,
            "Bad Request",
            detail,
            slug="unknown-query-parameter",
            errors=errors + invalid,
        )


# The largest value of SQL's INTEGER, the type of row ids and test case positions (PostgreSQL
# binds the cursor as one, SQLite refuses anything past 2**63 - 1): a larger cursor would be a
# database error instead of an empty page.
MAX_POSITION = 2**31 - 1


def position(name: str, value: str, what: str) -> int:
    """A numeric cursor (a row or sample position) from the query string; 400 problem+json
    naming the parameter unless it is a whole number from 0 to MAX_POSITION."""
    if not (value.isascii() and value.isdigit()) or int(value) > MAX_POSITION:
        raise bad_request(
            f"{name}: {value[:40]!r} is not {what} (a whole number from 0 to {MAX_POSITION})",
            ["query", name],
            "bad_cursor",
        )
    return int(value)


def id_cursor(
    value: str | None, prefix: str | tuple[str, ...], loc: tuple[str, ...] = ("query", "after")
) -> str | None:
    """An id cursor (`after`) from the query string; 400 problem+json naming the parameter
    unless it is empty (no cursor) or has the prefix of the ids listed (`prefix`: a tuple when
    the list's older ids had another, the current one first).

    Ids sort by creation time, so a cursor that was deleted or never issued still has a place
    in the order; text of another shape sorts before or after every id and would silently
    answer the first page or an empty one.
    """
    prefixes = (prefix,) if isinstance(prefix, str) else prefix
    if not value or value.startswith(tuple(f"{each}_" for each in prefixes)):
        return value
    raise bad_request(
        f"{loc[-1]}: {value[:40]!r} is not an id of this list (they start with {prefixes[0]}_)",
        list(loc),
        "bad_cursor",
    )


# The error type of a cursor refused with the query's other parameters: alone, it is answered
# as a 400 bad-cursor, as a cursor refused by an endpoint is.
BAD_CURSOR = "bad_cursor"


def id_after(*prefixes: str) -> AfterValidator:
    """The check of a list's `after` id (`Annotated[str | None, id_after("lbl")]`): run with
    the query's other parameters, so one answer names a bad cursor beside a bad `limit`."""

    def check(value: str | None) -> str | None:
        if not value or value.startswith(tuple(f"{each}_" for each in prefixes)):
            return value
        raise PydanticCustomError(
            BAD_CURSOR,
            "{value} is not an id of this list (they start with {prefix}_)",
            {"value": repr(value[:40]), "prefix": prefixes[0]},
        )

    return AfterValidator(check)


def position_after(what: str) -> AfterValidator:
    """The check of a numeric `after` (a row or sample position), as `id_after`'s."""

    def check(value: str | None) -> str | None:
        if value is None or (value.isascii() and value.isdigit() and int(value) <= MAX_POSITION):
            return value
        raise PydanticCustomError(
            BAD_CURSOR,
            "{value} is not {what} (a whole number from 0 to {most})",
            {"value": repr(value[:40]), "what": what, "most": MAX_POSITION},
        )

    return AfterValidator(check)
