"""API keys by id: the operator's CLI revokes one by id, and authentication notes a key's use
once it has found the key by its hash, before any tenant is known."""

from datetime import datetime

from sqlalchemy import update
from sqlalchemy.orm import Session

from app.models import ApiKey


class UnscopedApiKeyRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def get(self, key_id: str) -> ApiKey | None:
        return self.session.get(ApiKey, key_id)

    def touch(self, key_id: str, now: datetime) -> None:
        """Record a key's use in a transaction of its own (the request's may never commit)."""
        with self.session.get_bind().connect() as connection:
            connection.execute(update(ApiKey).where(ApiKey.id == key_id).values(last_used_at=now))
            connection.commit()
