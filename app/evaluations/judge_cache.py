"""The judge cache in the database, as the judge client's JudgeCache and SharedAnswers."""

import asyncio
import secrets
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from app.db import utcnow
from app.runtime import Runtime
from app.unscoped.judge_cache import UnscopedJudgeCacheRepository


class _Batched:
    """Calls answered by one call (in a thread) for every key asked meanwhile.

    `run` gets {key: value} of the batch and returns {key: answer}; a key not in the answer gets
    None. One batch runs at a time: keys asked while it runs wait for the next, so a busy job
    makes fewer, larger database round trips and an idle one makes them at once. Every caller
    of a failed batch gets its exception.
    """

    def __init__(self, run: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
        self._run = run
        self._waiting: dict[str, tuple[Any, asyncio.Future[Any]]] = {}
        self._running = False

    async def __call__(self, key: str, value: Any = None) -> Any:
        loop = asyncio.get_running_loop()
        waiting = self._waiting.get(key)
        if waiting is None:
            if not self._waiting and not self._running:
                # Let the other coroutines of this loop turn add their keys first.
                self._running = True
                loop.call_soon(lambda: asyncio.ensure_future(self._flush()))
            waiting = self._waiting[key] = (value, loop.create_future())
        return await waiting[1]

    async def _flush(self) -> None:
        try:
            while self._waiting:
                batch, self._waiting = self._waiting, {}
                try:
                    answers = await asyncio.to_thread(
                        self._run, {key: value for key, (value, _) in batch.items()}
                    )
                except Exception as error:  # noqa: BLE001 - every waiter learns of the failure
                    for _, future in batch.values():
                        if not future.done():  # its waiter may have been cancelled
                            future.set_exception(error)
                    continue
                for key, (_, future) in batch.items():
                    if not future.done():
                        future.set_result(answers.get(key))
        finally:
            self._running = False


class DatabaseJudgeCache:
    """Lookups are batched: every key asked for in one turn of the event loop goes to the
    database in one query. Writes are buffered and stored with each batch of results."""

    def __init__(self, runtime: Runtime, scope: str) -> None:
        self.runtime = runtime
        self.scope = scope
        self._pending: dict[str, dict[str, Any]] = {}
        self._lookup = _Batched(self._read)

    def _read(self, keys: dict[str, Any]) -> dict[str, dict[str, Any]]:
        with self.runtime.session() as session:
            return UnscopedJudgeCacheRepository(session).get_many(self.scope, list(keys))

    async def get(self, key: str) -> dict[str, Any] | None:
        if key in self._pending:
            return self._pending[key]
        return await self._lookup(key)

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
        # Claims and answers of one loop turn go to the database in one transaction each.
        self._acquire = _Batched(self._acquire_many)
        self._settle = _Batched(self._settle_many)

    async def acquire(self, key: str) -> tuple[bool, dict[str, Any] | None]:
        return await self._acquire(key)

    async def refresh(self, key: str) -> None:
        await asyncio.to_thread(self._refresh_claim, key)

    async def release(self, key: str) -> None:
        await asyncio.to_thread(self._release_claim, key)

    async def settle(self, key: str, answer: dict[str, Any]) -> dict[str, Any]:
        return await self._settle(key, answer) or answer

    def _acquire_many(self, keys: dict[str, Any]) -> dict[str, tuple[bool, Any]]:
        stale_before = utcnow() - timedelta(seconds=self.stale_seconds)
        with self.runtime.session() as session:
            repo = UnscopedJudgeCacheRepository(session)
            mine = repo.claim_many(self.scope, list(keys), self.holder, stale_before)
            # Read after claiming: an answer its holder stored while we claimed is seen here.
            stored = repo.get_many(self.scope, list(keys))
            answered = [key for key in mine if key in stored]
            if answered:
                repo.release_claims(self.scope, answered, self.holder)
            session.commit()
        return {key: (key in mine and key not in stored, stored.get(key)) for key in keys}

    def _settle_many(self, answers: dict[str, Any]) -> dict[str, dict[str, Any]]:
        now = utcnow()
        rows = [
            {
                "scope": self.scope,
                "key": key,
                "content": answer["content"] or "",
                "logprobs": answer.get("logprobs"),
                "created_at": now,
            }
            for key, answer in answers.items()
        ]
        with self.runtime.session() as session:
            repo = UnscopedJudgeCacheRepository(session)
            repo.put_many(rows)
            repo.release_claims(self.scope, list(answers), self.holder)
            # Another job's answer, should its claim have outlived ours, is the one stored.
            stored = repo.get_many(self.scope, list(answers))
            session.commit()
        return stored

    def _refresh_claim(self, key: str) -> None:
        with self.runtime.session() as session:
            UnscopedJudgeCacheRepository(session).refresh_claim(self.scope, key, self.holder)
            session.commit()

    def _release_claim(self, key: str) -> None:
        with self.runtime.session() as session:
            UnscopedJudgeCacheRepository(session).release_claims(self.scope, [key], self.holder)
            session.commit()
