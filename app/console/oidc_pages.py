"""Signing people in through the company's identity provider (OIDC), their team picker, and a
team admin's Members page.

Cookies: the session cookie stays SameSite=Strict. The provider's callback is a cross-site
top-level GET, on which the browser sends no Strict cookie, so what the callback must read back
(the sign-in's state, nonce and PKCE verifier) travels in its own short-lived cookie marked Lax
(sent on cross-site top-level GETs only), signed, and scoped to /console/oidc. The callback sets
the Strict session cookie on its own response, then moves on with a same-site page (a refresh,
not a redirect: the redirect would still be part of the cross-site navigation, and the browser
would withhold the new Strict cookie from it).
"""

import base64
import hashlib
import hmac
import json
import logging
import time
from dataclasses import asdict
from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response

from app.api.deps import RuntimeDep, SessionDep
from app.config import Settings
from app.console import auth, csrf
from app.console._render import SignedIn, page, see_other, templates
from app.console.sign_in_pages import safe_next
from app.crypto import signing_key
from app.people import invitations, oidc
from app.people import service as people
from app.people.roles import ROLES, actor, scopes_of
from app.problems import ProblemError
from app.tenants.scopes import ADMIN
from app.tenants.throttle import client_address

logger = logging.getLogger("loupe.people")
router = APIRouter(prefix="/console", include_in_schema=False)

PENDING_COOKIE = "loupe_oidc"
PENDING_PATH = "/console/oidc"
# How long a sign-in at the provider may take.
PENDING_SECONDS = 600
CALLBACK = "/console/oidc/callback"


# What the sign-in error page says for an OAuth 2.0 / OIDC error code in the callback.
REFUSALS = {
    "access_denied": "access was denied (you or the provider declined)",
    "login_required": "you need to sign in at the provider first",
    "consent_required": "the provider needs your consent first",
    "interaction_required": "the provider needs you to act on its page first",
    "account_selection_required": "the provider needs you to choose an account first",
    "invalid_request": "the provider found the sign-in request invalid",
    "unauthorized_client": "Loupe is not allowed to sign people in at this provider",
    "unsupported_response_type": "the provider does not support this sign-in",
    "invalid_scope": "the provider refused the requested scopes",
    "server_error": "the provider had an error",
    "temporarily_unavailable": "the provider is temporarily unavailable",
}


def sign_in_ways(request: Request) -> dict[str, bool]:
    """Which sign-ins the sign-in page offers."""
    settings = request.app.state.runtime.settings
    return {"oidc": oidc.enabled(settings), "key": settings.console_key_sign_in}


templates.env.globals["sign_in_ways"] = sign_in_ways


def _pending_signature(settings: Settings, body: str) -> str:
    key = signing_key(settings, "console-oidc")
    return hmac.new(key, body.encode(), hashlib.sha256).hexdigest()


def _pending_cookie(settings: Settings, pending: oidc.Pending) -> str:
    payload = {**asdict(pending), "exp": int(time.time()) + PENDING_SECONDS}
    body = base64.urlsafe_b64encode(json.dumps(payload).encode()).decode()
    return f"{body}.{_pending_signature(settings, body)}"


def _read_pending(settings: Settings, cookie: str | None) -> oidc.Pending | None:
    if not cookie or cookie.count(".") != 1:
        return None
    body, signature = cookie.split(".")
    if not hmac.compare_digest(signature, _pending_signature(settings, body)):
        return None
    try:
        payload = json.loads(base64.urlsafe_b64decode(body.encode()))
        if payload.pop("exp") < time.time():
            return None
        return oidc.Pending(**payload)
    except (ValueError, TypeError, KeyError):
        return None


def _redirect_uri(request: Request) -> str:
    # Behind a TLS-terminating proxy, LOUPE_FORWARDED_ALLOW_IPS names it so the scheme is right.
    return str(request.url_for("oidc_callback"))


def _sign_in_error(
    request: Request, message: str, status: int = 401, forget: bool = True
) -> HTMLResponse:
    """The sign-in error page; `forget` drops the pending sign-in (kept when the callback was
    not this sign-in's: another page's forged state must not cancel it)."""
    response = page(request, "sign_in_error.html", None, status_code=status, message=message)
    if forget:
        response.delete_cookie(PENDING_COOKIE, path=PENDING_PATH)
    return response


