"""What each role in a team may do, as the scopes the console checks (app/tenants/scopes.py).

- `viewer`: read only.
- `reviewer`: review queues and labels only (`review`): the Review pages, where they label
  blind; not `read`, so no evaluation, result, export or label list shows them a judge's score
  before they label; no create, run, cancel or delete.
- `member`: read, create, run, cancel and delete (`write`) and review; not `ingest` (OTLP is
  sent by services with keys, never by a person) and not `admin`.
- `admin`: every scope, `admin` included (members and roles, keys, online rules, the audit
  trail).
"""

from app.tenants.scopes import ADMIN, INGEST, KEY_SCOPES, READ, REVIEW, WRITE

ADMIN_ROLE = "admin"
MEMBER = "member"
REVIEWER = "reviewer"
VIEWER = "viewer"
# Highest first: a person in several groups mapped to one team gets the first of these.
ROLES = (ADMIN_ROLE, MEMBER, REVIEWER, VIEWER)

ROLE_SCOPES: dict[str, frozenset[str]] = {
    VIEWER: frozenset({READ}),
    REVIEWER: frozenset({REVIEW}),
    MEMBER: frozenset({READ, WRITE, REVIEW}),
    ADMIN_ROLE: frozenset(KEY_SCOPES),
}
assert {INGEST, ADMIN} <= ROLE_SCOPES[ADMIN_ROLE]

# Where a membership comes from: the provider's groups claim (re-synced at each sign-in) or a
# team admin's grant in the console (kept).
FROM_OIDC = "oidc"
GRANTED = "granted"


def scopes_of(role: str) -> frozenset[str]:
    """The scopes a role holds (none for an unknown role)."""
    return ROLE_SCOPES.get(role, frozenset())


def highest(roles: list[str]) -> str:
    """The role with the most rights of `roles` (not empty)."""
    return min(roles, key=ROLES.index)


def actor(person_id: str) -> str:
    """How the audit trail names a person."""
    return f"person:{person_id}"
