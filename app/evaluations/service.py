"""Evaluation decisions: validate a submission, store it, dispatch it, cancel and delete it.

Services flush but never commit; the endpoint or job that called them owns the transaction.
"""

import hashlib
import json
import logging
from typing import Any

from sqlalchemy.orm import Session

from app.config import Settings
from app.db import utcnow
from app.evaluations import admission, case_rows, checks, read_model, unqueued
from app.evaluations.jobs import SCORE_SLICE
from app.evaluations.kinds import DEFAULT_KIND, kind_of
from app.evaluations.repository import EvaluationRepository
from app.evaluations.schemas import (
    TERMINAL_STATUSES,
    EvaluationCreate,
)
from app.ids import EVALUATION_PREFIX, new_id
from app.jsonio import utc_text
from app.media import gc
from app.media.own import OwnMedia
from app.media.store import DatabaseBlobStore
from app.metric_versions import service as metric_versions
from app.models import Evaluation, Tenant
from app.outbox import outbox
from app.problems import ProblemError, invalid_request, not_found
from app.redis_outage import REDIS_AWAY, REDIS_PATIENCE_SECONDS
from app.runtime import Runtime
from app.telemetry import logs
from app.unscoped.evaluation_jobs import UnscopedJobRepository
from app.webhooks import service as webhook_service
from app.webhooks.jobs import DELIVER_WEBHOOK

logger = logging.getLogger("loupe.evaluations")

# How long a request that has committed new work waits for a queue that is away before it
# answers anyway (the sweep queues the work later): far less than a client's timeout.
SUBMIT_PATIENCE_SECONDS = 5.0


def create(
    session: Session,
    tenant: Tenant,
    payload: EvaluationCreate,
    settings: Settings,
    own: OwnMedia | None = None,
) -> Evaluation:
    """Validate and store a new queued evaluation with its test cases.

    Every problem the schema could not see is found first, images included (URLs fetched,
    everything checked and normalised), and answered in one 422; then the images are stored
    once and the stored test cases reference them as `blob:sha256:` URLs (this server's own
    media URLs, with `own`, read from the store as the tenant may read them).
    """
    cases = [case_rows.stored_case(index, tc) for index, tc in enumerate(payload.test_cases)]
    checked = checks.check(session, tenant.id, checks.Draft.of(payload), settings, cases, own)
    if checked.findings.errors:
        raise invalid_request(checked.findings.errors, checked.findings.total)
    # Last, once the submission is known to be valid: the tenant row stays locked until commit.
    admission.admit(
        session,
        tenant,
        settings,
        test_cases=(len(payload.test_cases), ["test_cases"]),
        metrics=(len(payload.metrics), ["metrics"]),
    )
    evaluation = Evaluation(
        id=new_evaluation_id(),
        tenant_id=tenant.id,
        name=payload.name,
        metadata_=payload.metadata or {},
        metrics=[spec.model_dump(mode="json", exclude_none=True) for spec in payload.metrics],
        # Each judged metric's version, its row stored (issue 29).
        judge=metric_versions.with_versions(session, tenant.id, payload.metrics, checked.judge),
        webhook_endpoint_id=checked.endpoint_id,
        use_cache=payload.cache,
        cluster_by=payload.cluster_by,
        status="queued",
        open=payload.open,
        appended_at=utcnow() if payload.open else None,
        request_id=logs.request_id.get(),
        total_test_cases=len(payload.test_cases),
        dispatch_attempts=1,
    )
    assert checked.intake is not None  # counts within their caps: images were taken in
    checked.intake.store(DatabaseBlobStore(session, tenant.id))
    for case in cases:
        case["evaluation_id"] = evaluation.id
        case["context_hash"] = context_hash(case["retrieval_context"])
    EvaluationRepository(session, tenant.id).add(evaluation, cases)
    return evaluation


def new_evaluation_id() -> str:
    """An id for a new evaluation of any kind built on the core's `evn_` ids."""
    return new_id(EVALUATION_PREFIX)


