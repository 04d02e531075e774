"""The judge cache in the database, as the judge client's JudgeCache and SharedAnswers."""

import asyncio
import secrets
from datetime import timedelta
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


class DatabaseSharedAnswers:
    """Shared answers (G-Eval steps, truths) made once per scope across every job.

    The claim and the answer live in the database, so jobs on other threads and other
    processes see them; the answer is stored as soon as it exists, not with the next batch.
    """

    def __init__(self, runtime: Runtime, scope: str) -> None:
        self.runtime = runtime
        self.scope = scope
        self.stale_seconds = runtime.settings.judge_claim_stale_seconds
        # One holder per job: a refresh or release only ever touches this job's own claims.
        self.holder = "job_" + secrets.token_hex(12)

    async def acquire(self, key: str) -> tuple[bool, dict[str, Any] | None]:
        return await asyncio.to_thread(self._acquire, key)

    async def refresh(self, key: str) -> None:
        await asyncio.to_thread(self._in_transaction, "refresh_claim", key)

    async def release(self, key: str) -> None:
        await asyncio.to_thread(self._in_transaction, "release_claim", key)

    async def settle(self, key: str, answer: dict[str, Any]) -> dict[str, Any]:
        return await asyncio.to_thread(self._settle, key, answer)

    def _acquire(self, key: str) -> tuple[bool, dict[str, Any] | None]:
        stale_before = utcnow() - timedelta(seconds=self.stale_seconds)
        with self.runtime.session() as session:
            repo = JudgeCacheRepository(session)
            mine = repo.claim(self.scope, key, self.holder, stale_before)
            # Read after claiming: an answer its holder stored while we claimed is seen here.
            stored = repo.get_many(self.scope, [key]).get(key)
            if mine and stored is not None:
                repo.release_claim(self.scope, key, self.holder)
            session.commit()
        return mine and stored is None, stored

    def _settle(self, key: str, answer: dict[str, Any]) -> dict[str, Any]:
        row = {
            "scope": self.scope,
            "key": key,
            "content": answer["content"] or "",
            "logprobs": answer.get("logprobs"),
            "created_at": utcnow(),
        }
        with self.runtime.session() as session:
            repo = JudgeCacheRepository(session)
            repo.put_many([row])
            repo.release_claim(self.scope, key, self.holder)
            stored = repo.get_many(self.scope, [key]).get(key)
            session.commit()
        return stored or answer

    def _in_transaction(self, operation: str, key: str) -> None:
        with self.runtime.session() as session:
            getattr(JudgeCacheRepository(session), operation)(self.scope, key, self.holder)
            session.commit()
