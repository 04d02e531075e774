"""How a job scores the items it took: each (test case, metric) measured by a few workers on
the judge loop, results buffered and written in batches, stopping on a cancel, a delete, or a
turn given to another tenant's job.

`score` runs a `SliceJob`'s items; `_Scoring` holds the state its workers share while they run.
"""

import asyncio
import contextlib
import dataclasses
import logging
import time
from dataclasses import dataclass
from typing import Any, Literal

import sqlalchemy.exc

from app.db import utcnow
from app.db_outage import (
    DATABASE_PATIENCE_SECONDS,
    DATABASE_RETRY_CAP_SECONDS,
    DATABASE_RETRY_FIRST_SECONDS,
    database_away,
    unreachable,
)
from app.dispatch import Turn
from app.evaluations import judging, lifecycle
from app.evaluations.judge_cache import DatabaseJudgeCache, DatabaseSharedAnswers
from app.evaluations.kinds import Kind, Predictor
from app.evaluations.metric_judges import MetricJudge
from app.evaluations.resampling import Member, measure_repeated
from app.evaluations.result_rows import Canceled, canceled_rows, result_row, shown_media
from app.evaluations.schemas import TERMINAL_STATUSES
from app.judges import get_client
from app.metrics import (
    MetricContext,
    MetricError,
    MetricResult,
    MetricTestCase,
    canceled_calls,
    measure,
    watching,
)
from app.runtime import Runtime
from app.unscoped.evaluation_jobs import UnscopedJobRepository
from app.unscoped.judge_cache import UnscopedJudgeCacheRepository
from app.usage.service import Budget

logger = logging.getLogger("loupe.jobs")

# How a job's scoring ended: everything taken was scored (or it was canceled), it gave its
# worker to another tenant's job with items left, or its evaluation was deleted under it.
Outcome = Literal["scored", "gave_way", "deleted"]


@dataclass
class SliceJob:
    """What one job scores and with what: the context its scoring runs in."""

    runtime: Runtime
    evaluation_id: str
    specs: list[Any]
    # (case, metric index) pairs not stored yet, in the order they are taken.
    todo: list[tuple[MetricTestCase, int]]
    judges: dict[int, MetricJudge]
    cache: DatabaseJudgeCache
    # Per case index, its image log entries.
    media: dict[int, list[dict[str, Any]]] | None = None
    # A run's candidate model, answering each sample before it is scored.
    predictor: Predictor | None = None
    kind: Kind | None = None
    several_jobs: bool = True
    ref: lifecycle.EvaluationRef | None = None
    budget: Budget | None = None
    turn: Turn | None = None


async def score(job: SliceJob) -> Outcome:
    """Score the job's items until done, canceled or deleted, or until it gives its worker up."""
    # Made on the judge loop: the judge clients and shared answers belong to it.
    return await _Scoring(job).run()


