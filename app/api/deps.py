"""Typed dependencies every endpoint uses: the runtime, a session, the caller and its tenant.

Authentication yields a `Caller` (tenant, scopes, actor); the route's scope is checked right
there, before the endpoint reads anything, so a call outside the key's scopes is a 403 naming
the scope it needs whether or not the object it names exists. Each route's scope is declared
once: `openapi_extra={"x-loupe-scope": ...}` on the route, else derived from its method
(app/tenants/scopes.py); openapi.json shows it as the operation's `x-loupe-scope`.
"""

from collections.abc import Callable, Iterator, Mapping
from typing import Annotated, Any, TypeVar

from fastapi import Depends, FastAPI, Header, Request
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute, iter_route_contexts
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from app import audit
from app.config import Settings
from app.media.own import OwnMedia
from app.models import Tenant
from app.people.keys import capped
from app.problems import FieldError, ProblemError, checked_anyway
from app.runtime import Runtime
from app.tenants.scopes import (
    ALSO_SCOPE_EXTENSION,
    READ,
    SCOPE_EXTENSION,
    Caller,
    route_scope,
)
from app.tenants.service import KeyExpired, caller_for_key
from app.tenants.throttle import Throttled, app_throttle, client_address, refusal


def get_runtime(request: Request) -> Runtime:
    return request.app.state.runtime


RuntimeDep = Annotated[Runtime, Depends(get_runtime)]


def get_session(runtime: RuntimeDep) -> Iterator[Session]:
    # Endpoints commit explicitly; anything uncommitted is rolled back here.
    with runtime.session() as session:
        yield session


# Closed when the endpoint returns, before its answer is sent ("function" scope): closed after
# (FastAPI's default), a read's pooled connection stayed checked out while a client took its
# time reading the answer, and a few clients reading nothing held the whole pool.
SessionDep = Annotated[Session, Depends(get_session, scope="function")]

_bearer = HTTPBearer(auto_error=False, description="An API key from `loupe keys create`.")


def _refused(request: Request) -> None:
    """Count a failed authentication from the request's address; 429 when it is throttled."""
    try:
        app_throttle(request.app).note_failure(client_address(request))
    except Throttled as throttled:
        raise refusal(throttled) from None


def _unauthorized(request: Request, detail: str) -> ProblemError:
    _refused(request)
    return ProblemError(
        401,
        "Unauthorized",
        detail,
        slug="unauthorized",
        # RFC 6750: a key was sent and refused, so say so to the client.
        headers={"WWW-Authenticate": 'Bearer realm="loupe", error="invalid_token"'},
        field=["header", "Authorization"],
    )


