"""The judge cache and its claims, read and written by evaluation jobs."""

import json
from datetime import datetime
from typing import Any

from sqlalchemy import delete, update
from sqlalchemy.orm import Session

from app.db import add_into, insert_ignoring_duplicates, utcnow
from app.models import JudgeCacheEntry, JudgeClaim
from app.unscoped.nul import row_without_nul

# The drivers' placeholder for a positional parameter, by DB-API paramstyle.
_PLACEHOLDERS = {"qmark": "?", "format": "%s", "pyformat": "%s"}


class UnscopedJudgeCacheRepository:
    """The judge cache's rows, by scope: a scope is its tenant's id or its evaluation's
    (`eval:<id>`), so the scope string keeps tenants' answers apart."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def get_many(self, scope: str, keys: list[str]) -> dict[str, dict[str, Any]]:
        """Stored answers by key.

        A lookup precedes every judge call, so this query goes to the driver as plain SQL:
        building, compiling and reading it through SQLAlchemy costs ~10x the query itself
        (0.3-0.5 ms against 0.03 ms on SQLite).
        """
        if not keys:
            return {}
        connection = self.session.connection()
        mark = _PLACEHOLDERS[connection.dialect.paramstyle]
        sql = (
            f'SELECT "key", content, logprobs FROM {JudgeCacheEntry.__tablename__} '
            f'WHERE scope = {mark} AND "key" IN ({", ".join([mark] * len(keys))})'
        )
        cursor = connection.connection.cursor()
        try:
            cursor.execute(sql, (scope, *keys))
            rows = cursor.fetchall()
        finally:
            cursor.close()
        # SQLite hands JSON back as text; PostgreSQL's driver decodes jsonb itself.
        return {
            key: {
                "content": content,
                "logprobs": json.loads(logprobs) if isinstance(logprobs, str) else logprobs,
            }
            for key, content, logprobs in rows
        }

    def put_many(self, rows: list[dict[str, Any]]) -> None:
        """Store answers, replacing a stored one under the same key: a lookup found it unfit
        (stored before answers were checked against the question), or the call would not
        have been made."""
        add_into(
            self.session,
            JudgeCacheEntry,
            # Sorted, so concurrent jobs lock the rows they share in one order.
            sorted(
                (row_without_nul(row) for row in rows), key=lambda row: (row["scope"], row["key"])
            ),
            keys=("scope", "key"),
            replaced=("content", "logprobs", "created_at"),
            # Answers to calls just made: seldom stored already (a stale one being replaced).
            likely_new=True,
        )

    def claim_many(
        self, scope: str, keys: list[str], holder: str, stale_before: datetime
    ) -> set[str]:
        """Take the claims on shared answers: the keys whose claim was free, released or stale."""
        now = utcnow()
        rows = [{"scope": scope, "key": key, "holder": holder, "claimed_at": now} for key in keys]
        taken = insert_ignoring_duplicates(self.session, JudgeClaim, rows, returning=JudgeClaim.key)
        for key in keys:
            if key in taken:
                continue
            # Compare-and-set on the time: of several jobs finding a stale claim, one takes it.
            outcome = self.session.execute(
                update(JudgeClaim)
                .where(
                    JudgeClaim.scope == scope,
                    JudgeClaim.key == key,
                    JudgeClaim.claimed_at < stale_before,
                )
                .values(holder=holder, claimed_at=now)
            )
            if outcome.rowcount == 1:  # type: ignore[attr-defined]
                taken.add(key)
        return taken

    def refresh_claim(self, scope: str, key: str, holder: str) -> None:
        self.session.execute(
            update(JudgeClaim)
            .where(JudgeClaim.scope == scope, JudgeClaim.key == key, JudgeClaim.holder == holder)
            .values(claimed_at=utcnow())
        )

    def release_claims(self, scope: str, keys: list[str], holder: str) -> None:
        self.session.execute(
            delete(JudgeClaim).where(
                JudgeClaim.scope == scope, JudgeClaim.key.in_(keys), JudgeClaim.holder == holder
            )
        )
