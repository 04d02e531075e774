"""All SQL about tenants and their API keys."""

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from app.db import insert_ignoring_duplicates
from app.models import ApiKey, SignedOutSession, Tenant


def tenant_by_name(session: Session, name: str) -> Tenant | None:
    return session.scalars(select(Tenant).where(Tenant.name == name)).one_or_none()


def keys_of(session: Session, tenant_id: str) -> Sequence[ApiKey]:
    return session.scalars(
        select(ApiKey).where(ApiKey.tenant_id == tenant_id).order_by(ApiKey.created_at)
    ).all()


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
