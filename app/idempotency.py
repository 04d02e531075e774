"""Idempotency-Key handling with Stripe's semantics: replay, conflict, 24 h retention."""

import hashlib
import json
from datetime import timedelta
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.db import utcnow
from app.models import IdempotencyKey
from app.problems import ProblemError


def fingerprint(body: Any) -> str:
    """SHA-256 of the body's canonical JSON, so key order and whitespace do not matter."""
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def lookup(
    session: Session, tenant_id: str, key: str, body_fingerprint: str, retention_hours: float
) -> IdempotencyKey | None:
    """The stored first response for this key, or None; 422 if the key came with another body."""
    cutoff = utcnow() - timedelta(hours=retention_hours)
    stored = session.scalars(
        select(IdempotencyKey).where(
            IdempotencyKey.tenant_id == tenant_id,
            IdempotencyKey.key == key,
            IdempotencyKey.created_at >= cutoff,
        )
    ).one_or_none()
    if stored is not None and stored.fingerprint != body_fingerprint:
        raise ProblemError(
            422,
            "Idempotency key reused",
            "This Idempotency-Key was first used with a different request body.",
            slug="idempotency-key-reused",
        )
    return stored


def remember(
    session: Session,
    tenant_id: str,
    key: str,
    body_fingerprint: str,
    status_code: int,
    response_body: dict[str, Any],
    response_headers: dict[str, str],
) -> None:
    """Store the first response in the caller's transaction; 409 if a concurrent twin won."""
    # A stale row under the same key (older than retention) makes way for the new request.
    session.execute(
        delete(IdempotencyKey).where(
            IdempotencyKey.tenant_id == tenant_id, IdempotencyKey.key == key
        )
    )
    session.add(
        IdempotencyKey(
            tenant_id=tenant_id,
            key=key,
            fingerprint=body_fingerprint,
            status_code=status_code,
            response_body=response_body,
            response_headers=response_headers,
        )
    )
    try:
        session.flush()
    except IntegrityError as exc:
        raise ProblemError(
            409,
            "Conflict",
            "A request with this Idempotency-Key is in flight; retry shortly.",
            slug="idempotency-key-in-flight",
            headers={"Retry-After": "1"},
        ) from exc


def prune(session: Session, retention_hours: float) -> int:
    """Delete keys past retention; returns how many."""
    cutoff = utcnow() - timedelta(hours=retention_hours)
    outcome = session.execute(delete(IdempotencyKey).where(IdempotencyKey.created_at < cutoff))
    return outcome.rowcount or 0  # type: ignore[attr-defined]
