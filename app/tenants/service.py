"""Tenants and API keys: keys are random 256-bit tokens kept only as their SHA-256."""

import hashlib
import secrets
from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from app.db import utcnow
from app.ids import new_id
from app.models import ApiKey, Tenant
from app.tenants import repository
from app.unscoped.api_keys import UnscopedApiKeyRepository

KEY_PREFIX = "lp_"
# How stale `last_used_at` may get: one write a minute per key, not one per request.
_USE_GRANULARITY = timedelta(minutes=1)


def hash_key(key: str) -> str:
    # A fast hash is enough: keys have 256 bits of entropy, so there is nothing to brute-force.
    return hashlib.sha256(key.encode()).hexdigest()


def create_key(session: Session, tenant_name: str) -> tuple[Tenant, str]:
    """A new API key for the named tenant (created if new); returns the key in clear, once."""
    tenant = repository.tenant_by_name(session, tenant_name)
    if tenant is None:
        tenant = Tenant(id=new_id("ten"), name=tenant_name)
        session.add(tenant)
        session.flush()
    key = KEY_PREFIX + secrets.token_urlsafe(32)
    session.add(
        ApiKey(id=new_id("key"), tenant_id=tenant.id, key_hash=hash_key(key), prefix=key[:10])
    )
    session.flush()
    return tenant, key


def tenant_for_key(session: Session, key: str) -> Tenant | None:
    """The tenant an API key belongs to, or None for an unknown or revoked key; notes the
    key's use (at most once a minute, so reads stay reads)."""
    if not key.startswith(KEY_PREFIX) or len(key) > 200:
        return None
    found = UnscopedApiKeyRepository(session).tenant_and_key(hash_key(key))
    if found is None:
        return None
    tenant, api_key = found
    now = utcnow()
    if api_key.last_used_at is None or now - api_key.last_used_at > _USE_GRANULARITY:
        UnscopedApiKeyRepository(session).touch(api_key.id, now)
    return tenant


def tenant_by_key_hash(session: Session, key_hash: str) -> Tenant | None:
    """The tenant of an unrevoked key with this hash (a console session holds the hash)."""
    found = UnscopedApiKeyRepository(session).tenant_and_key(key_hash)
    return found[0] if found else None


def keys_of(session: Session, tenant_name: str) -> list[ApiKey] | None:
    """The named tenant's keys, oldest first (None: no such tenant)."""
    tenant = repository.tenant_by_name(session, tenant_name)
    return None if tenant is None else list(repository.keys_of(session, tenant.id))


def revoke_key(session: Session, key_id: str) -> ApiKey | None:
    """Revoke a key by id (None: no such key); requests with it answer 401 from then on."""
    api_key = UnscopedApiKeyRepository(session).get(key_id)
    if api_key is not None and api_key.revoked_at is None:
        api_key.revoked_at = utcnow()
        session.flush()
    return api_key


def sign_out_session(session: Session, nonce: str, expires_at: datetime) -> None:
    """Record a console session as signed out until its cookie expires (a repeat is a no-op)."""
    repository.sign_out_session(session, nonce, expires_at)


def session_signed_out(session: Session, nonce: str) -> bool:
    """Whether the console session with this nonce was signed out (asked on every page)."""
    return repository.session_signed_out(session, nonce)
