"""What evaluation jobs do: score a slice of test cases, finish the evaluation, sweep."""

import asyncio
import contextlib
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy.orm import Session

from app.config import ModelPrice, Settings
from app.db import utcnow
from app.dispatch import Turn
from app.evaluations import judging, lifecycle, lifecycle_service, service
from app.evaluations.heartbeat import beating
from app.evaluations.judge_cache import DatabaseJudgeCache, DatabaseSharedAnswers
from app.evaluations.kinds import Kind, Predictor, kind_of
from app.evaluations.schemas import TERMINAL_STATUSES
from app.ids import new_id
from app.judges import JudgeEndpoint, JudgeUsage, endpoint_host, get_client, run_on_judge_loop
from app.media.resolve import CaseImages
from app.media.store import DatabaseBlobStore
from app.metrics import (
    MetricContext,
    MetricError,
    MetricResult,
    MetricTestCase,
    measure,
    parse_spec,
    watching,
)
from app.models import Tenant, TestCase
from app.runtime import Runtime
from app.unscoped.evaluation_jobs import UnscopedJobRepository
from app.unscoped.judge_cache import UnscopedJudgeCacheRepository
from app.usage.pricing import cost_usd
from app.usage.service import Budget

logger = logging.getLogger("loupe.jobs")

# How a job's scoring ended: everything taken was scored (or it was canceled), it gave its
# worker to another tenant's job with items left, or its evaluation was deleted under it.
Outcome = Literal["scored", "gave_way", "deleted"]


def _metric_case(row: TestCase, images: CaseImages, contexts_elsewhere: set[str]) -> MetricTestCase:
    """The row as metrics see it, blob references as data URLs.

    `contexts_elsewhere`: the retrieval-context hashes that other jobs score too.
    """
    content, nodes = images.content, images.nodes
    return MetricTestCase(
        index=row.index,
        id=row.client_id,
        input=content(row.input, "input"),
        actual_output=content(row.actual_output, "actual_output"),
        expected_output=content(row.expected_output, "expected_output"),
        context=nodes(row.context, "context"),
        retrieval_context=nodes(row.retrieval_context, "retrieval_context"),
        metadata=row.metadata_,
        # Rows stored without a hash (before the column existed) are assumed shared.
        context_shared=row.context_hash is None or row.context_hash in contexts_elsewhere,
    )


def _shown(media: list[dict[str, Any]] | None, seen: set[str]) -> list[dict[str, Any]]:
    """The case's image log entries for the images this metric was shown, in case order: by
    place (`field:actual_output[1]`), or by digest for an image shown without one."""
    return [
        entry
        for entry in media or []
        if f"field:{entry.get('field')}" in seen or entry.get("sha256") in seen
    ]


def _result_row(
    evaluation_id: str,
    case: MetricTestCase,
    metric_index: int,
    spec: Any,
    result: MetricResult,
    media: list[dict[str, Any]] | None = None,
    *,
    prices: Mapping[str, ModelPrice] | None = None,
    judge_model: str | None = None,
    candidate: JudgeUsage | None = None,
    candidate_model: str | None = None,
) -> dict[str, Any]:
    usage = result.usage
    prices = prices or {}
    spent = candidate or JudgeUsage()
    return {
        "id": new_id("res"),
        "evaluation_id": evaluation_id,
        "test_case_index": case.index,
        "test_case_id": case.id,
        "metric_index": metric_index,
        "metric": spec.display_name,
        "type": spec.type,
        "score": result.score,
        "passed": result.passed,
        "threshold": result.threshold,
        "reason": result.reason,
        "error": result.error.as_dict() if result.error else None,
        "judge_calls": result.usage.calls,
        "judge_failed_calls": result.usage.failed_calls,
        "prompt_tokens": result.usage.prompt_tokens,
        "completion_tokens": result.usage.completion_tokens,
        "judge_cost_usd": cost_usd(
            prices,
            judge_model,
            calls=usage.calls,
            prompt_tokens=usage.prompt_tokens,
            completion_tokens=usage.completion_tokens,
            cached_prompt_tokens=usage.cached_prompt_tokens,
        ),
        # A judge that only failed is still the model the result's requests went to.
        "judge_model": judge_model if usage.calls or usage.failed_calls else None,
        "candidate_model": candidate_model if spent.calls else None,
        "candidate_calls": spent.calls,
        "candidate_failed_calls": spent.failed_calls,
        "candidate_prompt_tokens": spent.prompt_tokens,
        "candidate_completion_tokens": spent.completion_tokens,
        "candidate_cost_usd": cost_usd(
            prices,
            candidate_model,
            calls=spent.calls,
            prompt_tokens=spent.prompt_tokens,
            completion_tokens=spent.completion_tokens,
            cached_prompt_tokens=spent.cached_prompt_tokens,
        ),
        # Each image's original and sent sizes, next to whatever the metric logged.
        "logs": {**result.logs, "media": media} if media else result.logs,
        "created_at": utcnow(),
    }