@router.get("/oidc/start")
def oidc_start(request: Request, runtime: RuntimeDep, next: str | None = None) -> Response:
    settings = runtime.settings
    if not oidc.enabled(settings):
        # Not set up here: the sign-in page offers what there is.
        return see_other("/console/sign-in")
    try:
        provider = oidc.discover(settings)
        pending = oidc.start(safe_next(next))
        target = oidc.authorization_url(settings, provider, pending, _redirect_uri(request))
    except oidc.SignInError as exc:
        logger.warning("OIDC sign-in could not start: %s", exc)
        return _sign_in_error(request, str(exc), status=502)
    response = see_other(target)
    response.set_cookie(
        PENDING_COOKIE,
        _pending_cookie(settings, pending),
        max_age=PENDING_SECONDS,
        path=PENDING_PATH,
        httponly=True,
        # Lax, not Strict: the provider's redirect back is a cross-site top-level GET.
        samesite="lax",
        secure=auth.is_https(request),
    )
    return response


@router.get("/oidc/callback", name="oidc_callback")
def oidc_callback(
    request: Request,
    session: SessionDep,
    runtime: RuntimeDep,
    code: str | None = None,
    state: str | None = None,
    error: str | None = None,
    error_description: str | None = None,
) -> Response:
    settings = runtime.settings
    if not oidc.enabled(settings):
        return see_other("/console/sign-in")
    pending = _read_pending(settings, request.cookies.get(PENDING_COOKIE))
    if error:
        # The provider refused (or the person denied). Its error_description is free text anyone
        # can put in a link, so it is never shown: a fixed message per OAuth error code is. Only
        # a callback carrying this sign-in's state ends it (drops the pending cookie).
        ours = pending is not None and bool(state) and hmac.compare_digest(state, pending.state)
        message = (
            f"{REFUSALS[error]} ({error})"
            if error in REFUSALS
            else "the provider refused the sign-in"
        )
        # No person is known, so no team: the log keeps it (the provider has its own record).
        logger.warning(
            "OIDC sign-in refused by the provider: %s",
            error if error in REFUSALS else "other",
            extra={"address": client_address(request)},
        )
        return _sign_in_error(
            request, f"The identity provider did not sign you in: {message}.", forget=ours
        )
    if pending is None or not state or not hmac.compare_digest(state, pending.state):
        return _sign_in_error(
            request,
            "This sign-in expired or was not started here; sign in again.",
            400,
            forget=False,
        )
    if not code:
        return _sign_in_error(request, "The identity provider sent no sign-in code.", 400)
    try:
        provider = oidc.discover(settings)
        id_token = oidc.exchange(settings, provider, code, pending, _redirect_uri(request))
        claims = oidc.verified_claims(settings, provider, id_token, pending.nonce)
    except oidc.SignInError as exc:
        logger.warning("OIDC sign-in refused: %s", exc, extra={"address": client_address(request)})
        return _sign_in_error(request, f"Sign-in refused: {exc}")
    person = people.signed_in(
        session,
        provider.issuer,
        claims,
        settings.oidc_groups_claim,
        settings.oidc_role_map,
        settings.oidc_operator_groups,
    )
    teams = people.teams(session, person.id)
    for team in teams:
        # Each team the person may now act in has the sign-in on its trail.
        auth.record_session(session, "sign_in", team.tenant.id, actor(person.id))
    session.commit()
    if not teams:
        # In no team, the person leaves nothing on any team's trail: the log names them.
        logger.warning(
            "OIDC sign-in refused: in no team",
            extra={"address": client_address(request), "person_id": person.id},
        )
        return _sign_in_error(
            request,
            f"You are signed in at the identity provider as {person.email or person.subject}, "
            "but none of your groups gives you a team in Loupe. Ask the operator to map one "
            "of your groups to a team (LOUPE_OIDC_ROLE_MAP) or a team admin to add you.",
            403,
        )
    cookie = auth.person_cookie(settings, person.id, teams[0].tenant.id)
    response = page(request, "signed_in.html", None, next=pending.next)
    auth.set_cookie(request, response, cookie, settings)
    response.delete_cookie(PENDING_COOKIE, path=PENDING_PATH)
    return response


def _person_only(signed_in: auth.ConsoleSession) -> str:
    if signed_in.person_id is None:
        raise ProblemError(
            403,
            "Forbidden",
            "Teams are for people signed in through the identity provider; an API key belongs "
            "to one team.",
        )
    return signed_in.person_id


