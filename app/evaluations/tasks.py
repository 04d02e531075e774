"""What evaluation jobs do: load a slice of test cases and score it (app/evaluations/scoring.py),
finish the evaluation."""

from app.config import Settings
from app.db import utcnow
from app.dispatch import Turn
from app.evaluations import (
    estimate,
    intervals,
    judging,
    lifecycle,
    lifecycle_service,
    metric_judges,
    scoring,
    service,
    unqueued,
)
from app.evaluations.heartbeat import beating
from app.evaluations.judge_cache import DatabaseJudgeCache
from app.evaluations.kinds import kind_of
from app.evaluations.schemas import TERMINAL_STATUSES
from app.judges import JudgeEndpoint, run_on_judge_loop
from app.media.resolve import CaseImages
from app.media.store import DatabaseBlobStore
from app.metrics import MetricTestCase, parse_spec
from app.models import Tenant, TestCase
from app.runtime import Runtime
from app.unscoped.evaluation_jobs import UnscopedJobRepository
from app.usage.service import Budget


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
        turns=images.turns(row.turns),
        scenario=content(row.scenario, "scenario"),
        expected_outcome=content(row.expected_outcome, "expected_outcome"),
        chatbot_role=row.chatbot_role,
        user_description=row.user_description,
        tools_called=row.tools_called,
        expected_tools=row.expected_tools,
        # Rows stored without a hash (before the column existed) are assumed shared.
        context_shared=row.context_hash is None or row.context_hash in contexts_elsewhere,
    )


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
        try:
            service.dispatch_slice(runtime, evaluation_id, tenant_id, start, stop, turn + 1)
        except Exception as error:  # noqa: BLE001 - recorded: the ticker queues it later
            unqueued.record(runtime, evaluation_id, [(start, stop, turn + 1)], error)
    elif outcome == "scored":
        finish_if_complete(runtime, evaluation_id)


def _score_slice(
    runtime: Runtime, evaluation_id: str, start: int, stop: int, turn: Turn
) -> scoring.Outcome:
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
        judges = metric_judges.metric_judges(session, runtime.settings, evaluation, specs)
        cache_scope = evaluation.tenant_id if evaluation.use_cache else f"eval:{evaluation_id}"
        kind = kind_of(evaluation)
        predictor = kind.predictor(session, runtime.settings, evaluation, rows, images)
        tenant = session.get(Tenant, evaluation.tenant_id)
        budget = Budget(evaluation.tenant_id, tenant.daily_usd if tenant else None)
        budget.refresh(session, utcnow())
        if budget.limit is not None:
            budget.expect(estimate.per_item_usd(runtime.settings, specs, cases, evaluation.judge))
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
    job = scoring.SliceJob(
        runtime,
        evaluation_id,
        specs,
        todo,
        judges,
        DatabaseJudgeCache(runtime, cache_scope),
        media,
        predictor,
        kind,
        several_jobs=several_jobs,
        ref=ref,
        budget=budget,
        turn=turn,
    )
    with beating(runtime, evaluation_id):
        outcome = run_on_judge_loop(scoring.score(job))
    if outcome == "gave_way":
        lifecycle.gave_way(ref)
    elif outcome == "deleted":
        # Not an error: the user deleted it. Nothing is retried or re-enqueued.
        lifecycle.deleted_while_running(ref)
    return outcome


def judge_endpoint(settings: Settings) -> JudgeEndpoint:
    """The operator's judge endpoint (one per process; jobs share its client)."""
    return judging.operator_endpoint(settings)


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
        # An open one takes more cases yet: the ticker's sweep completes it once it closes.
        if kind_of(evaluation).still_open(evaluation, utcnow()):
            return False
        # Several slices may get here at once; the conditional UPDATE lets exactly one win.
        if not repo.finish(evaluation_id, "completed"):
            session.rollback()
            return False
        session.refresh(evaluation)
        lifecycle_service.finished(session, runtime, evaluation)
        session.commit()
    intervals.settle_completed(runtime, evaluation_id)
    return True
