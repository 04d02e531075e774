"""Tenants and API keys: keys are random 256-bit tokens kept only as their SHA-256."""

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy.orm import Session

from app.db import utcnow
from app.ids import new_id
from app.media import gc
from app.models import ApiKey, Tenant
from app.tenants import key_chain, repository
from app.tenants.scopes import OPERATOR, Caller, key_scopes
from app.unscoped.api_keys import UnscopedApiKeyRepository

KEY_PREFIX = "lp_"
# How stale `last_used_at` may get: one write a minute per key, not one per request.
_USE_GRANULARITY = timedelta(minutes=1)


def hash_key(key: str) -> str:
    # A fast hash is enough: keys have 256 bits of entropy, so there is nothing to brute-force.
    return hashlib.sha256(key.encode()).hexdigest()


_UNITS = {"d": timedelta(days=1), "h": timedelta(hours=1), "m": timedelta(minutes=1)}


def parse_expiry(text: str, now: datetime) -> datetime:
    """When a key made at `now` expires: `90d`, `12h`, `30m` from now, or an ISO date (its
    midnight, UTC) or date and time (UTC unless it says otherwise); ValueError when the text
    is none of these or not in the future."""
    value = text.strip()
    unit = _UNITS.get(value[-1:].lower())
    if unit is not None and value[:-1].isdigit():
        if int(value[:-1]) == 0:
            raise ValueError(f"{text!r} is no time at all; give a positive duration such as 90d")
        return now + int(value[:-1]) * unit
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise ValueError(
            f"{text!r} is neither a duration (90d, 12h, 30m) nor an ISO date (2027-01-31) or "
            "time (2027-01-31T12:00:00Z)"
        ) from None
    moment = moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    if moment <= now:
        raise ValueError(f"{text!r} is in the past; a key must expire after it is made")
    return moment


class UnknownTenant(LookupError):
    """A tenant name that names none (`create_key` without `create`, a rename, a delete)."""


class TenantExists(ValueError):
    """A tenant name already taken (create, rename)."""


# A tenant's name: what `--tenant` takes, so no spaces or control characters.
_NAME_MAX = 200


# A key's name: shown in `loupe keys list` and on the console's Keys page.
KEY_NAME_MAX = 200


def check_key_name(name: str) -> str:
    """The name without surrounding spaces, or ValueError saying what is wrong with it: 1 to
    200 printable characters (a control character could rewrite an operator's terminal)."""
    name = name.strip()
    if not name or len(name) > KEY_NAME_MAX:
        raise ValueError(f"a key name has 1 to {KEY_NAME_MAX} characters")
    if not name.isprintable():
        raise ValueError("a key name has printable characters only, no control characters")
    return name


def check_tenant_name(name: str) -> str:
    """The name as given, or ValueError saying what is wrong with it."""
    if not name or len(name) > _NAME_MAX:
        raise ValueError(f"a tenant name has 1 to {_NAME_MAX} characters")
    if any(ch.isspace() or not ch.isprintable() for ch in name):
        raise ValueError(f"{name!r}: a tenant name has no spaces or control characters")
    return name


def all_tenants(session: Session) -> list[tuple[Tenant, int]]:
    """Every tenant by name, with how many live keys it has."""
    counts = UnscopedApiKeyRepository(session).live_counts(utcnow())
    return [(tenant, counts.get(tenant.id, 0)) for tenant in repository.all_tenants(session)]


def create_tenant(session: Session, name: str) -> Tenant:
    """A new tenant (TenantExists when the name is taken); the caller commits."""
    check_tenant_name(name)
    if repository.tenant_by_name(session, name) is not None:
        raise TenantExists(name)
    tenant = Tenant(id=new_id("ten"), name=name)
    session.add(tenant)
    session.flush()
    return tenant


def rename_tenant(session: Session, name: str, new_name: str) -> Tenant:
    """Rename a tenant: its id, keys and everything it owns stay (UnknownTenant, TenantExists)."""
    check_tenant_name(new_name)
    tenant = repository.tenant_by_name(session, name)
    if tenant is None:
        raise UnknownTenant(name)
    if new_name != name and repository.tenant_by_name(session, new_name) is not None:
        raise TenantExists(new_name)
    tenant.name = new_name
    session.flush()
    return tenant


def delete_tenant(session: Session, tenant: Tenant) -> set[str]:
    """Delete a tenant with everything it owns (keys, evaluations and runs with their cases and
    results, datasets, files, models, evals, rules, webhooks, comparisons, its audit trail);
    returns the blobs it owned or named, for `collect_blobs` once this is committed. Jobs of
    its running evaluations find them gone and stop."""
    digests = repository.blob_digests_of(session, tenant.id)
    repository.delete_tenant(session, tenant)
    session.flush()
    return digests


def collect_blobs(session: Session, tenant_id: str, digests: set[str]) -> list[str]:
    """Remove the deleted tenant's blobs that no other tenant's rows reference."""
    return gc.collect(session, tenant_id, digests)


