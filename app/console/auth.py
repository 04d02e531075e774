"""Console sign-in: an API key, or a person through the identity provider (OIDC), exchanged for a
signed, expiring session cookie.

The cookie holds the key's SHA-256 (what the database stores, useless as a bearer token) or the
person's id and current team, an expiry and a random nonce, signed with HMAC-SHA256. A person's
role is looked up on every request, so a changed or removed role applies at once. Every request
looks the key up again, so revoking the key ends its sessions; signing out records the nonce
(`signed_out_session`), which every request checks too, so a copy of the cookie is refused by
every API process afterwards.
"""

import base64
import hashlib
import hmac
import json
import secrets
import time
from dataclasses import dataclass
from datetime import UTC, datetime

from fastapi import Request, Response
from sqlalchemy.orm import Session

from app import audit
from app.config import Settings
from app.crypto import signing_key
from app.models import Tenant
from app.people import service as people
from app.people.keys import capped
from app.problems import ProblemError
from app.tenants import service as tenants
from app.tenants.refusals import refused_sign_in
from app.tenants.scopes import ADMIN, KEY_SCOPES, READ, REVIEW, WRITE, Caller
from app.tenants.service import KeyExpired, caller_by_key_hash, caller_for_key, hash_key
from app.tenants.throttle import UNKNOWN_ADDRESS, AuthThrottle

COOKIE = "loupe_session"


@dataclass(frozen=True)
class KeyCutOff:
    """A known, working key that holds no scope now (a key among its makers revoked, its root
    maker out of the team or without any of its scopes): its sign-in is refused, saying why,
    rather than opening a console where every page answers 403."""

    key_id: str
    # Why, as the API's 403 says it: `its maker key:<id>, revoked,` and the like.
    why: str


class SignInRequired(Exception):
    """Raised by pages that need a session; answered with a redirect to the sign-in page."""


class GoElsewhere(Exception):
    """Raised when a session opens the console's landing page without the scope it needs but
    may open another (a reviewer's Review pages); answered with a redirect there."""

    def __init__(self, target: str) -> None:
        super().__init__(target)
        self.target = target


# Where signing in, switching teams and `/console` lead; a session without `read` but with
# `review` (the reviewer role) is sent on to the review queues instead (`landing`).
LANDING = "/console/evaluations"
LANDING_ROUTE = "evaluations_page"
REVIEW_LANDING = "/console/review"


@dataclass(frozen=True)
class ConsoleSession:
    tenant: Tenant
    nonce: str
    # The cookie's expiry (Unix seconds), after which it is refused anyway.
    expires_at: int
    # What the key signed in with may do: GET pages need `read`, POST actions `write`.
    scopes: frozenset[str] = frozenset(KEY_SCOPES)
    # Who acts, for the audit trail (`key:<id>`, `person:<id>`).
    actor: str = ""
    # A person signed in through the identity provider (None: an API key).
    person_id: str | None = None
    # The person is an operator (LOUPE_OIDC_OPERATOR_GROUPS at their last sign-in).
    operator: bool = False
    # When the API key signed in with expires (None: never, or a person).
    key_expires_at: datetime | None = None

    @property
    def form_nonce(self) -> str:
        """What the session's form tokens are bound to: its nonce and its current team, so a
        page of one team, still open after switching to another, takes no action in the
        other (a grant meant for team A landed in team B)."""
        return f"{self.nonce}:{self.tenant.id}"


def caller_of(signed_in: ConsoleSession) -> Caller:
    """Who acts in a console session, as the services take a caller: the team, the scopes,
    the actor and, for a key, when it expires (nothing it gives may outlive it)."""
    return Caller(
        signed_in.tenant, signed_in.scopes, signed_in.actor, expires_at=signed_in.key_expires_at
    )


def _encode(payload: dict[str, object]) -> str:
    return base64.urlsafe_b64encode(json.dumps(payload, separators=(",", ":")).encode()).decode()


def _signature(settings: Settings, body: str) -> str:
    digest = hmac.new(signing_key(settings, "console-session"), body.encode(), hashlib.sha256)
    return digest.hexdigest()