@router.get("/teams", name="teams_page")
def teams_page(request: Request, session: SessionDep, signed_in: SignedIn) -> HTMLResponse:
    """The person's teams and their role in each (an API key's session: its one team)."""
    if signed_in.person_id is None:
        teams = [people.Team(signed_in.tenant, "API key", "key")]
    else:
        teams = people.teams(session, signed_in.person_id)
    return page(request, "teams.html", signed_in, teams=teams, current=signed_in.tenant.id)


@router.post("/teams", name="switch_team")
def switch_team(
    request: Request,
    session: SessionDep,
    signed_in: SignedIn,
    runtime: RuntimeDep,
    tenant_id: Annotated[str, Form(max_length=80)] = "",
    csrf_token: Annotated[str, Form(max_length=128)] = "",
) -> Response:
    csrf.check(request, runtime.settings, signed_in.form_nonce, csrf_token)
    person_id = _person_only(signed_in)
    if people.caller(session, person_id, tenant_id) is None:
        raise ProblemError(404, "Not Found", "You are not in that team.")
    cookie = auth.person_cookie(
        runtime.settings, person_id, tenant_id, signed_in.nonce, signed_in.expires_at
    )
    response = see_other("/console/evaluations")
    auth.set_cookie(request, response, cookie, runtime.settings)
    return response


def _members_page(
    request: Request,
    session: SessionDep,
    signed_in: auth.ConsoleSession,
    error: str | None = None,
    status_code: int = 200,
) -> HTMLResponse:
    return page(
        request,
        "members.html",
        signed_in,
        status_code=status_code,
        members=people.members(session, signed_in.tenant.id),
        invited=invitations.waiting(session, signed_in.tenant.id),
        invitation_expired=invitations.expired,
        invitation_expires=invitations.expires_at,
        # The roles the caller holds every scope of: the ones they may give, and the people
        # holding them the ones they may change or remove (the service refuses the rest).
        roles=[role for role in ROLES if scopes_of(role) <= signed_in.scopes],
        admin=ADMIN in signed_in.scopes,
        me=signed_in.person_id,
        error=error,
    )


@router.get("/members", name="members_page")
def members_page(request: Request, session: SessionDep, signed_in: SignedIn) -> HTMLResponse:
    return _members_page(request, session, signed_in)


@router.post("/members", name="grant_member")
def grant_member(
    request: Request,
    session: SessionDep,
    signed_in: SignedIn,
    runtime: RuntimeDep,
    email: Annotated[str, Form(max_length=320)] = "",
    role: Annotated[str, Form(max_length=20)] = "",
    person_id: Annotated[str, Form(max_length=80)] = "",
    csrf_token: Annotated[str, Form(max_length=128)] = "",
) -> Response:
    csrf.check(request, runtime.settings, signed_in.form_nonce, csrf_token)
    try:
        people.grant(session, auth.caller_of(signed_in), email, role, person_id)
    except ProblemError as exc:
        session.rollback()
        return _members_page(request, session, signed_in, exc.detail, exc.status)
    session.commit()
    return see_other("/console/members")


@router.post("/members/remove", name="remove_member")
def remove_member(
    request: Request,
    session: SessionDep,
    signed_in: SignedIn,
    runtime: RuntimeDep,
    person_id: Annotated[str, Form(max_length=80)] = "",
    csrf_token: Annotated[str, Form(max_length=128)] = "",
    revoke_keys: Annotated[str, Form(max_length=8)] = "",
) -> Response:
    csrf.check(request, runtime.settings, signed_in.form_nonce, csrf_token)
    try:
        people.remove(
            session, auth.caller_of(signed_in), person_id, revoke_keys=revoke_keys == "on"
        )
    except ProblemError as exc:
        if exc.status == 404:
            raise
        session.rollback()
        return _members_page(request, session, signed_in, exc.detail, exc.status)
    session.commit()
    return see_other("/console/members")


@router.post("/members/invitations/withdraw", name="withdraw_invitation")
def withdraw_invitation(
    request: Request,
    session: SessionDep,
    signed_in: SignedIn,
    runtime: RuntimeDep,
    invitation_id: Annotated[str, Form(max_length=80)] = "",
    csrf_token: Annotated[str, Form(max_length=128)] = "",
) -> Response:
    csrf.check(request, runtime.settings, signed_in.form_nonce, csrf_token)
    try:
        invitations.withdraw(session, auth.caller_of(signed_in), invitation_id)
    except ProblemError as exc:
        session.rollback()
        if exc.status == 404:
            raise
        return _members_page(request, session, signed_in, exc.detail, exc.status)
    session.commit()
    return see_other("/console/members")
