"""All SQL about tenants and their API keys."""

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import ApiKey, Tenant


def tenant_by_name(session: Session, name: str) -> Tenant | None:
    return session.scalars(select(Tenant).where(Tenant.name == name)).one_or_none()


def tenant_by_key_hash(session: Session, key_hash: str) -> Tenant | None:
    return session.scalars(
        select(Tenant)
        .join(ApiKey, ApiKey.tenant_id == Tenant.id)
        .where(ApiKey.key_hash == key_hash, ApiKey.revoked_at.is_(None))
    ).one_or_none()
