"""Typed dependencies every endpoint uses: the runtime, a session, the caller's tenant."""

from collections.abc import Callable, Iterator, Mapping
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Header, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.orm import Session

from app.config import Settings
from app.models import Tenant
from app.problems import FieldError, ProblemError, checked_anyway
from app.runtime import Runtime
from app.tenants.service import tenant_for_key
from app.tenants.throttle import Throttled, app_throttle, client_address, refusal


def get_runtime(request: Request) -> Runtime:
    return request.app.state.runtime


RuntimeDep = Annotated[Runtime, Depends(get_runtime)]


def get_session(runtime: RuntimeDep) -> Iterator[Session]:
    # Endpoints commit explicitly; anything uncommitted is rolled back here.
    with runtime.session() as session:
        yield session


SessionDep = Annotated[Session, Depends(get_session)]

_bearer = HTTPBearer(auto_error=False, description="An API key from `loupe keys create`.")


def _refused(request: Request) -> None:
    """Count a failed authentication from the request's address; 429 when it is throttled."""
    try:
        app_throttle(request.app).note_failure(client_address(request))
    except Throttled as throttled:
        raise refusal(throttled) from None


def get_tenant(
    request: Request,
    session: SessionDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> Tenant:
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
    tenant = tenant_for_key(session, credentials.credentials)
    if tenant is None:
        _refused(request)
        raise ProblemError(
            401,
            "Unauthorized",
            "The API key in Authorization is not valid (unknown or revoked).",
            slug="unauthorized",
            # RFC 6750: a key was sent and refused, so say so to the client.
            headers={"WWW-Authenticate": 'Bearer realm="loupe", error="invalid_token"'},
            field=["header", "Authorization"],
        )
    # For a body checked past a failed schema (`checked_with_tenant`): the caller is known.
    request.state.tenant_id = tenant.id
    return tenant


TenantDep = Annotated[Tenant, Depends(get_tenant)]


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
        tenant_id = getattr(request.state, "tenant_id", None)
        if tenant_id is None:
            return []
        runtime = get_runtime(request)
        with runtime.session() as session:
            tenant = session.get(Tenant, tenant_id)
            return [] if tenant is None else check(session, tenant, runtime.settings, body)

    return checked_anyway(run)
