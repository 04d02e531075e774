"""Evaluation decisions: validate a submission, store it, summarise it, cancel it.

Services flush but never commit; the endpoint or job that called them owns the transaction.
"""

import hashlib
import json
import logging
from typing import Any

from sqlalchemy.orm import Session

from app.config import Settings
from app.db import utcnow
from app.evaluations import admission, checks, intervals
from app.evaluations.intervals import UNIT
from app.evaluations.jobs import SCORE_SLICE
from app.evaluations.kinds import DEFAULT_KIND, kind_of, naming_of
from app.evaluations.repository import EvaluationRepository
from app.evaluations.schemas import (
    TERMINAL_STATUSES,
    ClusteredError,
    ErrorInfo,
    EvaluationCreate,
    EvaluationResult,
    JudgeUsed,
    MetricSummary,
    Recovery,
    ResultCounts,
    UsageTotals,
    add_costs,
)
from app.evaluations.schemas import Evaluation as EvaluationSchema
from app.evaluations.schemas import TestCase as TestCaseSchema
from app.ids import EVALUATION_PREFIX, new_id
from app.media import gc
from app.media.links import MediaUrl, with_media_urls
from app.media.store import DatabaseBlobStore
from app.models import Evaluation, Result, Tenant, TestCase
from app.problems import ProblemError, invalid_request
from app.redis_outage import REDIS_AWAY, REDIS_PATIENCE_SECONDS
from app.runtime import Runtime
from app.stats import BoundedInterval, Bounds, clustered_spread, spread_from_sums, wilson_interval
from app.telemetry import logs
from app.unscoped.evaluation_jobs import UnscopedJobRepository
from app.webhooks import service as webhook_service
from app.webhooks.jobs import DELIVER_WEBHOOK

logger = logging.getLogger("loupe.evaluations")

# How long a request that has committed new work waits for a queue that is away before it
# answers anyway (the sweep queues the work later): far less than a client's timeout.
SUBMIT_PATIENCE_SECONDS = 5.0


