"""API keys by hash and by id: authentication finds a key (and so its tenant) by its hash and
notes its use; the operator's CLI revokes one by id and counts every tenant's live keys. No
tenant is known yet at any of them."""

from datetime import datetime

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from app.models import ApiKey, Tenant


class UnscopedApiKeyRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def tenant_and_key(self, key_hash: str) -> tuple[Tenant, ApiKey] | None:
        """The tenant and key row of an unrevoked key (read on every request: no cache, so a
        revocation takes effect at once in every process)."""
        row = self.session.execute(
            select(Tenant, ApiKey)
            .join(ApiKey, ApiKey.tenant_id == Tenant.id)
            .where(ApiKey.key_hash == key_hash, ApiKey.revoked_at.is_(None))
        ).one_or_none()
        return (row[0], row[1]) if row else None

    def live_counts(self, now: datetime) -> dict[str, int]:
        """Tenant id -> how many of its keys are neither revoked nor expired (`loupe tenants
        list`, the operator's view of every tenant)."""
        rows = self.session.execute(
            select(ApiKey.tenant_id, func.count())
            .where(
                ApiKey.revoked_at.is_(None),
                (ApiKey.expires_at.is_(None)) | (ApiKey.expires_at > now),
            )
            .group_by(ApiKey.tenant_id)
        ).all()
        return {tenant_id: count for tenant_id, count in rows}

    def any_by_hash(self, key_hash: str) -> ApiKey | None:
        """The key with this hash, revoked or not (a refused sign-in names its team)."""
        return self.session.scalars(select(ApiKey).where(ApiKey.key_hash == key_hash)).first()

    def get(self, key_id: str) -> ApiKey | None:
        return self.session.get(ApiKey, key_id)

    def touch(self, key_id: str, now: datetime) -> None:
        """Record a key's use in a transaction of its own (the request's may never commit)."""
        with self.session.get_bind().connect() as connection:
            connection.execute(update(ApiKey).where(ApiKey.id == key_id).values(last_used_at=now))
            connection.commit()