def score_slice(runtime: Runtime, evaluation_id: str, start: int, stop: int, turn: int = 0) -> None:
    """Score test cases [start, stop) of an evaluation, skipping results already stored.

    `turn` counts the times the slice gave its worker to another tenant's job and was queued
    again (fair sharing); each time, the rest of the slice waits in line as a new job.
    """
    with runtime.session() as session:
        evaluation = UnscopedJobRepository(session).get(evaluation_id)
        if evaluation is None or evaluation.status in TERMINAL_STATUSES:
            return
        tenant_id = evaluation.tenant_id
    # The job's lease covers loading too: a worker killed at any point leaves a lapsed lease
    # that the sweep re-enqueues the slice from (`resume_lapsed`).
    job_id = service.slice_job_id(evaluation_id, start, turn)
    with runtime.dispatcher.running(job_id, tenant_id) as job_turn:
        outcome = _score_slice(runtime, evaluation_id, start, stop, job_turn)
    if outcome == "gave_way":
        # After the lease is dropped, so the continuation's place counts this job as done.
        service.dispatch_slice(runtime, evaluation_id, tenant_id, start, stop, turn + 1)
    elif outcome == "scored":
        finish_if_complete(runtime, evaluation_id)


def _score_slice(
    runtime: Runtime, evaluation_id: str, start: int, stop: int, turn: Turn
) -> Outcome:
    """Load the slice and score what is not stored."""
    with runtime.session() as session:
        repo = UnscopedJobRepository(session)
        evaluation = repo.get(evaluation_id)
        if evaluation is None or evaluation.status in TERMINAL_STATUSES:
            return "scored"
        starting = repo.mark_started(evaluation_id)
        ref = lifecycle.EvaluationRef.of(evaluation)
        specs = [parse_spec(raw) for raw in evaluation.metrics]
        rows = repo.test_cases(evaluation_id, start, stop)
        images = CaseImages(DatabaseBlobStore(session), rows)
        total = evaluation.total_test_cases
        several_jobs = start > 0 or stop < total
        # Truths of a retrieval context no other job scores need no claim across jobs.
        elsewhere = (
            repo.contexts_scored_elsewhere(
                evaluation_id, {row.context_hash for row in rows if row.context_hash}, start, stop
            )
            if several_jobs
            else set()
        )
        cases = [_metric_case(row, images, elsewhere) for row in rows]
        media = {row.index: images.media(row) for row in rows}
        stored = repo.stored_result_keys(evaluation_id, start, stop)
        judges = _metric_judges(session, runtime.settings, evaluation, specs)
        cache_scope = evaluation.tenant_id if evaluation.use_cache else f"eval:{evaluation_id}"
        kind = kind_of(evaluation)
        predictor = kind.predictor(session, runtime.settings, evaluation, rows, images)
        tenant = session.get(Tenant, evaluation.tenant_id)
        budget = Budget(evaluation.tenant_id, tenant.daily_usd if tenant else None)
        budget.refresh(session, utcnow())
        session.commit()
    if starting:
        lifecycle.started(ref)
    todo = [
        (case, index)
        for case in cases
        for index in range(len(specs))
        if (case.index, index) not in stored
    ]
    if not todo:
        return "scored"
    cache = DatabaseJudgeCache(runtime, cache_scope)
    with beating(runtime, evaluation_id):
        outcome = run_on_judge_loop(
            _score(
                runtime,
                evaluation_id,
                specs,
                todo,
                judges,
                cache,
                media,
                predictor,
                kind,
                several_jobs=several_jobs,
                ref=ref,
                budget=budget,
                turn=turn,
            )
        )
    if outcome == "gave_way":
        lifecycle.gave_way(ref)
    elif outcome == "deleted":
        # Not an error: the user deleted it. Nothing is retried or re-enqueued.
        lifecycle.deleted_while_running(ref)
    return outcome


