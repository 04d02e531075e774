"""The judge cache in the database, as the judge client's JudgeCache."""

import asyncio
from typing import Any

from app.db import utcnow
from app.evaluations.repository import JudgeCacheRepository
from app.runtime import Runtime


class DatabaseJudgeCache:
    """Lookups are batched: every key asked for in one turn of the event loop goes to the
    database in one query. Writes are buffered and stored with each batch of results."""

    def __init__(self, runtime: Runtime, scope: str) -> None:
        self.runtime = runtime
        self.scope = scope
        self._pending: dict[str, dict[str, Any]] = {}
        self._lookups: dict[str, asyncio.Future[dict[str, Any] | None]] = {}

    def _read(self, keys: list[str]) -> dict[str, dict[str, Any]]:
        with self.runtime.session() as session:
            return JudgeCacheRepository(session).get_many(self.scope, keys)

    async def _lookup_batch(self) -> None:
        batch, self._lookups = self._lookups, {}
        try:
            found = await asyncio.to_thread(self._read, list(batch))
        except Exception as error:  # noqa: BLE001 - every waiter learns of the failure
            for future in batch.values():
                future.set_exception(error)
            return
        for key, future in batch.items():
            future.set_result(found.get(key))

    async def get(self, key: str) -> dict[str, Any] | None:
        if key in self._pending:
            return self._pending[key]
        future = self._lookups.get(key)
        if future is None:
            if not self._lookups:
                # Let the other coroutines of this loop turn add their keys first.
                asyncio.get_running_loop().call_soon(
                    lambda: asyncio.ensure_future(self._lookup_batch())
                )
            future = self._lookups[key] = asyncio.get_running_loop().create_future()
        return await future

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
