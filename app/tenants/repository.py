"""All SQL about tenants and their API keys."""

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from app.db import insert_ignoring_duplicates
from app.models import ApiKey, BlobOwner, BlobRef, SignedOutSession, Tenant


def tenant_by_name(session: Session, name: str) -> Tenant | None:
    return session.scalars(select(Tenant).where(Tenant.name == name)).one_or_none()


def all_tenants(session: Session) -> Sequence[Tenant]:
    """Every tenant, by name (the operator's CLI: no tenant is the caller's)."""
    return session.scalars(select(Tenant).order_by(Tenant.name)).all()


def blob_digests_of(session: Session, tenant_id: str) -> set[str]:
    """The blobs a tenant owns or its rows reference (to collect once it is gone)."""
    owned = session.scalars(select(BlobOwner.sha256).where(BlobOwner.tenant_id == tenant_id))
    named = session.scalars(select(BlobRef.sha256).where(BlobRef.tenant_id == tenant_id))
    return set(owned) | set(named)


def delete_tenant(session: Session, tenant: Tenant) -> None:
    """Delete a tenant row: every table holding a tenant's rows cascades from it (foreign keys
    ON DELETE CASCADE, on SQLite too: foreign_keys is on)."""
    session.execute(delete(Tenant).where(Tenant.id == tenant.id))


def keys_of(session: Session, tenant_id: str) -> Sequence[ApiKey]:
    return session.scalars(
        select(ApiKey).where(ApiKey.tenant_id == tenant_id).order_by(ApiKey.created_at)
    ).all()


def key_of(session: Session, tenant_id: str, key_id: str) -> ApiKey | None:
    """One of the tenant's keys by id (None: no such key, or another tenant's)."""
    return session.scalars(
        select(ApiKey).where(ApiKey.tenant_id == tenant_id, ApiKey.id == key_id)
    ).one_or_none()


def sign_out_session(session: Session, nonce: str, expires_at: datetime) -> None:
    """Record a console session as signed out until its cookie expires (a repeat is a no-op)."""
    insert_ignoring_duplicates(
        session, SignedOutSession, [{"nonce": nonce, "expires_at": expires_at}]
    )


def session_signed_out(session: Session, nonce: str) -> bool:
    """Whether the console session with this nonce was signed out (read on every page)."""
    return session.get(SignedOutSession, nonce) is not None


def prune_signed_out_sessions(session: Session, now: datetime) -> int:
    """Forget sign-outs whose cookies have expired by `now` (refused as expired anyway);
    returns how many."""
    outcome = session.execute(delete(SignedOutSession).where(SignedOutSession.expires_at < now))
    return outcome.rowcount or 0  # type: ignore[attr-defined]