def judge_endpoint(settings: Settings) -> JudgeEndpoint:
    """The operator's judge endpoint (one per process; jobs share its client)."""
    return judging.operator_endpoint(settings)


@dataclass(frozen=True)
class _MetricJudge:
    """The judge one metric of a job calls, as recorded at submit."""

    endpoint: JudgeEndpoint | None
    missing: str | None
    model: str | None
    model_id: str | None
    host: str | None


def _metric_judges(
    session: Session, settings: Settings, evaluation: Any, specs: list[Any]
) -> dict[int, _MetricJudge]:
    """Per metric index, the judge its record names (read in the job's session)."""
    record = evaluation.judge or {}
    recorded = record.get("metrics")
    judges: dict[int, _MetricJudge] = {}
    for index in range(len(specs)):
        if recorded is not None:
            # Metrics that are not judged (embeddings, say) use the server's endpoint.
            chosen = recorded.get(str(index)) or {"model": None, "model_id": None}
        else:
            # Stored before judges were resolved at submit: the server's judge, as then.
            chosen = {"model": record.get("model") or settings.judge_model, "model_id": None}
            if judging.operator_configured(settings):
                base_url, _ = settings.judge_endpoint_values()
                chosen["host"] = endpoint_host(base_url)
        try:
            endpoint, missing = judging.endpoint_for(
                session, evaluation.tenant_id, settings, chosen
            )
        except Exception as exc:  # noqa: BLE001 - a key this process cannot decrypt, a
            # refused address: every call of the metric fails with the reason, not the job.
            endpoint, missing = None, f"the judge cannot be called: {exc}"
        judges[index] = _MetricJudge(
            endpoint, missing, chosen.get("model"), chosen.get("model_id"), chosen.get("host")
        )
    return judges