def sign_in(
    session: Session,
    settings: Settings,
    key: str,
    throttle: AuthThrottle | None = None,
    address: str = UNKNOWN_ADDRESS,
) -> str | KeyExpired | KeyCutOff | None:
    """The session cookie's value for a valid API key, KeyExpired for an expired one (its
    holder is told when, as the API tells them), KeyCutOff for one that holds no scope now
    (told why), or None; the sign-in, or its refusal for a revoked, expired or cut-off key, is
    on the key's team's audit trail once the caller commits.

    Args:
        throttle: counts a failure against the client's `address`, and raises Throttled when
            that address has failed too often (a valid key still signs in); None outside a
            request.
    """
    caller = caller_for_key(session, key.strip())
    if not isinstance(caller, Caller):
        if throttle is not None:
            # A throttled address raises here and leaves no event: that bounds the rows an
            # unauthenticated caller writes.
            throttle.note_failure(address)
        refused_sign_in(session, key.strip(), address, settings.auth_failure_window_seconds)
        return caller
    held = capped(session, caller)
    if not held.scopes and held.capped_by is not None and caller.key_id is not None:
        # Every page would answer 403. Only a holder of the key reads why (it proved it holds
        # a working key), as the API's 403 tells them; no failed authentication for the
        # throttle either.
        refused_sign_in(
            session, key.strip(), address, settings.auth_failure_window_seconds, "held_back"
        )
        return KeyCutOff(caller.key_id, held.capped_by)
    record_session(session, "sign_in", caller.tenant.id, caller.actor)
    expires = int(time.time() + settings.console_session_hours * 3600)
    return _signed(
        settings, {"k": hash_key(key.strip()), "exp": expires, "n": secrets.token_urlsafe(16)}
    )


def check_key_sign_in(settings: Settings) -> None:
    """403 when the operator turned API-key sign-in to the console off."""
    if not settings.console_key_sign_in:
        raise ProblemError(
            403,
            "Forbidden",
            "Signing in with an API key is turned off here (LOUPE_CONSOLE_KEY_SIGN_IN=false): "
            "sign in with your identity provider.",
            slug="key-sign-in-off",
        )


def _signed(settings: Settings, payload: dict[str, object]) -> str:
    body = _encode(payload)
    return f"{body}.{_signature(settings, body)}"


def person_cookie(
    settings: Settings,
    person_id: str,
    tenant_id: str,
    nonce: str | None = None,
    expires_at: int | None = None,
) -> str:
    """The session cookie's value for a person acting in one team; switching teams keeps the
    session's nonce and expiry (signing out ends it in every team)."""
    expires = expires_at or int(time.time() + settings.console_session_hours * 3600)
    nonce = nonce or secrets.token_urlsafe(16)
    return _signed(settings, {"p": person_id, "t": tenant_id, "exp": expires, "n": nonce})


def read(session: Session, settings: Settings, cookie: str | None) -> ConsoleSession | None:
    """The signed-in tenant, or None for a missing, forged, expired, signed-out or revoked
    session."""
    if not cookie or cookie.count(".") != 1:
        return None
    body, signature = cookie.split(".")
    if not hmac.compare_digest(signature, _signature(settings, body)):
        return None
    try:
        payload = json.loads(base64.urlsafe_b64decode(body.encode()))
    except ValueError:
        return None
    if not isinstance(payload, dict) or payload.get("exp", 0) < time.time():
        return None
    nonce = str(payload.get("n"))
    if tenants.session_signed_out(session, nonce):
        return None
    if "p" in payload:
        person_id = str(payload["p"])
        caller = people.caller(session, person_id, str(payload.get("t")))
    elif settings.console_key_sign_in:
        by_hash = caller_by_key_hash(session, str(payload.get("k")))
        # What the key's maker may do now bounds the key's session too.
        caller = capped(session, by_hash) if by_hash is not None else None
        person_id = None
    else:
        # API-key sign-in turned off (LOUPE_CONSOLE_KEY_SIGN_IN=false): its sessions end too.
        return None
    if caller is None:
        return None
    who = people.person(session, person_id) if person_id is not None else None
    return ConsoleSession(
        caller.tenant,
        nonce,
        int(payload["exp"]),
        caller.scopes,
        caller.actor,
        person_id,
        operator=who is not None and who.operator,
        key_expires_at=caller.expires_at,
    )


# Console actions any signed-in person may take whatever their key's scopes or role.
_UNSCOPED_ACTIONS = frozenset({"sign_out", "switch_team", "teams_page"})
# Actions for a team's admins only (people with the `admin` role); every member of a team may
# see its Members page. The Keys page and its forms are the admins' alone.
_ADMIN_ROUTES = frozenset(
    {
        "grant_member",
        "remove_member",
        "withdraw_invitation",
        "keys_page",
        "create_key",
        "revoke_key",
        # Online rules' forms and the team's limits (app/console/online_admin_pages.py).
        "create_online_rule_form",
        "update_online_rule_form",
        "enable_online_rule_form",
        "disable_online_rule_form",
        "delete_online_rule_confirm",
        "delete_online_rule_form",
        "limits_page",
    }
)
# Pages that check their scope themselves, saying why in their own words: the audit trail
# needs `admin` alone, as GET /v1/audit_events does (app/console/audit_pages.py).
_OWN_CHECK_ROUTES = frozenset({"audit_page"})