def create(
    session: Session, tenant: Tenant, payload: EvaluationCreate, settings: Settings
) -> Evaluation:
    """Validate and store a new queued evaluation with its test cases.

    Every problem the schema could not see is found first, images included (URLs fetched,
    everything checked and normalised), and answered in one 422; then the images are stored
    once and the stored test cases reference them as `blob:sha256:` URLs.
    """
    cases = [checks.stored_case(index, tc) for index, tc in enumerate(payload.test_cases)]
    checked = checks.check(session, tenant.id, checks.Draft.of(payload), settings, cases)
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
        id=new_id(EVALUATION_PREFIX),
        tenant_id=tenant.id,
        name=payload.name,
        metadata_=payload.metadata or {},
        metrics=[spec.model_dump(mode="json", exclude_none=True) for spec in payload.metrics],
        judge=checked.judge,
        webhook_endpoint_id=checked.endpoint_id,
        use_cache=payload.cache,
        cluster_by=payload.cluster_by,
        status="queued",
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
    """
    enqueued = 0
    for start, stop in slices(evaluation, runtime.settings.job_slice_size):
        enqueued += dispatch_slice(runtime, evaluation.id, evaluation.tenant_id, start, stop)
    return enqueued


def dispatch_submitted(runtime: Runtime, evaluation: Evaluation) -> None:
    """`dispatch` for a request that has just committed a new evaluation (or run).

    A queue that stays away past SUBMIT_PATIENCE_SECONDS does not fail the request: what it
    committed is stored and queued, and the ticker's sweep enqueues it once its heartbeat is
    LOUPE_STUCK_AFTER_SECONDS old (time lost, nothing else).
    """
    try:
        for start, stop in slices(evaluation, runtime.settings.job_slice_size):
            dispatch_slice(
                runtime,
                evaluation.id,
                evaluation.tenant_id,
                start,
                stop,
                patience=SUBMIT_PATIENCE_SECONDS,
            )
    except REDIS_AWAY:
        logger.warning(
            "evaluation %s is stored but not queued (Redis away); the sweep will queue it",
            evaluation.id,
        )


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


def error_bars(
    scored: int,
    total: float,
    total_sq: float,
    passed: int | None = None,
    failed: int | None = None,
    clustered: ClusteredError | None = None,
    interval: BoundedInterval | None = None,
) -> dict[str, Any]:
    """The error-bar fields of a summary, from running sums (and pass counts, if thresholded)
    and the mean's interval inside the score's range (`intervals.metric_interval`)."""
    spread = spread_from_sums(scored, total, total_sq)
    judged = (passed or 0) + (failed or 0)
    return {
        "n": spread.n,
        "std": spread.std,
        "stderr": spread.stderr,
        "ci95": list(interval.ci95) if interval and interval.ci95 else None,
        "ci_method": interval.method if interval else None,
        "interval_note": interval.note if interval else None,
        "pass_rate_ci95": (
            list(interval) if (interval := wilson_interval(passed or 0, judged)) else None
        ),
        "clustered": clustered,
    }


def clustered_error(
    cluster_by: str,
    scores: list[float],
    groups: list[Any],
    bounds: Bounds = UNIT,
    cache_key: object = None,
) -> ClusteredError | None:
    """The cluster-robust error of these scores' mean, and its cluster bootstrap interval
    inside `bounds` (kept per process under `cache_key`); None below two clusters."""
    spread = clustered_spread(scores, groups, bounds, cache_key)
    if spread is None:
        return None
    return ClusteredError(
        cluster_by=cluster_by,
        clusters=spread.clusters,
        stderr=spread.stderr,
        ci95=list(spread.ci95) if spread.ci95 else None,
        ci_method=spread.ci_method,
        interval_note=spread.interval_note,
        design_effect=spread.design_effect,
    )


def to_schema(
    session: Session, evaluation: Evaluation, stalled_after: float | None = None
) -> EvaluationSchema:
    """The evaluation as clients see it, with counts and per-metric summaries.

    `stalled_after`: seconds of heartbeat silence that make a running evaluation `stalled`
    (its `recovery`); None leaves `recovery` out.

    Error bars come from the running sums; clustered ones (with `cluster_by`) read the scores.
    """
    # Reached from the API (a row read for its tenant) and from jobs (read by id): either way
    # the evaluation's own tenant scopes the reads of its rows.
    evaluations = EvaluationRepository(session, evaluation.tenant_id)
    by_index = {row["metric_index"]: row for row in evaluations.result_summary(evaluation)}
    by_cluster = (
        evaluations.scores_by_cluster(evaluation, evaluation.cluster_by)
        # A run's clusters are its dataset's, reported per report row (app/runs/service.py).
        if evaluation.cluster_by and by_index and kind_of(evaluation).summary_clusters
        else {}
    )
    inconsistent = evaluations.position_inconsistent_counts(
        evaluation,
        [i for i, spec in enumerate(evaluation.metrics) if spec["type"] == "pairwise"],
    )
    per_metric = []
    totals = {"passed": 0, "failed": 0, "errored": 0, "stored": 0}
    usage = UsageTotals()
    candidate_usage = UsageTotals()
    judges = (evaluation.judge or {}).get("metrics") or {}
    naming = naming_of(session, evaluation)
    for index, spec in enumerate(evaluation.metrics):
        row = by_index.get(index, {})
        passed, failed = row.get("passed", 0), row.get("failed", 0)
        errored, stored = row.get("errored", 0), row.get("stored", 0)
        bounds = intervals.metric_bounds(spec)
        clustered = None
        if index in by_cluster and evaluation.cluster_by:
            clustered = clustered_error(
                evaluation.cluster_by,
                *by_cluster[index],
                bounds,
                ("evaluation", evaluation.id, index),
            )
        sums = (row.get("scored", 0), row.get("score_sum", 0.0), row.get("score_sq_sum", 0.0))
        interval = intervals.metric_interval(
            evaluations,
            evaluation,
            index,
            bounds,
            sums,
            complete=stored >= evaluation.total_test_cases,
            errored=errored,
        )
        judge = judges.get(str(index))
        metric = spec.get("name") or spec["type"]
        per_metric.append(
            MetricSummary(
                metric=metric,
                label=naming.metric_labels.get(metric, metric),
                type=spec["type"],
                mean_score=row.get("mean_score"),
                pass_rate=passed / (passed + failed) if passed + failed else None,
                passed=passed,
                failed=failed,
                errored=errored,
                pending=evaluation.total_test_cases - stored,
                **error_bars(*sums, passed, failed, clustered, interval),
                position_inconsistent=(
                    inconsistent.get(index, 0) if spec["type"] == "pairwise" else None
                ),
                judge=_judge_used(judge),
                usage=UsageTotals(
                    calls=row.get("calls", 0),
                    failed_calls=row.get("failed_calls", 0),
                    prompt_tokens=row.get("prompt_tokens", 0),
                    completion_tokens=row.get("completion_tokens", 0),
                    cost_usd=row.get("judge_cost_usd", 0.0),
                ),
            )
        )
        for key in totals:
            totals[key] += row.get(key, 0)
        usage.calls += row.get("calls", 0)
        usage.failed_calls += row.get("failed_calls", 0)
        usage.prompt_tokens += row.get("prompt_tokens", 0)
        usage.completion_tokens += row.get("completion_tokens", 0)
        usage.cost_usd = add_costs(usage.cost_usd, row.get("judge_cost_usd", 0.0))
        candidate_usage.calls += row.get("candidate_calls", 0)
        candidate_usage.failed_calls += row.get("candidate_failed_calls", 0)
        candidate_usage.prompt_tokens += row.get("candidate_prompt_tokens", 0)
        candidate_usage.completion_tokens += row.get("candidate_completion_tokens", 0)
        candidate_usage.cost_usd = add_costs(
            candidate_usage.cost_usd, row.get("candidate_cost_usd", 0.0)
        )
    total = evaluation.total_test_cases * len(evaluation.metrics)
    unscored = total - totals["stored"]
    endpoint = (
        webhook_service.endpoint_by_id(session, evaluation.webhook_endpoint_id)
        if evaluation.webhook_endpoint_id
        else None
    )
    return EvaluationSchema(
        id=evaluation.id,
        kind=evaluation.kind or DEFAULT_KIND,  # type: ignore[arg-type]
        name=evaluation.name,
        metadata=evaluation.metadata_ or {},
        status=evaluation.status,  # type: ignore[arg-type]
        completed_with_errors=evaluation.status == "completed" and totals["errored"] > 0,
        metrics=[
            {**spec, "label": naming.metric_labels[spec["name"]]}
            if spec.get("name") in naming.metric_labels
            else spec
            for spec in evaluation.metrics
        ],
        eval_run=naming.eval_run,
        judge=_judge_used(evaluation.judge),
        webhook_url=endpoint.url if endpoint else None,
        cache=evaluation.use_cache,
        cluster_by=evaluation.cluster_by,
        test_case_count=evaluation.total_test_cases,
        result_counts=ResultCounts(
            total=total,
            passed=totals["passed"],
            failed=totals["failed"],
            errored=totals["errored"],
            # A canceled or failed evaluation keeps what it stored; the rest will never come.
            pending=0 if evaluation.status in ("canceled", "failed") else unscored,
            canceled=unscored if evaluation.status == "canceled" else 0,
            skipped=unscored if evaluation.status == "failed" else 0,
        ),
        per_metric=per_metric,
        usage=usage,
        candidate_usage=candidate_usage,
        cost_usd=add_costs(usage.cost_usd, candidate_usage.cost_usd),
        error=ErrorInfo(**evaluation.error) if evaluation.error else None,
        created_at=evaluation.created_at,
        started_at=evaluation.started_at,
        completed_at=evaluation.completed_at,
        recovery=recovery(evaluation, stalled_after),
    )


def recovery(evaluation: Evaluation, stalled_after: float | None) -> Recovery | None:
    """Whether a running evaluation's jobs went quiet, or run again after they did."""
    if stalled_after is None or evaluation.status != "in_progress":
        return None
    silent = (utcnow() - evaluation.heartbeat_at).total_seconds()
    if silent > stalled_after:
        state = "stalled"
    elif evaluation.dispatch_attempts > 1:
        state = "recovering"
    else:
        return None
    return Recovery(
        state=state,
        last_heartbeat_at=evaluation.heartbeat_at,
        dispatch_attempts=evaluation.dispatch_attempts,
    )