async def _score(
    runtime: Runtime,
    evaluation_id: str,
    specs: list[Any],
    todo: list[tuple[MetricTestCase, int]],
    judges: dict[int, _MetricJudge],
    cache: DatabaseJudgeCache,
    media: dict[int, list[dict[str, Any]]] | None = None,
    predictor: Predictor | None = None,
    kind: Kind | None = None,
    several_jobs: bool = True,
    ref: lifecycle.EvaluationRef | None = None,
    budget: Budget | None = None,
    turn: Turn | None = None,
) -> Outcome:
    """Score `todo` until done, canceled, deleted, or the job gives its worker up (fair
    sharing) with items left."""
    settings = runtime.settings
    # Steps and truths are made once for all of the evaluation's jobs, not once per job.
    # A job scoring the whole evaluation has no one to share with: its in-job sharing and
    # the cache suffice, without a claim per retrieval context.
    shared_answers = DatabaseSharedAnswers(runtime, cache.scope) if several_jobs else None
    contexts: dict[Any, MetricContext] = {}

    def context_for(index: int) -> MetricContext:
        # Metrics on one judge share a context (its in-job shared answers).
        judge = judges.get(index) or _MetricJudge(None, None, None, None, None)
        key = (judge.endpoint, judge.model, judge.model_id, judge.missing)
        ctx = contexts.get(key)
        if ctx is None:
            ctx = contexts[key] = MetricContext(
                evaluation_id=evaluation_id,
                judge_model=judge.model,
                judge=get_client(judge.endpoint) if judge.endpoint is not None else None,
                judge_model_id=judge.model_id,
                judge_host=judge.host,
                judge_missing=judge.missing,
                cache=cache,
                shared_answers=shared_answers,
                embedding_model=settings.embedding_model,
            )
        return ctx

    metric_contexts = {index: context_for(index) for index in range(len(specs))}
    pending = iter(todo)
    buffer: list[dict[str, Any]] = []
    stop = asyncio.Event()
    deleted = asyncio.Event()

    def write(rows: list[dict[str, Any]], cache_rows: list[dict[str, Any]]) -> str | None:
        """The evaluation's status once the rows are stored; None if it was deleted."""
        with runtime.session() as session:
            repo = UnscopedJobRepository(session)
            # Before any row that references it: once deleted, nothing of it is stored (a
            # result would break the foreign key), and a delete waits for this write.
            if not repo.hold(evaluation_id):
                session.rollback()
                return None
            # Cache entries and a run's predictions go in with the results that used them.
            UnscopedJudgeCacheRepository(session).put_many(cache_rows)
            if predictor is not None:
                repo.store_predictions(evaluation_id, predictor.take_predictions())
            # Only rows this write stored count: a retried job's duplicates are not inserted.
            inserted = repo.insert_results(rows)
            repo.add_to_summaries(evaluation_id, inserted)
            if kind is not None:
                # A kind's own sums (a run's report) move with the results they count.
                kind.tally(session, evaluation_id, inserted)
            if budget is not None:
                budget.refresh(session, utcnow())
            evaluation = repo.get(evaluation_id)
            if evaluation is None or evaluation.status in TERMINAL_STATUSES:
                # Canceled (or failed) while these were scored: read after the hold, which
                # waits for the cancel's row lock (SQLite: one writer), so nothing is stored
                # after the cancel answered.
                session.rollback()
                return evaluation.status if evaluation else None
            session.commit()
        if ref is not None:
            lifecycle.results_stored(ref, inserted)
        return evaluation.status if evaluation else None

    writes: set[asyncio.Task[None]] = set()

    async def write_now(rows: list[dict[str, Any]]) -> None:
        status = await asyncio.to_thread(write, rows, cache.take_rows())
        if status is None:
            deleted.set()
        if status is None or status in TERMINAL_STATUSES:
            # Canceled, deleted (or failed by the sweeper) while we ran: stop spending calls.
            stop.set()

    async def flush() -> None:
        nonlocal buffer
        rows, buffer = buffer, []
        # Shielded: a worker stopped mid-flush must not leave a write's thread running after
        # the job has counted its results.
        task = asyncio.ensure_future(write_now(rows))
        writes.add(task)
        task.add_done_callback(writes.discard)
        await asyncio.shield(task)

    # Cases whose candidate call a stored result of this job already counts.
    charged: set[int] = set()

    # Set when the job gives its worker to another tenant's waiting job: items not yet taken
    # are left for the continuation; those in flight finish and are stored.
    giving_way = asyncio.Event()
    taken = 0

    async def worker() -> None:
        nonlocal taken
        while not stop.is_set() and not giving_way.is_set():
            item = next(pending, None)
            if item is None:
                return
            case, index = item
            taken += 1
            spec = specs[index]
            case_media = media.get(case.index) if media else None
            candidate = None
            if (
                budget is not None
                and budget.exhausted()
                and (judging.is_judged(spec) or predictor is not None)
            ):
                # Past the tenant's daily budget: no more paid calls; the result says why.
                result = MetricResult.failure(
                    spec.threshold, MetricError("budget_exceeded", budget.message())
                )
                buffer.append(_result_row(evaluation_id, case, index, spec, result))
                if len(buffer) >= settings.result_batch_size:
                    await flush()
                continue
            with watching() as seen:
                if predictor is not None:
                    # A run's sample: the candidate model answers first (once per sample).
                    case, failure = await predictor.predict(case)
                    if failure is not None:
                        result = MetricResult.failure(spec.threshold, failure)
                    else:
                        result = await measure(spec, case, metric_contexts[index])
                    result.logs.update(predictor.logs(case.index))
                    if case.index not in charged:
                        charged.add(case.index)
                        candidate = predictor.usage(case.index)
                else:
                    result = await measure(spec, case, metric_contexts[index])
            buffer.append(
                _result_row(
                    evaluation_id,
                    case,
                    index,
                    spec,
                    result,
                    _shown(case_media, seen),
                    prices=settings.model_prices,
                    judge_model=judges[index].model if index in judges else None,
                    candidate=candidate,
                    candidate_model=predictor.model_name if predictor is not None else None,
                )
            )
            if budget is not None:
                budget.charge(buffer[-1]["judge_cost_usd"], buffer[-1]["candidate_cost_usd"])
            if len(buffer) >= settings.result_batch_size:
                await flush()

    scored = asyncio.Event()

    async def flusher() -> None:
        # Periodic writes make progress visible and keep the heartbeat fresh on slow judges.
        while not scored.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(scored.wait(), settings.result_flush_seconds)
            await flush()

    async def turns() -> None:
        # Asks the dispatcher twice a second whether another tenant's job should have the worker.
        while turn is not None and not scored.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(scored.wait(), 0.5)
            if scored.is_set():
                return
            try:
                if await asyncio.to_thread(turn.should_give_way):
                    giving_way.set()
                    return
            except Exception:  # noqa: BLE001 - a Redis blip only delays fairness
                logger.warning("could not check the turn of %s", evaluation_id, exc_info=True)

    periodic = asyncio.create_task(flusher())
    turn_keeper = asyncio.create_task(turns())
    workers = [asyncio.create_task(worker()) for _ in range(settings.worker_concurrency)]

    async def stopper() -> None:
        # After a cancel, computations in flight are dropped, not awaited: a judge may take
        # minutes to answer, and their results would not be stored anyway.
        await stop.wait()
        for task in workers:
            task.cancel()

    stopping = asyncio.create_task(stopper())
    try:
        outcomes = await asyncio.gather(*workers, return_exceptions=True)
        for outcome in outcomes:
            if isinstance(outcome, BaseException) and not isinstance(
                outcome, asyncio.CancelledError
            ):
                raise outcome
    finally:
        stopping.cancel()
        # Never cancel a write in flight: its thread would commit after we counted results.
        scored.set()
        await periodic
        await turn_keeper
        for task in list(writes):
            await task
        # Rows finished while the last periodic write was running are still buffered.
        if buffer:
            await flush()
    if deleted.is_set():
        return "deleted"
    if giving_way.is_set() and taken < len(todo) and not stop.is_set():
        return "gave_way"
    return "scored"


def finish_if_complete(runtime: Runtime, evaluation_id: str) -> bool:
    """Mark the evaluation completed once every result is stored; True if this call did."""
    with runtime.session() as session:
        repo = UnscopedJobRepository(session)
        evaluation = repo.get(evaluation_id)
        if evaluation is None or evaluation.status in TERMINAL_STATUSES:
            return False
        expected = evaluation.total_test_cases * len(evaluation.metrics)
        if repo.count_results(evaluation_id) < expected:
            return False
        # Several slices may get here at once; the conditional UPDATE lets exactly one win.
        if not repo.finish(evaluation_id, "completed"):
            session.rollback()
            return False
        session.refresh(evaluation)
        lifecycle_service.finished(session, runtime, evaluation)
        session.commit()
    return True