class _Scoring:
    """A job's scoring: its workers, the rows they buffer, the writer, turn keeper and stops."""

    def __init__(self, job: SliceJob) -> None:
        self.job = job
        self.settings = job.runtime.settings
        # Steps and truths are made once for all of the evaluation's jobs, not once per job.
        # A job scoring the whole evaluation has no one to share with: its in-job sharing and
        # the cache suffice, without a claim per retrieval context.
        self.shared_answers = (
            DatabaseSharedAnswers(job.runtime, job.cache.scope) if job.several_jobs else None
        )
        self.contexts: dict[Any, MetricContext] = {}
        self.metric_contexts = {index: self._context_for(index) for index in range(len(job.specs))}
        self.pending = iter(job.todo)
        self.buffer: list[dict[str, Any]] = []
        # Items a cancel stopped mid-way, with their calls: counted once shared calls stop.
        self.canceled: list[Canceled] = []
        self.stop = asyncio.Event()
        self.deleted = asyncio.Event()
        self.writes: set[asyncio.Task[None]] = set()
        # Cases whose candidate call a stored result of this job already counts.
        self.charged: set[int] = set()
        # Set when the job gives its worker to another tenant's waiting job: items not yet
        # taken are left for the continuation; those in flight finish and are stored.
        self.giving_way = asyncio.Event()
        self.taken = 0
        self.scored = asyncio.Event()
        # Another job stored every result first (a slice enqueued twice): take no more items,
        # but let calls in flight be answered and counted (billed; a cancel drops them).
        self.finished = asyncio.Event()

    def _context_for(self, index: int) -> MetricContext:
        judge = self.job.judges.get(index) or MetricJudge(None, None, None, None, None)
        return self._context_of(judge)

    def _members(self, index: int) -> list[Member]:
        """The judges a metric judged more than once calls: its panel's, or its one judge."""
        judge = self.job.judges.get(index) or MetricJudge(None, None, None, None, None)
        return [
            Member(self._context_of(each), each.model, each.model_id, each.host, each.weight)
            for each in (judge.members or (judge,))
        ]

    def _context_of(self, judge: MetricJudge) -> MetricContext:
        # Metrics on one judge share a context (its in-job shared answers).
        key = (judge.endpoint, judge.model, judge.model_id, judge.missing)
        ctx = self.contexts.get(key)
        if ctx is None:
            ctx = self.contexts[key] = MetricContext(
                evaluation_id=self.job.evaluation_id,
                judge_model=judge.model,
                judge=get_client(judge.endpoint) if judge.endpoint is not None else None,
                judge_model_id=judge.model_id,
                judge_host=judge.host,
                judge_missing=judge.missing,
                cache=self.job.cache,
                shared_answers=self.shared_answers,
                embedding_model=self.settings.embedding_model,
                window_chars=self.settings.max_window_chars,
            )
        return ctx

    def _write(self, rows: list[dict[str, Any]], cache_rows: list[dict[str, Any]]) -> str | None:
        """The evaluation's status once the rows are stored; None if it was deleted."""
        job, evaluation_id = self.job, self.job.evaluation_id
        with job.runtime.session() as session:
            repo = UnscopedJobRepository(session)
            # Before any row that references it: once deleted, nothing of it is stored (a
            # result would break the foreign key), and a delete waits for this write.
            if not repo.hold(evaluation_id):
                session.rollback()
                return None
            # Cache entries and a run's predictions go in with the results that used them.
            UnscopedJudgeCacheRepository(session).put_many(cache_rows)
            if job.predictor is not None:
                repo.store_predictions(evaluation_id, job.predictor.take_predictions())
            # Every result records its metric's version here, the one place results are written.
            for row in rows:
                judge = job.judges.get(row["metric_index"])
                row["metric_version"] = judge.version if judge is not None else None
            # Only rows this write stored are results: a retried job's duplicates are not inserted.
            inserted = repo.insert_results(rows)
            if inserted:
                repo.made_progress(evaluation_id)
            repo.add_to_summaries(evaluation_id, inserted)
            repo.add_to_usage(evaluation_id, inserted)
            # Rows another job stored first (a slice run twice at once): called all the same.
            repo.add_dropped_usage(evaluation_id, rows, inserted)
            if job.kind is not None:
                # A kind's own sums (a run's report) move with the results they count.
                job.kind.tally(session, evaluation_id, inserted)
            if job.budget is not None:
                job.budget.refresh(session, utcnow())
            evaluation = repo.get(evaluation_id)
            if evaluation is None or evaluation.status in TERMINAL_STATUSES:
                # Canceled (or failed) while these were scored: read after the hold, which
                # waits for the cancel's row lock (SQLite: one writer), so nothing is stored
                # after the cancel answered.
                status = evaluation.status if evaluation else None
                session.rollback()
                # Canceled, or finished by another job: the calls were billed all the same.
                if status is not None and repo.add_dropped_usage(evaluation_id, rows):
                    session.commit()
                return status
            session.commit()
        if job.ref is not None:
            lifecycle.results_stored(job.ref, inserted)
        return evaluation.status if evaluation else None

    def _count_dropped(self, dropped: list[dict[str, Any]]) -> None:
        with self.job.runtime.session() as session:
            repo = UnscopedJobRepository(session)
            evaluation = repo.get(self.job.evaluation_id)
            canceled = evaluation is not None and evaluation.status == "canceled"
            if canceled and repo.add_dropped_usage(self.job.evaluation_id, dropped):
                session.commit()

    async def _write_now(self, rows: list[dict[str, Any]]) -> None:
        status = await self._stored(rows, self.job.cache.take_rows())
        if status is None:
            self.deleted.set()
        if status == "completed":
            self.finished.set()
        elif status is None or status in TERMINAL_STATUSES:
            # Canceled, deleted (or failed by the sweeper) while we ran: stop spending calls.
            self.stop.set()

    async def _stored(
        self, rows: list[dict[str, Any]], cache_rows: list[dict[str, Any]]
    ) -> str | None:
        """`_write`, tried again while the database is away (a restart, a failover): the
        rows' judge calls were made and billed; failing the job would make them again. A
        write is safe to repeat: results already stored are not inserted (nor counted) twice."""
        deadline = time.monotonic() + DATABASE_PATIENCE_SECONDS
        delay = DATABASE_RETRY_FIRST_SECONDS
        while True:
            try:
                return await asyncio.to_thread(self._write, rows, cache_rows)
            except sqlalchemy.exc.SQLAlchemyError as error:
                if not unreachable(error) or time.monotonic() + delay > deadline:
                    raise
                database_away("store", error)
            await asyncio.sleep(delay)
            delay = min(delay * 2, DATABASE_RETRY_CAP_SECONDS)

    async def _flush(self) -> None:
        rows, self.buffer = self.buffer, []
        # Shielded: a worker stopped mid-flush must not leave a write's thread running after
        # the job has counted its results.
        task = asyncio.ensure_future(self._write_now(rows))
        self.writes.add(task)
        task.add_done_callback(self.writes.discard)
        await asyncio.shield(task)

    async def _judged(self, spec: Any, case: MetricTestCase, index: int) -> MetricResult:
        """The metric's result: one measure, or a judge's samples and a panel's judgments."""
        choice = getattr(spec, "judge", None)
        if choice is None or not choice.repeated:
            ctx = self.metric_contexts[index]
            if choice is not None and choice.temperature is not None:
                ctx = dataclasses.replace(ctx, sampling={"temperature": choice.temperature})
            return await measure(spec, case, ctx)
        return await measure_repeated(
            spec,
            case,
            self._members(index),
            samples=choice.samples,
            aggregate=choice.aggregate,
            panel=bool(choice.panel),
            temperature=choice.temperature,
        )

    async def _measure(self, case: MetricTestCase, index: int) -> dict[str, Any]:
        """The result row of one item: the candidate answers first in a run, then the metric."""
        job, spec = self.job, self.job.specs[index]
        predictor = job.predictor
        case_media = job.media.get(case.index) if job.media else None
        with watching() as seen, canceled_calls() as spent:
            try:
                judged, result, candidate = await self._answered(case, index)
            except asyncio.CancelledError:
                # Canceled: what the judge answered meanwhile is counted, if no result is.
                self.canceled.append((case, index, spent))
                raise
        return result_row(
            job.evaluation_id,
            judged,
            index,
            spec,
            result,
            shown_media(case_media, seen),
            prices=self.settings.model_prices,
            judge_model=job.judges[index].model if index in job.judges else None,
            candidate=candidate,
            candidate_model=predictor.model_name if predictor is not None else None,
        )

    async def _answered(
        self, case: MetricTestCase, index: int
    ) -> tuple[MetricTestCase, MetricResult, Any]:
        """The item's case as judged, its result, and the candidate's usage this result is the
        first to count: in a run the candidate model answers first (once per sample)."""
        job, spec = self.job, self.job.specs[index]
        predictor, candidate = job.predictor, None
        if predictor is None:
            return case, await self._judged(spec, case, index), None
        case, failure = await predictor.predict(case)
        if failure is not None:
            result = MetricResult.failure(spec.threshold, failure)
        else:
            result = await self._judged(spec, case, index)
        result.logs.update(predictor.logs(case.index))
        if case.index not in self.charged:
            self.charged.add(case.index)
            candidate = predictor.usage(case.index)
        return case, result, candidate

    async def _worker(self) -> None:
        job = self.job
        budget = job.budget or Budget(job.evaluation_id, None)  # a job of no tenant's: no limit
        while not any(event.is_set() for event in (self.stop, self.giving_way, self.finished)):
            item = next(self.pending, None)
            if item is None:
                return
            case, index = item
            self.taken += 1
            spec = job.specs[index]
            paid = judging.is_judged(spec) or job.predictor is not None
            reserved = await budget.admit(index) if paid else budget.reserve(index)
            if reserved is None:
                # Past the tenant's daily budget: no more paid calls; the result says why.
                result = MetricResult.failure(
                    spec.threshold, MetricError("budget_exceeded", budget.message())
                )
                self.buffer.append(result_row(job.evaluation_id, case, index, spec, result))
                if len(self.buffer) >= self.settings.result_batch_size:
                    await self._flush()
                continue
            try:
                # Measured before the buffer is read: a flush during the await swaps it.
                row = await self._measure(case, index)
            except BaseException:
                budget.release(reserved)
                raise
            self.buffer.append(row)
            budget.settle(index, reserved, row["judge_cost_usd"], row["candidate_cost_usd"])
            if len(self.buffer) >= self.settings.result_batch_size:
                await self._flush()

    async def _flusher(self) -> None:
        # Periodic writes make progress visible and keep the heartbeat fresh on slow judges.
        while not self.scored.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.scored.wait(), self.settings.result_flush_seconds)
            await self._flush()

    async def _turns(self) -> None:
        # Asks the dispatcher twice a second whether another tenant's job should have the worker.
        turn = self.job.turn
        while turn is not None and not self.scored.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.scored.wait(), 0.5)
            if self.scored.is_set():
                return
            try:
                if await asyncio.to_thread(turn.should_give_way):
                    self.giving_way.set()
                    return
            except Exception:  # noqa: BLE001 - a Redis blip only delays fairness
                logger.warning(
                    "could not check the turn of %s", self.job.evaluation_id, exc_info=True
                )

    async def _stopper(self, workers: list[asyncio.Task[None]]) -> None:
        # After a cancel, computations in flight are dropped, not awaited: a judge may take
        # minutes to answer, and their results would not be stored anyway.
        await self.stop.wait()
        for task in workers:
            task.cancel()

    async def run(self) -> Outcome:
        periodic = asyncio.create_task(self._flusher())
        turn_keeper = asyncio.create_task(self._turns())
        # No more computations than items: a small job does not start thousands of tasks.
        count = min(self.settings.worker_concurrency, len(self.job.todo))
        workers = [asyncio.create_task(self._worker()) for _ in range(count)]
        stopping = asyncio.create_task(self._stopper(workers))
        try:
            outcomes = await asyncio.gather(*workers, return_exceptions=True)
            for outcome in outcomes:
                if isinstance(outcome, BaseException) and not isinstance(
                    outcome, asyncio.CancelledError
                ):
                    raise outcome
        finally:
            stopping.cancel()
            # Calls items share (steps, truths, a sample's answer) are tasks: none outlives the job.
            sharers = [*self.contexts.values(), *filter(None, [self.job.predictor])]
            await asyncio.gather(*(sharer.drop_pending() for sharer in sharers))
            dropped = canceled_rows(self.job, self.canceled, self.charged, self.settings)
            # Never cancel a write in flight: its thread would commit after we counted results.
            self.scored.set()
            await periodic
            await turn_keeper
            for task in list(self.writes):
                await task
            # Rows finished while the last periodic write was running are still buffered.
            if self.buffer:
                await self._flush()
            if dropped:
                await asyncio.to_thread(self._count_dropped, dropped)
        if self.deleted.is_set():
            return "deleted"
        if self.giving_way.is_set() and self.taken < len(self.job.todo) and not self.stop.is_set():
            return "gave_way"
        return "scored"
