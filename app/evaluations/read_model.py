"""An evaluation as clients read it: counts, per-metric summaries with error bars, results and
test cases (the read model the API, the console and the kinds built on evaluations share)."""

from collections.abc import Sequence
from typing import Any

from sqlalchemy.orm import Session

from app.db import utcnow
from app.evaluations import calibration, intervals, stability
from app.evaluations.counts import (
    completed_with_errors,
    pass_rate,
    result_counts,
    summary_totals,
    unscored,
)
from app.evaluations.intervals import UNIT
from app.evaluations.judge_schemas import JudgePanelMember, MetricJudgeUsed
from app.evaluations.kinds import DEFAULT_KIND, kind_of, naming_of
from app.evaluations.repository import EvaluationRepository
from app.evaluations.schemas import (
    TERMINAL_STATUSES,
    ClusteredError,
    ErrorInfo,
    EvaluationResult,
    JudgeUsed,
    MetricSummary,
    Recovery,
    UsageTotals,
    add_costs,
)
from app.evaluations.schemas import Evaluation as EvaluationSchema
from app.evaluations.schemas import TestCase as TestCaseSchema
from app.evaluations.stability import StabilitySummary
from app.media.links import MediaUrl, with_media_urls
from app.metric_versions.agreement import Stamp
from app.models import Evaluation, Result, TestCase
from app.stats import (
    BoundedInterval,
    Bounds,
    clustered_spread,
    snap_into,
    spread_from_sums,
    wilson_interval,
)
from app.webhooks import service as webhook_service


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


def to_schemas(session: Session, evaluations: Sequence[Evaluation]) -> list[EvaluationSchema]:
    """`to_schema` of a list page's evaluations (one tenant's), their summaries read at once."""
    if not evaluations:
        return []
    summaries = EvaluationRepository(session, evaluations[0].tenant_id).result_summaries(
        evaluations
    )
    stamps = calibration.label_stamps(session, evaluations)
    return [
        to_schema(session, evaluation, summary=summaries[evaluation.id], stamps=stamps)
        for evaluation in evaluations
    ]


def to_schema(
    session: Session,
    evaluation: Evaluation,
    stalled_after: float | None = None,
    *,
    summary: list[dict[str, Any]] | None = None,
    stamps: dict[str, Stamp] | None = None,
) -> EvaluationSchema:
    """The evaluation as clients see it, with counts and per-metric summaries.

    `stalled_after`: seconds of heartbeat silence that make a running evaluation `stalled`
    (its `recovery`); None leaves `recovery` out. `summary`: its `result_summary`, and
    `stamps`: the label stamps of its metric versions, when the caller read them already
    (`to_schemas`).

    Error bars come from the running sums; clustered ones (with `cluster_by`) read the scores.
    """
    # Reached from the API (a row read for its tenant) and from jobs (read by id): either way
    # the evaluation's own tenant scopes the reads of its rows.
    evaluations = EvaluationRepository(session, evaluation.tenant_id)
    if summary is None:
        summary = evaluations.result_summary(evaluation)
    by_index = {row["metric_index"]: row for row in summary}
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
    totals = summary_totals(evaluation, by_index)
    usage = UsageTotals()
    candidate_usage = UsageTotals()
    judges = (evaluation.judge or {}).get("metrics") or {}
    versions = (evaluation.judge or {}).get("versions") or {}
    naming = naming_of(session, evaluation)
    verdicts = calibration.per_metric(
        session,
        evaluation,
        {index: row.get("stored", 0) for index, row in by_index.items()},
        stamps,
    )
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
            complete=intervals.all_in(evaluation, stored),
            errored=errored,
            stored=row.get("interval"),
        )
        judge = judges.get(str(index))
        metric = spec.get("name") or spec["type"]
        per_metric.append(
            MetricSummary(
                metric=metric,
                label=naming.metric_labels.get(metric, metric),
                type=spec["type"],
                mean_score=snap_into(row.get("mean_score"), interval and interval.ci95),
                pass_rate=pass_rate(passed, failed),
                passed=passed,
                failed=failed,
                errored=errored,
                **unscored(evaluation, evaluation.total_test_cases - stored),
                **error_bars(*sums, passed, failed, clustered, interval),
                position_inconsistent=(
                    inconsistent.get(index, 0) if spec["type"] == "pairwise" else None
                ),
                judge=_metric_judge(judge),
                metric_version=versions.get(str(index)),
                stability=_stability(evaluations, evaluation, index, spec, row),
                agreement=verdict.agreement if (verdict := verdicts.get(index)) else None,
                calibrated=verdict.calibrated if verdict else None,
                usage=UsageTotals(
                    calls=row.get("calls", 0),
                    failed_calls=row.get("failed_calls", 0),
                    prompt_tokens=row.get("prompt_tokens", 0),
                    completion_tokens=row.get("completion_tokens", 0),
                    cached_prompt_tokens=row.get("cached_prompt_tokens", 0),
                    cost_usd=row.get("judge_cost_usd", 0.0),
                ),
            )
        )
        usage.calls += row.get("calls", 0)
        usage.failed_calls += row.get("failed_calls", 0)
        usage.prompt_tokens += row.get("prompt_tokens", 0)
        usage.completion_tokens += row.get("completion_tokens", 0)
        usage.cached_prompt_tokens += row.get("cached_prompt_tokens", 0)
        usage.cost_usd = add_costs(usage.cost_usd, row.get("judge_cost_usd", 0.0))
        candidate_usage.calls += row.get("candidate_calls", 0)
        candidate_usage.failed_calls += row.get("candidate_failed_calls", 0)
        candidate_usage.prompt_tokens += row.get("candidate_prompt_tokens", 0)
        candidate_usage.completion_tokens += row.get("candidate_completion_tokens", 0)
        candidate_usage.cached_prompt_tokens += row.get("candidate_cached_prompt_tokens", 0)
        candidate_usage.cost_usd = add_costs(
            candidate_usage.cost_usd, row.get("candidate_cost_usd", 0.0)
        )
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
        completed_with_errors=completed_with_errors(evaluation, totals),
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
        open=bool(evaluation.open),
        test_case_count=evaluation.total_test_cases,
        result_counts=result_counts(evaluation, totals),
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


