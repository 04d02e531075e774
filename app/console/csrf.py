"""CSRF protection for the console's forms.

Signed-in forms carry a token bound to the session (an HMAC of its nonce); the sign-in form,
before any session, carries one bound to a short-lived random cookie. Every POST must also come
from the console's own origin when the browser says where it comes from.
"""

import hashlib
import hmac
import secrets

from fastapi import Request

from app.config import Settings
from app.crypto import signing_key
from app.problems import ProblemError

FIELD = "csrf_token"
SIGN_IN_COOKIE = "loupe_signin"


def token(settings: Settings, nonce: str) -> str:
    """The form token for a session (or sign-in cookie) nonce."""
    return hmac.new(
        signing_key(settings, "console-csrf"), nonce.encode(), hashlib.sha256
    ).hexdigest()


def new_nonce() -> str:
    return secrets.token_urlsafe(16)


def check(request: Request, settings: Settings, nonce: str | None, sent: str | None) -> None:
    """403 unless the form's token matches the nonce and the request is same-origin."""
    origin = request.headers.get("origin")
    if origin is not None and origin != f"{request.url.scheme}://{request.url.netloc}":
        raise ProblemError(403, "Forbidden", "The form was sent from another site.", slug="csrf")
    if not nonce or not sent or not hmac.compare_digest(sent, token(settings, nonce)):
        raise ProblemError(
            403,
            "Forbidden",
            "The form has expired or did not come from this page; reload it and try again.",
            slug="csrf",
        )
