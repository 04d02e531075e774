"""Refused console sign-ins with an API key: on the key's team's audit trail when the key is one
of Loupe's (revoked, expired, or holding no scope now), logged on `loupe.auth` always.

Who refuses writes rows nobody asked for, so the rows are bounded: at most one event per key per
LOUPE_AUTH_FAILURE_WINDOW_SECONDS (a revoked key tried from many addresses leaves one a window),
and none from an address the throttle already refuses; a key that is no key of Loupe's names no
team and is only logged (its address, never what was typed)."""

import logging
from datetime import timedelta

from sqlalchemy.orm import Session

from app import audit
from app.audit.repository import AuditFilter, AuditRepository
from app.db import utcnow
from app.models import ApiKey
from app.tenants.service import KEY_PREFIX, hash_key
from app.unscoped.api_keys import UnscopedApiKeyRepository

logger = logging.getLogger("loupe.auth")

ACTION = "api_key.sign_in_refused"


def _reason(api_key: ApiKey) -> str:
    return "revoked" if api_key.revoked_at is not None else "expired"


def refused_sign_in(
    session: Session, key: str, address: str, window_seconds: float, reason: str | None = None
) -> None:
    """Record that `key` did not sign in to the console from `address` (the caller commits).

    Args:
        reason: why a working key was refused (`held_back`: it holds no scope now); None for
            a key refused as revoked or expired, which the row tells.
    """
    api_key = (
        UnscopedApiKeyRepository(session).any_by_hash(hash_key(key))
        if key.startswith(KEY_PREFIX) and len(key) <= 200
        else None
    )
    if api_key is None:
        logger.warning("console sign-in refused: not a key", extra={"address": address})
        return
    reason = reason or _reason(api_key)
    logger.warning(
        "console sign-in refused: %s key",
        reason,
        extra={"address": address, "key_id": api_key.id, "tenant_id": api_key.tenant_id},
    )
    since = utcnow() - timedelta(seconds=window_seconds)
    where = AuditFilter(action=ACTION, object_id=api_key.id, since=since)
    if AuditRepository(session, api_key.tenant_id).page(where, None, 1):
        return
    audit.record(
        session,
        f"key:{api_key.id}",
        ACTION,
        "api_key",
        api_key.id,
        tenant_id=api_key.tenant_id,
        reason=reason,
        prefix=api_key.prefix,
        name=api_key.name,
        address=address,
    )
