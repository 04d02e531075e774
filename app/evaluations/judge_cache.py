"""The judge cache in the database, as the judge client's JudgeCache."""

import asyncio
from typing import Any

from app.db import utcnow
from app.evaluations.repository import JudgeCacheRepository
from app.runtime import Runtime


class DatabaseJudgeCache:
    """Reads go to the database; writes are buffered and stored with each batch of results."""

    def __init__(self, runtime: Runtime, scope: str) -> None:
        self.runtime = runtime
        self.scope = scope
        self._pending: dict[str, dict[str, Any]] = {}

    def _read(self, key: str) -> dict[str, Any] | None:
        with self.runtime.session() as session:
            entry = JudgeCacheRepository(session).get(self.scope, key)
            return {"content": entry.content, "logprobs": entry.logprobs} if entry else None

    async def get(self, key: str) -> dict[str, Any] | None:
        if key in self._pending:
            return self._pending[key]
        return await asyncio.to_thread(self._read, key)

    async def put(self, key: str, value: dict[str, Any]) -> None:
        self._pending[key] = value

    def take_rows(self) -> list[dict[str, Any]]:
        """Buffered entries as rows to insert (the caller writes them in its transaction)."""
        rows = [
            {
                "scope": self.scope,
                "key": key,
                "content": value["content"] or "",
                "logprobs": value.get("logprobs"),
                "created_at": utcnow(),
            }
            for key, value in self._pending.items()
        ]
        self._pending = {}
        return rows