# The review queues' list, claiming, labelling and giving back review items
# (app/console/review_pages.py): people with `review` (reviewers, members, admins), whatever
# their `read` and `write`. A reviewer holds `review` alone: blind, they never see a judge's
# score before labelling (evaluation pages, exports need `read`).
_REVIEW_ROUTES = frozenset(
    {
        "review_queues_page",
        "review_queue_page",
        "review_claim_form",
        "review_item_page",
        "review_label_form",
        "review_release_form",
    }
)


# The test cases' images and audio (app/console/pages.py `media`): `read`, or `review` (a
# reviewer sees the test case they label; a blob holds nothing the judge said).
_MEDIA_ROUTES = frozenset({"media"})


def landing(scopes: frozenset[str]) -> str:
    """The first page for a session holding `scopes`: the evaluations, or the review queues
    for one that may review but not read."""
    return REVIEW_LANDING if READ not in scopes and REVIEW in scopes else LANDING


def required_scope(request: Request) -> str | None:
    """The scope a console request needs: `read` for a page, `write` for an action (a form's
    POST), `admin` for the admins' pages and actions (`_ADMIN_ROUTES`), none to sign out or switch
    teams."""
    name = getattr(request.scope.get("route"), "name", None)
    if name in _UNSCOPED_ACTIONS or name in _OWN_CHECK_ROUTES:
        return None
    if name in _ADMIN_ROUTES:
        return ADMIN
    if name in _REVIEW_ROUTES:
        return REVIEW
    return READ if request.method in ("GET", "HEAD") else WRITE


def check_scope(request: Request, signed_in: ConsoleSession) -> None:
    """403 (the console's error page) when the session's key lacks the scope the request
    needs; notes who acts (`request.state.actor`) otherwise."""
    required = required_scope(request)
    route = getattr(request.scope.get("route"), "name", None)
    if route in _MEDIA_ROUTES and REVIEW in signed_in.scopes:
        required = None
    if required is not None and required not in signed_in.scopes:
        if route == LANDING_ROUTE and landing(signed_in.scopes) != LANDING:
            raise GoElsewhere(landing(signed_in.scopes))
        held = ", ".join(sorted(signed_in.scopes)) or "none"
        detail = (
            f"This needs the `{required}` scope, and your role in team {signed_in.tenant.name} "
            f"gives {held}. Ask a team admin for a role that has it."
            if signed_in.person_id is not None
            else f"This needs the `{required}` scope, and the API key you signed in with has "
            f"{held}. Sign out and sign in with a key that has `{required}` "
            f"(loupe keys create --scopes {required})."
        )
        raise ProblemError(403, "Forbidden", detail, slug="scope-required", required_scope=required)
    request.state.actor = signed_in.actor


def sign_out(session: Session, signed_in: ConsoleSession) -> None:
    """End the session for good: its cookie, wherever a copy of it is kept, no longer signs in
    (the caller commits)."""
    expires_at = datetime.fromtimestamp(signed_in.expires_at, UTC)
    tenants.sign_out_session(session, signed_in.nonce, expires_at)
    record_session(session, "sign_out", signed_in.tenant.id, signed_in.actor)


def record_session(session: Session, verb: str, tenant_id: str, actor: str) -> None:
    """A console sign-in or sign-out on the team's audit trail (the caller commits): by and of
    the key (`api_key.sign_in`) or the person (`person.sign_in`), never the session's nonce."""
    kind, _, object_id = actor.partition(":")
    object_type = "api_key" if kind == "key" else "person"
    audit.record(
        session, actor, f"{object_type}.{verb}", object_type, object_id, tenant_id=tenant_id
    )


def set_cookie(request: Request, response: Response, value: str, settings: Settings) -> None:
    response.set_cookie(
        COOKIE,
        value,
        max_age=int(settings.console_session_hours * 3600),
        path="/",
        httponly=True,
        samesite="strict",
        secure=is_https(request),
    )


def clear_cookie(request: Request, response: Response) -> None:
    response.delete_cookie(
        COOKIE, path="/", httponly=True, samesite="strict", secure=is_https(request)
    )


def is_https(request: Request) -> bool:
    # Behind a TLS-terminating proxy, run uvicorn with --proxy-headers so the scheme is right.
    return request.url.scheme == "https"
