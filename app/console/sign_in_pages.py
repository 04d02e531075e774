"""Console sign-in with an API key (the form, its POST, the throttle) and signing out; the
identity provider's sign-in is oidc_pages.py."""

from typing import Annotated

from fastapi import APIRouter, Form, Request, Response
from fastapi.responses import HTMLResponse, RedirectResponse

from app.api.deps import RuntimeDep, SessionDep
from app.console import auth, csrf
from app.console._render import SignedIn, page, see_other
from app.tenants.service import KeyExpired
from app.tenants.throttle import Throttled, app_throttle, client_address

router = APIRouter(prefix="/console", include_in_schema=False)
root_router = APIRouter(include_in_schema=False)


def safe_next(target: str | None) -> str:
    """Where to go after signing in: only paths inside the console, never another site
    (`//evil`, `https://…`)."""
    # Only paths inside the console: never another site (`//evil`, `https://…`).
    if target and target.startswith("/console/") and not target.startswith("//"):
        return target
    return "/console/evaluations"


@root_router.get("/")
def home() -> RedirectResponse:
    return see_other("/console/evaluations")


@router.get("")
@router.get("/")
def console_home() -> RedirectResponse:
    return see_other("/console/evaluations")


@router.get("/sign-in")
def sign_in_form(request: Request, runtime: RuntimeDep, next: str | None = None) -> HTMLResponse:
    nonce = csrf.new_nonce()
    response = page(
        request,
        "sign_in.html",
        None,
        next=safe_next(next),
        csrf_token=csrf.token(runtime.settings, nonce),
        error=None,
    )
    _set_sign_in_cookie(request, response, nonce)
    return response


def _set_sign_in_cookie(request: Request, response: Response, nonce: str) -> None:
    response.set_cookie(
        csrf.SIGN_IN_COOKIE,
        nonce,
        max_age=3600,
        path="/console/sign-in",
        httponly=True,
        samesite="strict",
        secure=auth.is_https(request),
    )


@router.post("/sign-in")
def sign_in(
    request: Request,
    session: SessionDep,
    runtime: RuntimeDep,
    api_key: Annotated[str, Form(max_length=512)] = "",
    csrf_token: Annotated[str, Form(max_length=128)] = "",
    next: Annotated[str, Form(max_length=2048)] = "",
) -> Response:
    auth.check_key_sign_in(runtime.settings)
    csrf.check(request, runtime.settings, request.cookies.get(csrf.SIGN_IN_COOKIE), csrf_token)
    error, status_code, retry_after = "That API key is not valid (or has been revoked).", 401, None
    expired_at = None
    try:
        cookie = auth.sign_in(
            session, runtime.settings, api_key, app_throttle(request.app), client_address(request)
        )
    except Throttled as throttled:
        cookie, status_code, retry_after = None, 429, throttled.retry_after
        error = f"Too many failed sign-ins from your address: try again in {retry_after} s."
    if isinstance(cookie, KeyExpired):
        # Its holder is told when, as the API's 401 tells them; an unknown or revoked key
        # gets the words above, which say nothing of whether it was ever a key.
        cookie, expired_at = None, cookie.expires_at
    elif isinstance(cookie, auth.KeyCutOff):
        # A working key holding no scope now: its holder is told why, as the API's 403 does,
        # rather than let into a console whose every page would answer 403.
        error, status_code = (
            f"That API key holds no scope now: {cookie.why} allows it none. Ask a team "
            "admin for a new key.",
            403,
        )
        cookie = None
    if cookie is None:
        # A refusal a revoked, expired or cut-off key met is on its team's trail
        # (app/tenants/refusals.py).
        session.commit()
        nonce = csrf.new_nonce()
        response = page(
            request,
            "sign_in.html",
            None,
            status_code=status_code,
            next=safe_next(next),
            csrf_token=csrf.token(runtime.settings, nonce),
            error=error,
            expired_at=expired_at,
        )
        if retry_after is not None:
            response.headers["Retry-After"] = str(retry_after)
        _set_sign_in_cookie(request, response, nonce)
        return response
    session.commit()
    response = see_other(safe_next(next))
    auth.set_cookie(request, response, cookie, runtime.settings)
    response.delete_cookie(csrf.SIGN_IN_COOKIE, path="/console/sign-in")
    return response


@router.post("/sign-out")
def sign_out(
    request: Request,
    session: SessionDep,
    signed_in: SignedIn,
    runtime: RuntimeDep,
    csrf_token: Annotated[str, Form(max_length=128)] = "",
) -> Response:
    csrf.check(request, runtime.settings, signed_in.form_nonce, csrf_token)
    auth.sign_out(session, signed_in)
    session.commit()
    response = see_other("/console/sign-in")
    auth.clear_cookie(request, response)
    return response