def _judge_used(record: dict[str, Any] | None) -> JudgeUsed | None:
    """A stored judge record as the API shows it (records from before hosts were kept too)."""
    if not record or not (record.get("model") or record.get("model_id")):
        return None
    return JudgeUsed(
        model=record.get("model"), model_id=record.get("model_id"), host=record.get("host")
    )


def result_to_schema(result: Result) -> EvaluationResult:
    return EvaluationResult(
        id=result.id,
        test_case_id=result.test_case_id,
        test_case_index=result.test_case_index,
        metric=result.metric,
        type=result.type,
        score=result.score,
        passed=result.passed,
        threshold=result.threshold,
        reason=result.reason,
        error=ErrorInfo(**result.error) if result.error else None,
        usage=UsageTotals(
            calls=result.judge_calls,
            failed_calls=result.judge_failed_calls,
            prompt_tokens=result.prompt_tokens,
            completion_tokens=result.completion_tokens,
            cost_usd=result.judge_cost_usd,
        ),
        candidate_usage=UsageTotals(
            calls=result.candidate_calls,
            failed_calls=result.candidate_failed_calls,
            prompt_tokens=result.candidate_prompt_tokens,
            completion_tokens=result.candidate_completion_tokens,
            cost_usd=result.candidate_cost_usd,
        ),
        cost_usd=add_costs(result.judge_cost_usd, result.candidate_cost_usd),
        logs=result.logs or {},
        created_at=result.created_at,
    )