def context_hash(nodes: list[Any] | None) -> str | None:
    """A stored retrieval context's identity (images are blob references by now)."""
    if not nodes:
        return None
    canonical = json.dumps(nodes, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def slices(evaluation: Evaluation, slice_size: int) -> list[tuple[int, int]]:
    """The [start, stop) test-case ranges its jobs score, one job each."""
    total = evaluation.total_test_cases
    return [(start, min(start + slice_size, total)) for start in range(0, total, slice_size)]


def dispatch(runtime: Runtime, evaluation: Evaluation) -> int:
    """Enqueue one scoring job per slice; call after the evaluation is committed.

    Returns how many jobs were enqueued: slices whose job still waits in the queue are skipped.
    Raises the queue's error after recording the slices it did not take (`unqueued.py`).
    """
    enqueued = 0
    every = slices(evaluation, runtime.settings.job_slice_size)
    for done, (start, stop) in enumerate(every):
        try:
            enqueued += dispatch_slice(runtime, evaluation.id, evaluation.tenant_id, start, stop)
        except Exception as error:
            unqueued.record(runtime, evaluation.id, [(a, b, 0) for a, b in every[done:]], error)
            raise
    return enqueued


def queue_committed(
    session: Session, runtime: Runtime, evaluation_id: str, tenant_id: str, cases: range
) -> None:
    """Queue the scoring of test cases `cases`, stored in the session's transaction, once it
    commits; their slices are recorded in that transaction (`unqueued.pending`), so a process
    killed before its enqueue ran leaves them for the ticker to queue."""
    unqueued.pending(session, runtime, evaluation_id, committed_slices(runtime, cases))
    outbox(session).add(lambda: dispatch_committed(runtime, evaluation_id, tenant_id, cases))


def committed_slices(runtime: Runtime, cases: range) -> list[tuple[int, int]]:
    """The [start, stop) slices `queue_committed` queues `cases` in."""
    size = runtime.settings.job_slice_size
    return [
        (start, min(start + size, cases.stop)) for start in range(cases.start, cases.stop, size)
    ]


def dispatch_committed(runtime: Runtime, evaluation_id: str, tenant_id: str, cases: range) -> None:
    """Queue the scoring of test cases `cases` a request has just committed, in slices, and
    forget the rows `queue_committed` wrote for those Redis took.

    A queue that stays away past SUBMIT_PATIENCE_SECONDS (or refuses the job) does not fail the
    request: what it committed is stored, the slices not queued stay recorded, and the ticker
    queues them once Redis takes work again (time lost, nothing else; `unqueued.py`).
    """
    slices = committed_slices(runtime, cases)
    for done, (start, stop) in enumerate(slices):
        try:
            dispatch_slice(
                runtime, evaluation_id, tenant_id, start, stop, patience=SUBMIT_PATIENCE_SECONDS
            )
        except Exception as error:  # noqa: BLE001 - whatever kept the job out, it is retried
            unqueued.queued(runtime, evaluation_id, [first for first, _ in slices[:done]])
            left = [(first, last, 0) for first, last in slices[done:]]
            unqueued.record(runtime, evaluation_id, left, error)
            return
    unqueued.queued(runtime, evaluation_id, [start for start, _ in slices])


def slice_job_id(evaluation_id: str, start: int, turn: int = 0) -> str:
    """A slice's job id; a continuation (turn > 0) is the same work, queued again."""
    base = f"score_{evaluation_id}_{start}"
    return f"{base}-{turn}" if turn else base


def parse_slice_job_id(job_id: str) -> tuple[str, int] | None:
    """(evaluation id, start) of a slice's job id; None for another job's id."""
    base = job_id.split("-", 1)[0]
    if not base.startswith("score_"):
        return None
    evaluation_id, _, start = base.removeprefix("score_").rpartition("_")
    return (evaluation_id, int(start)) if evaluation_id and start.isdigit() else None


def dispatch_slice(
    runtime: Runtime,
    evaluation_id: str,
    tenant_id: str,
    start: int,
    stop: int,
    turn: int = 0,
    patience: float = REDIS_PATIENCE_SECONDS,
) -> bool:
    """Queue one slice's job in its tenant's fair place; False if one already waits."""
    args: tuple[str | int, ...] = (evaluation_id, start, stop) + ((turn,) if turn else ())
    return SCORE_SLICE.enqueue(
        runtime,
        *args,
        job_id=slice_job_id(evaluation_id, start, turn),
        owner=tenant_id,
        patience=patience,
    )


def check_metric(evaluation: Evaluation, metric: str | None) -> None:
    """400 unless `metric` is None or names one of the evaluation's metrics."""
    names = [spec.get("name") or spec["type"] for spec in evaluation.metrics]
    if metric is not None and metric not in names:
        raise ProblemError(
            400,
            "Bad Request",
            f"metric: {metric!r} is not a metric of this evaluation (it has {', '.join(names)})",
            slug="unknown-metric",
            field=["query", "metric"],
        )


def get_or_404(
    session: Session, tenant: Tenant, evaluation_id: str, kinds: tuple[str, ...] = (DEFAULT_KIND,)
) -> Evaluation:
    """One of the tenant's evaluations of these kinds (plain ones unless told)."""
    evaluation = EvaluationRepository(session, tenant.id, kinds).get(evaluation_id)
    if evaluation is None:
        raise not_found(f"No evaluation {evaluation_id!r}.")
    return evaluation


def get_for_update(
    session: Session, tenant: Tenant, evaluation_id: str, kinds: tuple[str, ...] = (DEFAULT_KIND,)
) -> Evaluation:
    """One of the tenant's evaluations of these kinds, locked for a cancel or a delete."""
    evaluation = EvaluationRepository(session, tenant.id, kinds).get(evaluation_id, for_update=True)
    if evaluation is None:
        raise not_found(f"No evaluation {evaluation_id!r}.")
    return evaluation


def cancel_loaded(session: Session, evaluation: Evaluation) -> Evaluation:
    """Cancel an evaluation (or run) the caller has read for its tenant; terminal ones: 409."""
    kind = evaluation.kind or DEFAULT_KIND
    if evaluation.status in TERMINAL_STATUSES:
        raise ProblemError(
            409,
            "Conflict",
            f"The {kind} is already {evaluation.status}.",
            slug=f"{kind}-terminal",
        )
    finished = UnscopedJobRepository(session).finish(evaluation.id, "canceled")
    session.refresh(evaluation)
    if not finished:
        # The last job completed it between our read and our update.
        raise ProblemError(
            409,
            "Conflict",
            f"The {kind} is already {evaluation.status}.",
            slug=f"{kind}-terminal",
        )
    return evaluation


def emit_terminal_event(session: Session, evaluation: Evaluation) -> str | None:
    """Store the `evaluation.<status>` webhook event, if the evaluation names an endpoint.

    Returns the event id for the caller to enqueue after it commits.
    """
    if evaluation.webhook_endpoint_id is None or evaluation.status not in TERMINAL_STATUSES:
        return None
    summary = read_model.to_schema(session, evaluation)
    # A thin payload (Standard Webhooks advice): ids and headline numbers; results by API.
    data = {
        "object": evaluation.kind or DEFAULT_KIND,
        "id": evaluation.id,
        "name": evaluation.name,
        "status": evaluation.status,
        "completed_with_errors": summary.completed_with_errors,
        "metadata": evaluation.metadata_ or {},
        "result_counts": summary.result_counts.model_dump(),
        "error": evaluation.error,
        "completed_at": utc_text(evaluation.completed_at) if evaluation.completed_at else None,
    }
    # Kinds built on evaluations name their own events (`run.completed`, `eval.run.succeeded`).
    kind = kind_of(evaluation)
    event_type, data = kind.terminal_event(session, evaluation, data)
    event = webhook_service.emit(
        session,
        evaluation.tenant_id,
        evaluation.webhook_endpoint_id,
        event_type,
        data,
        kind.event_envelope,
    )
    return event.id


def enqueue_webhook(runtime: Runtime, event_id: str | None) -> None:
    """Hand a committed event to a delivery job, tried once: the event is stored and due, so
    with Redis away the ticker's sweep of due events queues it later (a cancel, a delete or a
    finishing job waited out SUBMIT_PATIENCE_SECONDS for it)."""
    if event_id is None:
        return
    try:
        DELIVER_WEBHOOK.enqueue(runtime, event_id, job_id=f"deliver_{event_id}", patience=0)
    except REDIS_AWAY:
        logger.warning("webhook event %s is stored; the ticker will deliver it", event_id)


def delete_loaded(session: Session, evaluation: Evaluation) -> set[str]:
    """Delete a finished evaluation (or run) the caller read for its tenant, with its test cases,
    results and judge answers; returns the blob digests its cases referenced, for
    `collect_media` once this is committed. Queued or running ones: 409 (cancel them first)."""
    kind = evaluation.kind or DEFAULT_KIND
    if evaluation.status not in TERMINAL_STATUSES:
        cancel_path = kind_of(evaluation).cancel_path(session, evaluation)
        raise ProblemError(
            409,
            "Conflict",
            f"The {kind} is {evaluation.status}; cancel it first "
            f"(POST {cancel_path}), then delete it.",
            slug=f"{kind}-not-finished",
        )
    digests = gc.release(session, evaluation.id)
    EvaluationRepository(session, evaluation.tenant_id).delete(evaluation)
    return digests


def collect_media(runtime: Runtime, tenant_id: str, digests: set[str]) -> list[str]:
    """Remove the blobs among `digests` no row references any more (own transaction)."""
    if not digests:
        return []
    with runtime.session() as session:
        removed = gc.collect(session, tenant_id, digests)
        session.commit()
    return removed
