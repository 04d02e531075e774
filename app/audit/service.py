"""Recording, listing and pruning audit events (never commits: the caller's change does)."""

import logging
from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy.orm import Session

from app.audit.repository import AuditFilter, AuditRepository
from app.db import utcnow
from app.ids import new_id
from app.models import AuditEvent
from app.outbox import outbox
from app.unscoped.audit_events import UnscopedAuditRepository

__all__ = ["SYSTEM", "AuditFilter", "acting", "actor_of", "log_only", "page", "prune", "record"]

logger = logging.getLogger("loupe.audit")

# Who acts when no request does: jobs and the ticker (an evaluation finishing, retention).
SYSTEM = "system"
_ACTOR = "loupe.audit.actor"
# Detail names that could carry a secret are never stored nor logged, whatever a caller passes.
_SECRET_WORDS = ("secret", "password", "token", "api_key", "authorization", "credential")


def _is_url(name: str, value: Any) -> bool:
    return name.lower().endswith("url") and isinstance(value, str)


def _loggable(details: Mapping[str, Any]) -> dict[str, Any]:
    """Details as a log line carries them: a URL (a detail named `...url`) as its scheme and
    host alone, since receivers put tokens in paths and queries (`hooks.example/T0/B0/<token>`)
    and log lines leave the tenant's sight; the audit trail keeps its path (`_kept`)."""
    return {
        name: _origin(value) if _is_url(name, value) else value for name, value in details.items()
    }


def _parts(url: str) -> tuple[str, str, str, str, str] | None:
    """A URL's scheme, host (bracketed when IPv6), `:port` or nothing, path and query; None
    when it cannot be read."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = f":{parts.port}" if parts.port is not None else ""
    except ValueError:
        return None
    host = f"[{host}]" if ":" in host else host
    return parts.scheme, host, port, parts.path, parts.query


def _origin(url: str) -> str:
    found = _parts(url)
    if found is None:
        return "(unreadable URL)"
    scheme, host, port, path, query = found
    rest = "/…" if path.strip("/") or query or "#" in url else ""
    return f"{scheme}://{host}{port}{rest}"


def _kept(url: str) -> str:
    """A URL as the audit trail keeps it: scheme, host, port and path; no user or password, no
    fragment, and each query value `REDACTED` (receivers take tokens there, `?token=...`, and
    the trail is read by every key with `admin` for a year)."""
    found = _parts(url)
    if found is None:
        return "(unreadable URL)"
    scheme, host, port, path, query = found
    names = [pair.split("=", 1)[0] for pair in query.split("&") if pair]
    shown = "&".join(f"{name}=REDACTED" for name in names)
    return f"{scheme}://{host}{port}{path}" + (f"?{shown}" if shown else "")


def acting(session: Session, actor: str) -> None:
    """Say who acts on `session` from now on (the request's authentication calls it)."""
    session.info[_ACTOR] = actor


def actor_of(session: Session) -> str:
    """Who acts on `session`: the authenticated caller, else `system`."""
    return str(session.info.get(_ACTOR) or SYSTEM)


def record(
    session: Session,
    actor: str | None,
    action: str,
    object_type: str,
    object_id: str,
    *,
    tenant_id: str,
    **details: Any,
) -> AuditEvent:
    """Add an audit event to the session's transaction: it commits with the change it records
    and is logged (logger `loupe.audit`) once committed.

    Args:
        actor: who acted; None for whoever acts on the session (`actor_of`).
        action: `<object type>.<verb>`, e.g. `evaluation.cancel`.
        details: JSON-friendly facts about the change; names that could hold a secret are
            dropped, a URL (a name ending `url`) loses its user, password, fragment and query
            values.
    """
    event = AuditEvent(
        id=new_id("aud"),
        tenant_id=tenant_id,
        actor=actor or actor_of(session),
        action=action,
        object_type=object_type,
        object_id=object_id,
        at=utcnow(),
        details={
            name: _kept(value) if _is_url(name, value) else value
            for name, value in details.items()
            if not any(word in name.lower() for word in _SECRET_WORDS)
        },
    )
    session.add(event)
    fields = {
        "audit_event_id": event.id,
        "tenant_id": event.tenant_id,
        "actor": event.actor,
        "action": event.action,
        "object_type": event.object_type,
        "object_id": event.object_id,
        "details": _loggable(event.details),
    }
    outbox(session).add(lambda: logger.info("audit.%s", action, extra=fields))
    return event


def log_only(
    actor: str, action: str, object_type: str, object_id: str, *, tenant_id: str, **details: Any
) -> None:
    """Log an audit line with no event to keep it (a tenant's deletion takes its trail with
    it), with the fields every `loupe.audit` line has."""
    fields = {
        "tenant_id": tenant_id,
        "actor": actor,
        "action": action,
        "object_type": object_type,
        "object_id": object_id,
        "details": _loggable(details),
    }
    logger.info("audit.%s", action, extra=fields)


def page(
    session: Session, tenant_id: str, where: AuditFilter, after: str | None, limit: int
) -> Sequence[AuditEvent]:
    """`limit + 1` of the tenant's events matching `where`, newest first, past `after`."""
    return AuditRepository(session, tenant_id).page(where, after, limit)


def prune(session: Session, retention_days: float) -> int:
    """Delete every tenant's events older than `retention_days`; returns how many."""
    return UnscopedAuditRepository(session).delete_before(utcnow() - timedelta(days=retention_days))
