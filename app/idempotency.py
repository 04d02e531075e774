"""Idempotency-Key handling with Stripe's semantics: replay, conflict, 24 h retention.

A keyed request first reserves its key: a committed row with no response yet, unique per
(tenant, key), so of concurrent twins exactly one proceeds. The winner claims the key in the
transaction that stores its work (`claim`, so work and key commit together), stores its response
just after (`complete`), or releases the key if it fails; the others get 409 while it runs and
its response afterwards. `app/api/idempotent.py` wraps a creating endpoint in all of this.
"""

import hashlib
import json
from datetime import timedelta
from typing import Any

from sqlalchemy import and_, delete, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.db import utcnow
from app.models import IdempotencyKey
from app.problems import ProblemError

# A reservation this old belongs to a request that died without releasing it (a killed API
# process); a retry takes the key over. Should that request still finish, its completion finds
# the reservation gone and is rolled back, so the key still yields one outcome.
ABANDONED_AFTER = timedelta(minutes=10)
# `status_code` of a key whose work committed and whose response is being stored: never taken
# over as abandoned (that would do the work twice); in progress (409) until it expires.
CLAIMED = 0


def fingerprint(body: Any) -> str:
    """SHA-256 of the body's canonical JSON, so key order and whitespace do not matter."""
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def reserve(
    session: Session,
    tenant_id: str,
    key: str,
    body_fingerprint: str,
    retention_hours: float,
    earlier_fingerprints: tuple[str, ...] = (),
) -> IdempotencyKey:
    """Reserve the key for this request (committed) or find the first response to replay.

    Returns the key's row: this request's own reservation (`status_code` None), or the
    completed first request, whose response to replay. Raises 422 when the key came with
    another body and 409 while the first request is still in progress.

    Args:
        earlier_fingerprints: what an earlier release stored for this very request, taken as
            the same request (keys live a day, so a retry may cross an upgrade).
    """
    for _ in range(3):
        now = utcnow()
        # Expired keys and abandoned reservations make way; nothing else under the key does.
        session.execute(
            delete(IdempotencyKey).where(
                IdempotencyKey.tenant_id == tenant_id,
                IdempotencyKey.key == key,
                or_(
                    IdempotencyKey.created_at < now - timedelta(hours=retention_hours),
                    and_(
                        IdempotencyKey.status_code.is_(None),
                        IdempotencyKey.created_at < now - ABANDONED_AFTER,
                    ),
                ),
            )
        )
        reservation = IdempotencyKey(tenant_id=tenant_id, key=key, fingerprint=body_fingerprint)
        session.add(reservation)
        try:
            session.commit()
            return reservation
        except IntegrityError:
            session.rollback()
        stored = session.scalars(
            select(IdempotencyKey).where(
                IdempotencyKey.tenant_id == tenant_id, IdempotencyKey.key == key
            )
        ).one_or_none()
        if stored is None:
            continue  # its request failed and released the key: try again
        if stored.fingerprint not in (body_fingerprint, *earlier_fingerprints):
            raise ProblemError(
                422,
                "Idempotency key reused",
                "Idempotency-Key: this key was first used with a different request body, "
                "on another route, or (for a label or a webhook endpoint, whose answer is its "
                "caller's) by another API key.",
                slug="idempotency-key-reused",
                field=["header", "Idempotency-Key"],
            )
        if stored.status_code is None or stored.status_code == CLAIMED:
            raise _in_progress()
        return stored
    raise _in_progress()


def claim(session: Session, reservation_id: int) -> None:
    """Mark the key as used by the work about to commit, in that work's transaction.

    Raises 409 if the reservation was taken over as abandoned: the caller's work must then
    be rolled back, as the key's new holder does it instead.
    """
    claimed = session.execute(
        update(IdempotencyKey)
        .where(IdempotencyKey.id == reservation_id, IdempotencyKey.status_code.is_(None))
        .values(status_code=CLAIMED)
    )
    if claimed.rowcount != 1:  # type: ignore[attr-defined]
        raise _in_progress()


def complete(
    session: Session,
    reservation_id: int,
    status_code: int,
    response_body: dict[str, Any],
    response_headers: dict[str, str],
) -> None:
    """Store the response on the reservation (reserved or claimed), in the caller's transaction.

    Raises 409 if the reservation was taken over as abandoned: the caller's work must then
    be rolled back, as the key's new holder does it instead.
    """
    stored = session.execute(
        update(IdempotencyKey)
        .where(
            IdempotencyKey.id == reservation_id,
            or_(IdempotencyKey.status_code.is_(None), IdempotencyKey.status_code == CLAIMED),
        )
        .values(
            status_code=status_code,
            response_body=response_body,
            response_headers=response_headers,
        )
    )
    if stored.rowcount != 1:  # type: ignore[attr-defined]
        raise _in_progress()


def release(session: Session, reservation_id: int) -> None:
    """Roll back the request's work and free its reservation, so a retry may use the key."""
    session.rollback()
    session.execute(
        delete(IdempotencyKey).where(
            IdempotencyKey.id == reservation_id, IdempotencyKey.status_code.is_(None)
        )
    )
    session.commit()


def prune(session: Session, retention_hours: float) -> int:
    """Delete keys past retention; returns how many."""
    cutoff = utcnow() - timedelta(hours=retention_hours)
    outcome = session.execute(delete(IdempotencyKey).where(IdempotencyKey.created_at < cutoff))
    return outcome.rowcount or 0  # type: ignore[attr-defined]


def _in_progress() -> ProblemError:
    return ProblemError(
        409,
        "Conflict",
        "Idempotency-Key: a request with this key is in progress; retry shortly.",
        slug="idempotency-key-in-progress",
        field=["header", "Idempotency-Key"],
        headers={"Retry-After": "1"},
    )
