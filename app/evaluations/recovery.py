"""Recovery and upkeep the ticker runs: re-enqueue evaluations whose jobs went silent, died or
were forgotten by a restarted Redis, fail those out of attempts, and delete those past
LOUPE_RETENTION_DAYS."""

import logging
from datetime import datetime, timedelta

from app.db import utcnow
from app.evaluations import intervals, lifecycle, lifecycle_service, service, unqueued
from app.evaluations.kinds import kind_of
from app.evaluations.schemas import TERMINAL_STATUSES
from app.fair_queue import queued_id, work_of
from app.redis_outage import REDIS_AWAY, redis_away
from app.runtime import Runtime
from app.unscoped.evaluation_jobs import UnscopedJobRepository
from app.unscoped.retention import UnscopedRetentionRepository
from app.unscoped.unqueued_slices import UnscopedUnqueuedSliceRepository

logger = logging.getLogger("loupe.jobs")


def sweep(runtime: Runtime) -> list[str]:
    """Re-enqueue evaluations whose jobs went silent; fail those out of attempts.

    Returns the ids it acted on.
    """
    settings = runtime.settings
    cutoff = utcnow() - timedelta(seconds=settings.stuck_after_seconds)
    to_dispatch = []
    acted = []
    completed = []
    with runtime.session() as session:
        repo = UnscopedJobRepository(session)
        for evaluation in repo.claim_stuck(cutoff):
            acted.append(evaluation.id)
            expected = evaluation.total_test_cases * len(evaluation.metrics)
            if repo.count_results(evaluation.id) >= expected:
                # An open one with nothing pending is idle, not stuck (its claim is all).
                if kind_of(evaluation).still_open(evaluation, utcnow()):
                    continue
                if repo.finish(evaluation.id, "completed"):
                    session.refresh(evaluation)
                    lifecycle_service.finished(session, runtime, evaluation)
                    completed.append(evaluation.id)
            elif evaluation.dispatch_attempts >= settings.max_dispatch_attempts:
                error = {
                    "type": "dispatch_exhausted",
                    "message": f"no worker finished the evaluation after "
                    f"{settings.max_dispatch_attempts} attempts",
                }
                if repo.finish(evaluation.id, "failed", error):
                    session.refresh(evaluation)
                    lifecycle_service.finished(session, runtime, evaluation, error)
            else:
                to_dispatch.append(evaluation)
        session.commit()
    for evaluation_id in completed:
        intervals.settle_completed(runtime, evaluation_id)
    for evaluation in to_dispatch:
        # Jobs still waiting behind a backlog are not re-enqueued and cost no attempt.
        if service.dispatch(runtime, evaluation):
            lifecycle.reenqueued(
                lifecycle.EvaluationRef.of(evaluation), evaluation.dispatch_attempts + 1
            )
            with runtime.session() as session:
                UnscopedJobRepository(session).count_dispatch(evaluation.id)
                session.commit()
    return acted


def resume_lapsed(runtime: Runtime) -> list[str]:
    """Re-enqueue the slices whose job died while the evaluation's other jobs live on.

    The evaluation's heartbeat stays fresh while any of its jobs runs, so `sweep` cannot see
    one dead job among live ones; its lapsed lease can (distributed mode). Returns the
    evaluation ids it acted on.
    """
    settings = runtime.settings
    acted = []
    for owner, job_id in runtime.dispatcher.lapsed():
        slice_of = service.parse_slice_job_id(job_id)
        if slice_of is None:
            continue
        evaluation_id, start = slice_of
        with runtime.session() as session:
            evaluation = UnscopedJobRepository(session).get(evaluation_id)
            if evaluation is None or evaluation.status in TERMINAL_STATUSES:
                continue
            # Out of attempts: left to `sweep`, which fails it once it goes silent.
            if evaluation.dispatch_attempts >= settings.max_dispatch_attempts:
                continue
            ref = lifecycle.EvaluationRef.of(evaluation)
            attempt = evaluation.dispatch_attempts + 1
            stop = min(start + settings.job_slice_size, evaluation.total_test_cases)
        try:
            queued = service.dispatch_slice(runtime, evaluation_id, owner, start, stop)
        except Exception as error:
            # Its lease is gone from Redis: only the database remembers the slice now.
            unqueued.record(runtime, evaluation_id, [(start, stop, 0)], error)
            raise
        if queued:
            with runtime.session() as session:
                UnscopedJobRepository(session).count_dispatch(evaluation_id)
                session.commit()
            lifecycle.reenqueued(ref, attempt, reason="a job's worker died")
            acted.append(evaluation_id)
    return acted


def resume_forgotten(runtime: Runtime, live: set[str]) -> list[str]:
    """Re-enqueue the slices a restarted Redis forgot (one without persistence keeps no queue).

    Of every unfinished evaluation, each slice that neither waits in the queue nor runs:
    `live` holds the work ids (`<tenant>-score_<id>_<start>`, `fair_queue.work_of`) of the
    jobs whose leases were written since the restart. Costs no dispatch attempt: the jobs were
    lost by Loupe, not by the evaluation. Returns the evaluation ids it acted on.
    """
    with runtime.session() as session:
        evaluations = UnscopedJobRepository(session).unfinished()
        session.commit()
    acted = []
    for evaluation in evaluations:
        enqueued = 0
        for start, stop in service.slices(evaluation, runtime.settings.job_slice_size):
            job_id = service.slice_job_id(evaluation.id, start)
            if work_of(queued_id(evaluation.tenant_id, job_id)) in live:
                continue
            enqueued += service.dispatch_slice(
                runtime, evaluation.id, evaluation.tenant_id, start, stop
            )
        if enqueued:
            ref = lifecycle.EvaluationRef.of(evaluation)
            lifecycle.reenqueued(ref, evaluation.dispatch_attempts, reason="Redis forgot its jobs")
            acted.append(evaluation.id)
    return acted