def test_case_to_schema(case: TestCase, media_url: MediaUrl) -> TestCaseSchema:
    """A stored test case as clients read it, media references as URLs from `media_url`."""

    def public(content: Any) -> Any:
        return with_media_urls(content, media_url)

    return TestCaseSchema(
        id=case.client_id,
        index=case.index,
        input=public(case.input),
        actual_output=public(case.actual_output),
        expected_output=public(case.expected_output),
        context=public(case.context),
        retrieval_context=public(case.retrieval_context),
        metadata=case.metadata_,
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
        raise ProblemError(404, "Not Found", f"No evaluation {evaluation_id!r}.", slug="not-found")
    return evaluation


def get_for_update(
    session: Session, tenant: Tenant, evaluation_id: str, kinds: tuple[str, ...] = (DEFAULT_KIND,)
) -> Evaluation:
    """One of the tenant's evaluations of these kinds, locked for a cancel or a delete."""
    evaluation = EvaluationRepository(session, tenant.id, kinds).get(evaluation_id, for_update=True)
    if evaluation is None:
        raise ProblemError(404, "Not Found", f"No evaluation {evaluation_id!r}.", slug="not-found")
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
    summary = to_schema(session, evaluation)
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
        "completed_at": evaluation.completed_at.isoformat() if evaluation.completed_at else None,
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
    """Hand a committed event to a delivery job (the ticker retries it if this is lost, so a
    queue away past SUBMIT_PATIENCE_SECONDS only delays it)."""
    if event_id is None:
        return
    try:
        DELIVER_WEBHOOK.enqueue(
            runtime,
            event_id,
            job_id=f"deliver_{event_id}",
            patience=SUBMIT_PATIENCE_SECONDS,
        )
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