def create_key(
    session: Session,
    tenant_name: str,
    *,
    create: bool = True,
    scopes: Sequence[str] | None = None,
    name: str | None = None,
    expires_at: datetime | None = None,
    created_by: str = OPERATOR,
) -> tuple[Tenant, str]:
    """A new API key for the named tenant; returns the key in clear, once.

    Args:
        create: create the tenant when there is none of that name (else UnknownTenant).
        scopes: what the key may do (None: every scope).
        expires_at: when it stops working (None: never).
        created_by: the actor who made it (`operator` from the CLI).
    """
    if name is not None:
        name = check_key_name(name)
    tenant = repository.tenant_by_name(session, tenant_name)
    if tenant is None:
        if not create:
            raise UnknownTenant(tenant_name)
        tenant = Tenant(id=new_id("ten"), name=tenant_name)
        session.add(tenant)
        session.flush()
    key = KEY_PREFIX + secrets.token_urlsafe(32)
    session.add(
        ApiKey(
            id=new_id("key"),
            tenant_id=tenant.id,
            key_hash=hash_key(key),
            prefix=key[:10],
            scopes=None if scopes is None else list(scopes),
            name=name,
            expires_at=expires_at,
            created_by=created_by,
        )
    )
    session.flush()
    return tenant, key


@dataclass(frozen=True)
class KeyExpired:
    """A known, unrevoked key past its expiry (answered 401 saying so)."""

    key_id: str
    expires_at: datetime


def caller_for_key(session: Session, key: str) -> Caller | KeyExpired | None:
    """Who calls with an API key: its tenant, scopes and actor (`key:<id>`); KeyExpired for a
    key past its expiry, None for an unknown or revoked one. Notes the key's use (at most once
    a minute, so reads stay reads)."""
    if not key.startswith(KEY_PREFIX) or len(key) > 200:
        return None
    found = UnscopedApiKeyRepository(session).tenant_and_key(hash_key(key))
    if found is None:
        return None
    tenant, api_key = found
    now = utcnow()
    if api_key.expires_at is not None and api_key.expires_at <= now:
        return KeyExpired(api_key.id, api_key.expires_at)
    if api_key.last_used_at is None or now - api_key.last_used_at > _USE_GRANULARITY:
        UnscopedApiKeyRepository(session).touch(api_key.id, now)
    return caller_of(tenant, api_key)


def caller_of(tenant: Tenant, api_key: ApiKey) -> Caller:
    return Caller(
        tenant=tenant,
        scopes=key_scopes(api_key.scopes),
        actor=f"key:{api_key.id}",
        key_id=api_key.id,
        expires_at=api_key.expires_at,
        made_by=api_key.created_by,
    )


def tenant_for_key(session: Session, key: str) -> Tenant | None:
    """The tenant an API key belongs to, or None for an unknown, revoked or expired key."""
    caller = caller_for_key(session, key)
    return caller.tenant if isinstance(caller, Caller) else None


def caller_by_key_hash(session: Session, key_hash: str) -> Caller | None:
    """Who holds an unrevoked, unexpired key with this hash (a console session holds the hash)."""
    found = UnscopedApiKeyRepository(session).tenant_and_key(key_hash)
    if found is None:
        return None
    tenant, api_key = found
    if api_key.expires_at is not None and api_key.expires_at <= utcnow():
        return None
    return caller_of(tenant, api_key)


def tenant_by_key_hash(session: Session, key_hash: str) -> Tenant | None:
    """The tenant of an unrevoked, unexpired key with this hash."""
    caller = caller_by_key_hash(session, key_hash)
    return caller.tenant if caller is not None else None


def keys_of(session: Session, tenant_name: str) -> list[ApiKey] | None:
    """The named tenant's keys, oldest first (None: no such tenant)."""
    tenant = repository.tenant_by_name(session, tenant_name)
    return None if tenant is None else list(repository.keys_of(session, tenant.id))


def revoke_key(
    session: Session, key_id: str, by: str = OPERATOR
) -> tuple[ApiKey, list[ApiKey]] | None:
    """Revoke a key by id with the keys made with it (`key_chain.revoke_with_made`), and those
    taken along (none when it was revoked already); None: no such key. Requests with any of
    them answer 401 from then on."""
    api_key = UnscopedApiKeyRepository(session).get(key_id)
    if api_key is None:
        return None
    return api_key, [] if api_key.revoked_at else key_chain.revoke_with_made(session, api_key, by)


def tenant_keys(session: Session, tenant_id: str) -> list[ApiKey]:
    """A tenant's keys, newest first (the console's Keys page)."""
    return list(reversed(repository.keys_of(session, tenant_id)))


def tenant_key(session: Session, tenant_id: str, key_id: str) -> ApiKey | None:
    """One of the tenant's keys by id (None: no such key, or another tenant's)."""
    return repository.key_of(session, tenant_id, key_id)


def revoke_tenant_key(
    session: Session, tenant_id: str, key_id: str, by: str
) -> tuple[ApiKey, list[ApiKey]] | None:
    """Revoke one of the tenant's keys (by `by`) with the keys made with it, and those taken
    along (none when it was revoked already: it stays as it is); None: no such key, or another
    tenant's (a team admin revokes their team's keys only)."""
    api_key = repository.key_of(session, tenant_id, key_id)
    if api_key is None:
        return None
    return api_key, [] if api_key.revoked_at else key_chain.revoke_with_made(session, api_key, by)


def sign_out_session(session: Session, nonce: str, expires_at: datetime) -> None:
    """Record a console session as signed out until its cookie expires (a repeat is a no-op)."""
    repository.sign_out_session(session, nonce, expires_at)


def session_signed_out(session: Session, nonce: str) -> bool:
    """Whether the console session with this nonce was signed out (asked on every page)."""
    return repository.session_signed_out(session, nonce)
