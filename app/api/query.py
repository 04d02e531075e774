"""Unknown query parameters are refused: a misspelt filter must not silently list everything."""

from fastapi import Request
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute

from app.problems import ProblemError, field_error

_known: dict[int, frozenset[str]] = {}


def _query_names(dependant: Dependant) -> set[str]:
    names = {param.alias for param in dependant.query_params}
    for dependency in dependant.dependencies:
        names |= _query_names(dependency)
    return names


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
        raise ProblemError(
            400,
            "Bad Request",
            f"unknown query parameter {', '.join(map(repr, unknown))} (this route takes: {known})",
            slug="unknown-query-parameter",
            errors=[
                field_error(["query", name], "unknown query parameter", "unknown_parameter")
                for name in unknown
            ],
        )