def _metric_judge(record: dict[str, Any] | None) -> MetricJudgeUsed | None:
    """A metric's stored judge record as the API shows it: one judge, or a panel (its record
    holds every member; its first stands where one judge is named)."""
    judge = _judge_used(record)
    if judge is None or record is None:
        return None
    panel = [JudgePanelMember(**{"weight": 1.0, **member}) for member in record.get("panel") or []]
    return MetricJudgeUsed(**judge.model_dump(), panel=panel or None)


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
            cached_prompt_tokens=result.cached_prompt_tokens or 0,
            cost_usd=result.judge_cost_usd,
        ),
        candidate_usage=UsageTotals(
            calls=result.candidate_calls,
            failed_calls=result.candidate_failed_calls,
            prompt_tokens=result.candidate_prompt_tokens,
            completion_tokens=result.candidate_completion_tokens,
            cached_prompt_tokens=result.candidate_cached_prompt_tokens or 0,
            cost_usd=result.candidate_cost_usd,
        ),
        cost_usd=add_costs(result.judge_cost_usd, result.candidate_cost_usd),
        logs=result.logs or {},
        stability=result.stability,
        fragile=result.fragile,
        metric_version=result.metric_version,
        created_at=result.created_at,
    )


def _stability(
    evaluations: EvaluationRepository,
    evaluation: Evaluation,
    index: int,
    spec: dict[str, Any],
    row: dict[str, Any],
) -> StabilitySummary | None:
    kept_as = (evaluation.id, index) if evaluation.status in TERMINAL_STATUSES else None
    return stability.summary(spec, row, lambda: evaluations.stabilities(evaluation, index), kept_as)


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
        tools_called=case.tools_called,
        expected_tools=case.expected_tools,
        turns=None
        if case.turns is None
        else [
            {
                **turn,
                "content": public(turn.get("content")),
                **(
                    {"retrieval_context": public(turn["retrieval_context"])}
                    if turn.get("retrieval_context") is not None
                    else {}
                ),
            }
            for turn in case.turns
        ],
        scenario=public(case.scenario),
        expected_outcome=public(case.expected_outcome),
        chatbot_role=case.chatbot_role,
        user_description=case.user_description,
    )