def get_caller(
    request: Request,
    session: SessionDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> Caller:
    """Who calls, after checking that they hold the scope the route needs (403 otherwise)."""
    if credentials is None or credentials.scheme.lower() != "bearer":
        _refused(request)
        raise ProblemError(
            401,
            "Unauthorized",
            "Send an API key as `Authorization: Bearer <key>`.",
            slug="unauthorized",
            headers={"WWW-Authenticate": 'Bearer realm="loupe"'},
            field=["header", "Authorization"],
        )
    # Looked up even from a throttled address, so a valid key is still accepted (a key not of
    # Loupe's form is refused without reading the database).
    caller = caller_for_key(session, credentials.credentials)
    if isinstance(caller, KeyExpired):
        raise _unauthorized(
            request,
            f"The API key in Authorization expired at {caller.expires_at.isoformat()}; "
            "ask the operator for a new one (loupe keys create).",
        )
    if caller is None:
        raise _unauthorized(
            request, "The API key in Authorization is not valid (unknown or revoked)."
        )
    # A key does no more than the person behind it may do now (a demoted admin's keys).
    caller = capped(session, caller)
    request.state.actor = caller.actor
    # A change's answer shows a caller without `read` no score (app/api/withheld.py); a GET
    # without it is refused anyway.
    request.state.withhold_scores = not caller.may(READ)
    # What this request changes is recorded on the audit trail as the caller's doing.
    audit.acting(session, caller.actor)
    route = request.scope.get("route")
    required = required_scope(route)
    if required is not None and not caller.may(required) and not _also(route, caller):
        raise forbidden(required, caller)
    # For a body checked past a failed schema (`checked_with_tenant`): the caller is known.
    request.state.tenant_id = caller.tenant.id
    return caller


async def check_before_body(request: Request) -> None:
    """`get_caller`'s refusals (401, 403, the throttle's 429) for a request whose body is still
    unread: FastAPI reads and parses a body before it solves any dependency, so without this a
    caller holding no working key, or not the route's scope, had its body parsed (up to
    LOUPE_MAX_BODY_BYTES of JSON) or spooled (a dataset's LOUPE_MAX_DATASET_BYTES) first. A
    caller let through is looked up again by the route's own `get_caller`."""
    credentials = await _bearer(request)
    runtime = get_runtime(request)

    def check() -> None:
        with runtime.session() as session:
            get_caller(request, session, credentials)

    await run_in_threadpool(check)


def _also(route: Any, caller: Caller) -> bool:
    """Whether the caller holds the second scope the route admits (ALSO_SCOPE_EXTENSION)."""
    also = (getattr(route, "openapi_extra", None) or {}).get(ALSO_SCOPE_EXTENSION)
    return also is not None and caller.may(str(also))


def forbidden(required: str, caller: Caller) -> ProblemError:
    """The 403 for a caller without the scope `required`."""
    held = ", ".join(sorted(caller.scopes)) or "none"
    why = (
        f" ({caller.capped_by} allows it no more than that now)"
        if caller.capped_by is not None
        else ""
    )
    return ProblemError(
        403,
        "Forbidden",
        f"This call needs the `{required}` scope; the API key in Authorization has {held}{why}.",
        slug="scope-required",
        field=["header", "Authorization"],
        required_scope=required,
    )


CallerDep = Annotated[Caller, Depends(get_caller)]


def get_tenant(caller: CallerDep) -> Tenant:
    """The caller's tenant (the route's scope already checked)."""
    return caller.tenant


TenantDep = Annotated[Tenant, Depends(get_tenant)]


def get_own_media(request: Request, session: SessionDep, tenant: TenantDep) -> OwnMedia:
    """This server's media URLs, on the base URL the request reached (`request.base_url`: its
    Host, or what a trusted proxy forwarded), as the tenant reads them: a body's images
    naming them are read from the store, not fetched."""
    return OwnMedia(str(request.base_url), session, tenant.id)


OwnMediaDep = Annotated[OwnMedia, Depends(get_own_media)]


def required_scope(route: Any) -> str | None:
    """The scope a route needs (its declared `x-loupe-scope`, else derived; None: no route)."""
    if not isinstance(route, APIRoute):
        return None
    declared = (route.openapi_extra or {}).get(SCOPE_EXTENSION)
    if declared:
        return str(declared)
    return route_scope(route.methods, route.name, getattr(route, "error_dialect", None))


def authenticates(route: APIRoute) -> bool:
    """Whether a route takes a caller (an API key), directly or through a dependency."""

    def walk(dependant: Dependant) -> bool:
        return any(dep.call is get_caller or walk(dep) for dep in dependant.dependencies)

    return walk(route.dependant)


def route_scopes(app: FastAPI) -> dict[tuple[str, str], str]:
    """(method, path) -> the scope of every authenticated operation in the app's document,
    which openapi.json shows as the operation's `x-loupe-scope`."""
    scopes: dict[tuple[str, str], str] = {}
    for context in iter_route_contexts(app.routes):
        route = context.original_route
        if not isinstance(route, APIRoute) or not context.path or not authenticates(route):
            continue
        scope = required_scope(route)
        for method in route.methods:
            if scope is not None:
                scopes[(method.lower(), context.path)] = scope
    return scopes


def get_idempotency_key(
    idempotency_key: Annotated[
        str | None,
        Header(
            alias="Idempotency-Key",
            # An empty key would be one key that every keyless-looking retry shares.
            min_length=1,
            max_length=255,
            description="Retries with the same key and body replay the first response for 24 h.",
        ),
    ] = None,
) -> str | None:
    return idempotency_key


IdempotencyKeyDep = Annotated[str | None, Depends(get_idempotency_key)]


T = TypeVar("T")
TenantBodyCheck = Callable[[Session, Tenant, Settings, Mapping[str, Any]], list[FieldError]]


def checked_with_tenant(check: TenantBodyCheck) -> Callable[[T], T]:
    """`checked_anyway` for a check that reads the caller's data (its models, its webhook
    endpoints): it gets a session of its own and the authenticated tenant. A request that
    never got as far as its tenant (refused before) is not checked further."""

    def run(request: Request, body: Mapping[str, Any]) -> list[FieldError]:
        return with_tenant(
            request, lambda session, tenant, settings, _: check(session, tenant, settings, body)
        )

    return checked_anyway(run)


MediaBodyCheck = Callable[
    [Session, Tenant, Settings, Mapping[str, Any], OwnMedia], list[FieldError]
]


def checked_with_media(check: MediaBodyCheck) -> Callable[[T], T]:
    """`checked_with_tenant` for a body with images: the check also gets this server's media
    as the tenant reads them, so its own media URLs are judged as the endpoint judges them."""

    def run(request: Request, body: Mapping[str, Any]) -> list[FieldError]:
        return with_tenant(
            request,
            lambda session, tenant, settings, own: check(session, tenant, settings, body, own),
        )

    return checked_anyway(run)


def with_tenant(
    request: Request,
    check: Callable[[Session, Tenant, Settings, OwnMedia], list[FieldError]],
) -> list[FieldError]:
    """`check`'s errors for a body that failed its schema, given a session of its own, the
    authenticated tenant, the settings and `get_own_media`'s answer; none for a request that
    never got as far as its tenant."""
    tenant_id = getattr(request.state, "tenant_id", None)
    if tenant_id is None:
        return []
    runtime = get_runtime(request)
    with runtime.session() as session:
        tenant = session.get(Tenant, tenant_id)
        if tenant is None:
            return []
        own = OwnMedia(str(request.base_url), session, tenant.id)
        return check(session, tenant, runtime.settings, own)
