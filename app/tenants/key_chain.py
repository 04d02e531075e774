"""Keys making keys: a key signed in to the console makes keys, which make keys in turn. Who
stands behind a key (its makers, up to a person or the operator), the keys made with one, and
revoking a key with every key made with it: a key's keys never outlive it."""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from app import audit
from app.db import utcnow
from app.models import ApiKey
from app.tenants import repository


def revoke(
    session: Session, api_key: ApiKey, by: str, at: datetime, with_key: str | None = None
) -> None:
    """Revoke a working key, on its team's audit trail (by `by`), the one way every path does.

    Args:
        with_key: the id of the key whose revocation takes this one along (one it was made
            with), named on its audit event.
    """
    api_key.revoked_at = at
    audit.record(
        session,
        by,
        "api_key.revoke",
        "api_key",
        api_key.id,
        tenant_id=api_key.tenant_id,
        prefix=api_key.prefix,
        name=api_key.name,
        **({} if with_key is None else {"revoked_with": with_key}),
    )


def revoke_with_made(session: Session, api_key: ApiKey, by: str) -> list[ApiKey]:
    """Revoke a working key and every working key made with it (by it, or by a key it made, and
    so on), at one instant, each an `api_key.revoke` by `by` (those taken along naming it in
    `revoked_with`); returns those taken along."""
    now = utcnow()
    revoke(session, api_key, by, now)
    made = keys_made_by(session, api_key.tenant_id, f"key:{api_key.id}")
    for key in made:
        revoke(session, key, by, now, with_key=api_key.id)
    session.flush()
    return made


def keys_made_by(session: Session, tenant_id: str, created_by: str) -> list[ApiKey]:
    """The tenant's working keys that `created_by` (an actor) made, and those its keys made in
    turn (a key signed in to the console makes keys too)."""
    keys = repository.keys_of(session, tenant_id)
    makers, made = {created_by}, True
    while made:
        made = False
        for key in keys:
            if key.created_by in makers and f"key:{key.id}" not in makers:
                makers.add(f"key:{key.id}")
                made = True
    return [key for key in keys if key.created_by in makers and key.revoked_at is None]


def revoked_along(keys: Sequence[ApiKey]) -> dict[str, ApiKey]:
    """Of a team's `keys`, each key revoked with another (made with it and revoked at the same
    instant, by `revoke_with_made`) by id -> the key whose revocation took it along."""
    by_id = {key.id: key for key in keys}
    along: dict[str, ApiKey] = {}
    for key in keys:
        at, origin, hops = key, None, 0
        while at.revoked_at is not None and hops < _CHAIN_MAX:
            made_by = at.created_by or ""
            maker = by_id.get(made_by.removeprefix("key:")) if made_by.startswith("key:") else None
            if maker is None or maker.revoked_at != key.revoked_at:
                break
            at, origin, hops = maker, maker, hops + 1
        if origin is not None:
            along[key.id] = origin
    return along


def makers_of(session: Session, tenant_id: str, actor: str) -> list[str]:
    """Who is behind `actor` when it is one of the tenant's keys (`key:<id>`): the actor that
    made it, the one that made that key, and so on, nearest first, ending at a person, the
    operator or a key from before keys were made by anyone (its maker unknown); empty for a
    person or the operator."""
    made_by = {f"key:{key.id}": key.created_by for key in repository.keys_of(session, tenant_id)}
    chain: list[str] = []
    seen = {actor}
    at: str | None = actor
    while at in made_by:
        at = made_by[at]
        if at is None or at in seen:
            break
        chain.append(at)
        seen.add(at)
    return chain


# Longer chains of keys making keys are not made by hand; a cycle cannot be made (a key's maker
# exists before it), but a walk read on every request must end whatever the rows say.
_CHAIN_MAX = 32


@dataclass(frozen=True)
class Root:
    """Who stands at the root of a key's makers: `actor` is a person, the operator, None (a key
    from before keys had makers), or a key whose maker cannot be read; `revoked` the nearest
    key in between found revoked (`key:<id>`; the walk stops there: the key is cut off)."""

    actor: str | None
    revoked: str | None = None


def root_maker(session: Session, tenant_id: str, made_by: str | None) -> Root:
    """Who stands at the root of a key made by `made_by`, or the key in between that was
    revoked. One primary-key read per key in between (none for a key made by a person or the
    operator), as every request asks."""
    at, hops = made_by, 0
    while at is not None and at.startswith("key:") and hops < _CHAIN_MAX:
        maker = repository.key_of(session, tenant_id, at.removeprefix("key:"))
        if maker is None:
            return Root(at)
        if maker.revoked_at is not None:
            # Revoking a key revokes the keys made with it; one made with it as it was revoked
            # (the revocation read the keys before it was stored), or before revoking went
            # down the chain, is cut off here.
            return Root(None, revoked=at)
        at, hops = maker.created_by, hops + 1
    return Root(at)


def revoke_keys_made_by(session: Session, tenant_id: str, created_by: str, by: str) -> list[ApiKey]:
    """Revoke `keys_made_by` (the chain would outlive its maker's access), by `by`; returns
    them."""
    now = utcnow()
    revoked = keys_made_by(session, tenant_id, created_by)
    for key in revoked:
        revoke(session, key, by, now)
    session.flush()
    return revoked


def hand_over_keys(session: Session, tenant_id: str, made_by: str, to: str) -> list[ApiKey]:
    """Make `to` the maker of the tenant's working keys `made_by` made (a removed person's keys
    an admin keeps: they now answer to the admin's role, not to nobody's); each an
    `api_key.hand_over` on the audit trail, by `to`, naming who made it."""
    handed = [
        key
        for key in repository.keys_of(session, tenant_id)
        if key.created_by == made_by and key.revoked_at is None
    ]
    for key in handed:
        key.created_by = to
        audit.record(
            session,
            to,
            "api_key.hand_over",
            "api_key",
            key.id,
            tenant_id=tenant_id,
            prefix=key.prefix,
            name=key.name,
            made_by=made_by,
        )
    session.flush()
    return handed
