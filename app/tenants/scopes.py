"""What a caller may do: the scopes an API key carries, and who is calling.

A key carries some of `KEY_SCOPES`: `read` (every GET, and the POSTs that store nothing, such
as estimates), `write` (every other change), `ingest` (the OTLP receiver alone: POST
/v1/traces and /v1/logs), `review` (review queues and labels) and `admin` (what a team's admins
do: online rules, the audit trail, and in the console members and keys). A key made before
scopes existed (`scopes` NULL) keeps every scope, as it could do everything its tenant could.
People get theirs from their role in a team (app/people/roles.py).

Every API route needs exactly one scope, declared on the route (the operation's
`x-loupe-scope` in openapi.json, see `app.api.deps.declare_scopes`).
"""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from app.models import Tenant

READ = "read"
WRITE = "write"
INGEST = "ingest"
REVIEW = "review"
ADMIN = "admin"
# The scopes a key may carry, in the order they are listed.
KEY_SCOPES = (READ, WRITE, INGEST, REVIEW, ADMIN)
# Every scope a caller can hold.
ALL_SCOPES = KEY_SCOPES
# The OpenAPI operation extension naming the scope a route needs.
SCOPE_EXTENSION = "x-loupe-scope"

# A second scope an operation admits instead of its `x-loupe-scope`: `review` on the reads a
# blind reviewer needs (the review queues; `GET /v1/media/{sha256}`, which answers a caller
# without `read` only the images of the review items it holds or labelled).
ALSO_SCOPE_EXTENSION = "x-loupe-also-scope"
# A read that a reviewer (`review` without `read`) may make too.
READ_OR_REVIEW = {SCOPE_EXTENSION: READ, ALSO_SCOPE_EXTENSION: REVIEW}

# A route's `openapi_extra` for what only a team's admins may do.
ADMIN_ONLY = {SCOPE_EXTENSION: ADMIN}

# The actor of the operator's command line.
OPERATOR = "operator"


@dataclass(frozen=True)
class Caller:
    """Who is calling: their tenant, what they may do, and how the audit trail names them
    (`key:<key id>`, `person:<person id>`, `operator`)."""

    tenant: Tenant
    scopes: frozenset[str]
    actor: str
    key_id: str | None = None
    # When the caller's key stops working (None: never, or not a key): nothing it makes may
    # outlive it.
    expires_at: datetime | None = None
    # Who made the caller's key (`person:<id>`, `key:<id>`, `operator`; None: not a key, or a
    # key from before keys had makers): its scopes are capped by its root maker's role.
    made_by: str | None = None
    # Why a key holds less than it carries: its root maker and their role now (None: it holds
    # all it carries).
    capped_by: str | None = None

    def may(self, scope: str) -> bool:
        return scope in self.scopes


def key_scopes(stored: Iterable[str] | None) -> frozenset[str]:
    """A key's scopes from its stored list (None: a key from before scopes, every one)."""
    return frozenset(KEY_SCOPES) if stored is None else frozenset(stored)


def parse_scopes(text: str) -> list[str]:
    """`read,ingest` as a list in KEY_SCOPES order; ValueError naming an unknown or missing one."""
    asked = [part.strip() for part in text.split(",") if part.strip()]
    if not asked:
        raise ValueError(f"name at least one scope of {', '.join(KEY_SCOPES)}")
    unknown = [scope for scope in asked if scope not in KEY_SCOPES]
    if unknown:
        raise ValueError(
            f"unknown scope {', '.join(repr(s) for s in unknown)}; the scopes are "
            f"{', '.join(KEY_SCOPES)}"
        )
    return [scope for scope in KEY_SCOPES if scope in asked]


def route_scope(method_names: Iterable[str], name: str, dialect: str | None) -> str:
    """The scope a route needs when it declares none: the OTLP receiver's `ingest`, a POST that
    stores nothing `read` (READ_ONLY_OPERATIONS), a safe method `read`, anything else `write`."""
    if dialect == "otlp":
        return INGEST
    if name in READ_ONLY_OPERATIONS:
        return READ
    methods = set(method_names)
    return READ if methods and methods <= {"GET", "HEAD", "OPTIONS"} else WRITE


# Operations (by operationId) whose unsafe method stores nothing: an estimate prices a
# submission without keeping it, so a read-only key may ask for one.
READ_ONLY_OPERATIONS = frozenset(
    {
        "estimate_evaluation",
        "estimate_run",
        "estimate_eval_run",
    }
)