def requeue_unqueued(runtime: Runtime, limit: int = unqueued.REQUEUE_BATCH) -> int:
    """Queue the slices whose job Redis did not take when their cases were committed
    (`unqueued.py`), oldest first; returns how many went to the queue. A slice whose job
    already waits or runs (an enqueue that timed out but reached Redis) is only forgotten; one
    of a finished evaluation too. Redis still away: the rest wait for the next tick."""
    with runtime.session() as session:
        found = UnscopedUnqueuedSliceRepository(session).oldest(limit)
        session.commit()
    queued = 0
    for evaluation_id, start, stop, turn, tenant_id, status in found:
        if status not in TERMINAL_STATUSES:
            try:
                queued += service.dispatch_slice(
                    runtime, evaluation_id, tenant_id, start, stop, turn, patience=0
                )
            except Exception as error:  # noqa: BLE001 - kept for the next tick
                if isinstance(error, REDIS_AWAY):
                    redis_away("requeue", error)
                else:
                    logger.warning("could not queue a slice of %s: %r", evaluation_id, error)
                break
        with runtime.session() as session:
            UnscopedUnqueuedSliceRepository(session).remove(evaluation_id, start)
            session.commit()
    if queued:
        logger.info("queued %d slices Redis had not taken", queued)
    return queued


def resume_all(runtime: Runtime) -> int:
    """Re-enqueue every unfinished evaluation (the embedded queue does not survive restarts)."""
    with runtime.session() as session:
        evaluations = UnscopedJobRepository(session).unfinished()
        session.commit()
    for evaluation in evaluations:
        service.dispatch(runtime, evaluation)
    return len(evaluations)


def prune_expired(runtime: Runtime, limit: int = 100) -> list[str]:
    """Delete finished evaluations and runs past LOUPE_RETENTION_DAYS; returns their ids."""
    days = runtime.settings.retention_days
    if days is None:
        return []
    cutoff = utcnow() - timedelta(days=days)
    with runtime.session() as session:
        found = UnscopedRetentionRepository(session).expired(cutoff, limit)
        session.commit()
    retired = _retire_abandoned(runtime, cutoff, limit)
    found += [(evaluation_id, "") for evaluation_id in retired]
    pruned = []
    for evaluation_id, _ in found:
        shed_rows(runtime, evaluation_id)
        with runtime.session() as session:
            evaluation = UnscopedJobRepository(session).get(evaluation_id)
            if evaluation is None:
                continue
            lifecycle_service.delete(session, runtime, evaluation)
            session.commit()
        pruned.append(evaluation_id)
    if pruned:
        logger.info("deleted %d evaluations past LOUPE_RETENTION_DAYS", len(pruned))
    return pruned


def _retire_abandoned(runtime: Runtime, cutoff: datetime, limit: int) -> list[str]:
    """Cancel the open evaluations (`open: true`, never closed) whose last batch came before
    `cutoff` and whose every case is scored: left open, they would never be finished, so never
    deleted. Canceled (announced like any cancel), they are deleted with the expired ones.
    One still scoring is left for later."""
    with runtime.session() as session:
        candidates = UnscopedRetentionRepository(session).abandoned(cutoff, limit)
        session.commit()
    retired = []
    for evaluation_id in candidates:
        with runtime.session() as session:
            repo = UnscopedJobRepository(session)
            evaluation = repo.get_for_update(evaluation_id)
            if evaluation is None or not evaluation.open:
                continue
            expected = evaluation.total_test_cases * len(evaluation.metrics)
            if (
                evaluation.status in TERMINAL_STATUSES
                or repo.count_results(evaluation_id) < expected
            ):
                continue
            lifecycle_service.cancel(session, runtime, evaluation)
            session.commit()
        retired.append(evaluation_id)
    if retired:
        logger.info(
            "canceled %d open evaluations without a batch for LOUPE_RETENTION_DAYS", len(retired)
        )
    return retired


# Rows deleted per transaction by `shed_rows`: a few thousand keep each transaction (and the
# locks and snapshot it holds) to tens of milliseconds.
SHED_BATCH_ROWS = 5000


def shed_rows(runtime: Runtime, evaluation_id: str, batch_rows: int = SHED_BATCH_ROWS) -> int:
    """Delete a finished evaluation's results and test cases in bounded transactions (a range
    of test-case indices each, walked along the unique index), before the evaluation itself
    goes in one small transaction; returns the rows deleted.

    One DELETE of an evaluation holding a million results would hold its transaction open for
    as long as that takes; in batches, scoring and reads go on between them. A running
    evaluation is left alone (its rows are still being written)."""
    with runtime.session() as session:
        repo = UnscopedJobRepository(session)
        evaluation = repo.get(evaluation_id)
        if evaluation is None or evaluation.status not in TERMINAL_STATUSES:
            return 0
        per_case = max(1, len(evaluation.metrics or []))
        stop = UnscopedRetentionRepository(session).case_index_bound(evaluation_id)
        session.commit()
    step = max(1, batch_rows // per_case)
    deleted = 0
    for start in range(0, stop, step):
        with runtime.session() as session:
            deleted += UnscopedRetentionRepository(session).delete_case_rows(
                evaluation_id, start, start + step
            )
            session.commit()
    return deleted
