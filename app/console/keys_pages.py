"""A team admin's API keys in the console: the team's keys, a form making one (its secret shown
once, on the answer page, never stored, logged or shown again) and revoking one with the keys
made with it. Every route here needs the `admin` scope (app/console/auth.py); each change is
on the audit trail."""

from datetime import datetime
from typing import Annotated
from urllib.parse import quote

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response
from sqlalchemy.orm import Session

from app import audit, problems
from app.api.deps import RuntimeDep, SessionDep
from app.console import auth, csrf
from app.console._render import SignedIn, page, see_other
from app.db import utcnow
from app.models import ApiKey
from app.people import keys as people_keys
from app.people import service as people
from app.problems import ProblemError
from app.tenants import key_chain
from app.tenants import service as tenants
from app.tenants.scopes import KEY_SCOPES

router = APIRouter(prefix="/console", include_in_schema=False)

# What the form offers: its value -> what the page says (`never`: no expiry).
EXPIRIES = {"30d": "30 days", "90d": "90 days", "365d": "1 year", "never": "never"}
# The form takes more than a name may have, so a long one gets the page saying the limit.
FORM_NAME_MAX = 4 * tenants.KEY_NAME_MAX


def _keys_page(
    request: Request,
    session: Session,
    signed_in: auth.ConsoleSession,
    error: str | None = None,
    status_code: int = 200,
    revoked: str | None = None,
) -> HTMLResponse:
    keys = tenants.tenant_keys(session, signed_in.tenant.id)
    along = key_chain.revoked_along(keys)
    just_revoked = next((key for key in keys if key.id == revoked and key.revoked_at), None)
    return page(
        request,
        "keys.html",
        signed_in,
        status_code=status_code,
        keys=[
            (key, *_in_use(session, signed_in.tenant.id, key), along.get(key.id)) for key in keys
        ],
        key_scopes=KEY_SCOPES,
        expiries=EXPIRIES,
        now=utcnow(),
        error=error,
        # The revoke's answer: the key and how many were made with it and went with it.
        just_revoked=just_revoked,
        revoked_with=[key for key in keys if just_revoked and along.get(key.id) is just_revoked],
    )


def _in_use(session: Session, tenant_id: str, key: ApiKey) -> tuple[list[str], str | None]:
    """A working key's scopes as its requests get them (cut to its root maker's role now), and
    why some are held back; a revoked key's as stored."""
    stored = frozenset(key.scopes or KEY_SCOPES)
    if key.revoked_at is not None:
        return [scope for scope in KEY_SCOPES if scope in stored], None
    usable, why = people_keys.held_back(session, tenant_id, key.created_by, stored)
    return [scope for scope in KEY_SCOPES if scope in usable], why


@router.get("/keys", name="keys_page")
def keys_page(
    request: Request, session: SessionDep, signed_in: SignedIn, revoked: str | None = None
) -> HTMLResponse:
    return _keys_page(request, session, signed_in, revoked=revoked)


def _checked(name: str, scopes: list[str], expires: str) -> tuple[str, list[str], datetime | None]:
    """The form's values, or a 400 naming the field at fault."""
    try:
        name = tenants.check_key_name(name)
    except ValueError as error:
        raise _form_error(f"name: {error}", "name") from None
    unknown = sorted(set(scopes) - set(KEY_SCOPES))
    if unknown or not scopes:
        raise _form_error(
            f"scopes: choose at least one of {', '.join(KEY_SCOPES)}"
            + (f" ({', '.join(unknown)} is none of them)" if unknown else ""),
            "scopes",
        )
    if expires not in EXPIRIES:
        raise _form_error(f"expires: choose one of {', '.join(EXPIRIES)}", "expires")
    expires_at = None if expires == "never" else tenants.parse_expiry(expires, utcnow())
    return name, [scope for scope in KEY_SCOPES if scope in scopes], expires_at


def _within(
    signed_in: auth.ConsoleSession, expires_at: datetime | None
) -> tuple[datetime | None, bool]:
    """The new key's expiry, brought back to the signed-in key's own when it would outlive it,
    and whether it was: an expiring key (given for a while, to a contractor, a CI) must not mint
    one that keeps working after it."""
    limit = signed_in.key_expires_at
    if limit is None or (expires_at is not None and expires_at <= limit):
        return expires_at, False
    return limit, True


def _no_such_key() -> ProblemError:
    # Missing or another team's: the same 404.
    return problems.not_found("No such key in this team.")


def _form_error(detail: str, field: str) -> ProblemError:
    return ProblemError(400, "Bad Request", detail, slug="invalid-key", field=["body", field])


@router.post("/keys", name="create_key")
def create_key(
    request: Request,
    session: SessionDep,
    signed_in: SignedIn,
    runtime: RuntimeDep,
    name: Annotated[str, Form(max_length=FORM_NAME_MAX)] = "",
    scopes: Annotated[list[str], Form()] = [],  # noqa: B006 - FastAPI copies the default
    expires: Annotated[str, Form(max_length=20)] = "",
    csrf_token: Annotated[str, Form(max_length=128)] = "",
) -> Response:
    """Make a key for the admin's team; the answer page shows its secret, once."""
    csrf.check(request, runtime.settings, signed_in.form_nonce, csrf_token)
    try:
        name, chosen, expires_at = _checked(name, scopes, expires)
        beyond = [scope for scope in chosen if scope not in signed_in.scopes]
        if beyond:
            # Nobody makes a key that can do more than they can (a key with `admin` alone
            # signed in here must not mint one with every scope).
            raise ProblemError(
                403,
                "Forbidden",
                f"scopes: you do not hold {', '.join(beyond)}, so you cannot give it to a key.",
                slug="invalid-key",
                field=["body", "scopes"],
            )
    except ProblemError as exc:
        return _keys_page(request, session, signed_in, exc.detail, exc.status)
    expires_at, capped = _within(signed_in, expires_at)
    tenant, secret = tenants.create_key(
        session,
        signed_in.tenant.name,
        create=False,
        scopes=chosen,
        name=name,
        expires_at=expires_at,
        created_by=signed_in.actor,
    )
    made = next(
        key
        for key in tenants.tenant_keys(session, tenant.id)
        if key.key_hash == tenants.hash_key(secret)
    )
    audit.record(
        session,
        signed_in.actor,
        "api_key.create",
        "api_key",
        made.id,
        tenant_id=tenant.id,
        name=name,
        scopes=chosen,
        expires_at=None if expires_at is None else expires_at.isoformat(),
    )
    session.commit()
    # A page, not a redirect: the secret is in this answer alone (Cache-Control: no-store).
    return page(request, "key_created.html", signed_in, key=made, secret=secret, capped=capped)


@router.post("/keys/revoke", name="revoke_key")
def revoke_key(
    request: Request,
    session: SessionDep,
    signed_in: SignedIn,
    runtime: RuntimeDep,
    key_id: Annotated[str, Form(max_length=80)] = "",
    csrf_token: Annotated[str, Form(max_length=128)] = "",
) -> Response:
    csrf.check(request, runtime.settings, signed_in.form_nonce, csrf_token)
    found = tenants.tenant_key(session, signed_in.tenant.id, key_id)
    if found is None:
        raise _no_such_key()
    try:
        people.check_may_revoke(session, auth.caller_of(signed_in), found)
    except ProblemError as exc:
        return _keys_page(request, session, signed_in, exc.detail, exc.status)
    if tenants.revoke_tenant_key(session, signed_in.tenant.id, key_id, signed_in.actor) is None:
        raise _no_such_key()
    session.commit()
    return see_other(f"/console/keys?revoked={quote(found.id)}")
