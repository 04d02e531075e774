"""Tenants and API keys: keys are random 256-bit tokens kept only as their SHA-256."""

import hashlib
import secrets

from sqlalchemy.orm import Session

from app.ids import new_id
from app.models import ApiKey, Tenant
from app.tenants import repository

KEY_PREFIX = "lp_"


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
    """The tenant an API key belongs to, or None for an unknown or revoked key."""
    if not key.startswith(KEY_PREFIX) or len(key) > 200:
        return None
    return repository.tenant_by_key_hash(session, hash_key(key))
