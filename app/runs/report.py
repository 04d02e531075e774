"""A run as clients read it: its report table (per key and subset, with intervals), its samples."""

from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from app.datasets.repository import DatasetRepository
from app.evaluations import intervals, read_model
from app.evaluations.repository import EvaluationRepository
from app.evaluations.schemas import TERMINAL_STATUSES, ClusteredError, ErrorInfo
from app.metrics import BLEU_KEYS, ROUGE_KEYS
from app.models import Evaluation, Result, Run, TestCase
from app.runs.repository import RunRepository
from app.runs.schemas import ReportRow, Sample, SampleError
from app.runs.schemas import Run as RunSchema
from app.stats import BoundedInterval, Bounds, mean_interval, snap_into

# Per-sample keys in EvalScope's report order, by the result type that logs them.
REPORT_KEYS = {
    "rouge": (*BLEU_KEYS, *ROUGE_KEYS),
    "choice_accuracy": ("accuracy",),
    "llm_accuracy": ("acc",),
}
# The run's own scorers report the keys above under these result names; any other metric of
# a run (a spec from `metrics`) reports one key, its name, valued by its score.
SCORER_NAMES = ("rule", "accuracy", "acc")
# run_score.key's length.
MAX_KEY = 32
OVERALL = "OVERALL"


# Where a sample's cluster (the value of the run's `cluster_by` column) sits in its metadata.
CLUSTER = "cluster"


def _report_values(row: dict[str, Any]) -> Iterator[tuple[str, str, float]]:
    """(report key, subset, value) of one stored result row without an error."""
    if row.get("error") is not None:
        return
    subset = row["test_case_id"].rsplit("/", 1)[0]
    if row.get("metric") not in SCORER_NAMES:
        score = row.get("score")
        if isinstance(score, int | float):
            yield row["metric"], subset, float(score)
        return
    logs = row.get("logs") or {}
    for key in REPORT_KEYS.get(row["type"], ()):
        value = logs.get(key)
        if isinstance(value, int | float):
            yield key, subset, float(value)


# (total, num, total of squares, passed, failed) of one report key over one subset.
Sums = tuple[float, int, float, int, int]
_NO_SUMS: Sums = (0.0, 0, 0.0, 0, 0)


def score_sums(rows: Iterable[dict[str, Any]]) -> dict[tuple[str, str], Sums]:
    """(total, num, total of squares, passed, failed) per (report key, subset) over stored
    result rows; passed/failed count the run's own metrics' verdicts against their threshold."""
    sums: dict[tuple[str, str], Sums] = {}
    for row in rows:
        # The scorers' keys come from their logs, not their verdict (README: "Counts").
        verdict = row.get("passed") if row.get("metric") not in SCORER_NAMES else None
        for key, subset, value in _report_values(row):
            total, num, total_sq, passed, failed = sums.get((key, subset), _NO_SUMS)
            sums[(key, subset)] = (
                total + value,
                num + 1,
                total_sq + value * value,
                passed + (verdict is True),
                failed + (verdict is False),
            )
    return sums


# Keys whose per-sample values are pass (1) or fail (0): their mean is a pass rate.
_PASS_FAIL_KEYS = {*REPORT_KEYS["choice_accuracy"], *REPORT_KEYS["llm_accuracy"]}


def _values(session: Session, run: Run) -> dict[tuple[str, str], tuple[list[float], list[Any]]]:
    """Per (report key, subset or OVERALL): the values and their samples' clusters, read from
    the results."""
    values: dict[tuple[str, str], tuple[list[float], list[Any]]] = defaultdict(lambda: ([], []))
    for row, metadata in RunRepository(session, run.tenant_id).scored_logs(run):
        for key, subset, value in _report_values(row):
            for group in (subset, OVERALL):
                scores, clusters = values[(key, group)]
                scores.append(value)
                clusters.append(metadata.get(CLUSTER))
    return values


def _clustered(
    values: dict[tuple[str, str], tuple[list[float], list[Any]]],
    cluster_by: str,
    bounds: dict[str, Bounds],
    run_id: str,
) -> dict[tuple[str, str], ClusteredError | None]:
    """Per (report key, subset or OVERALL): the cluster-robust error."""
    return {
        where: read_model.clustered_error(
            cluster_by,
            scores,
            clusters,
            bounds.get(where[0], intervals.UNIT),
            ("run", run_id, *where),
        )
        for where, (scores, clusters) in values.items()
    }


def _key_bounds(evaluation: Evaluation | None) -> dict[str, Bounds]:
    """The score range of the run's own metrics' keys; EvalScope's keys are all in [0, 1]."""
    specs = evaluation.metrics if evaluation is not None else []
    return {spec.get("name") or spec["type"]: intervals.metric_bounds(spec) for spec in specs}


def report(
    session: Session,
    run: Run,
    cluster_by: str | None = None,
    evaluation: Evaluation | None = None,
) -> list[ReportRow]:
    """EvalScope's report table: per metric key and subset, the mean over scored samples,
    with its error bars.

    Read from the running sums the jobs keep (`run_score`), not from the results; clustered
    errors (with `cluster_by`) and bootstrap intervals (scores between their range's bounds)
    read the results, the latter once per process for the same sums.

    Args:
        evaluation: the run's evaluation: its metrics' score ranges, and whether it is done.
    """
    sums: dict[tuple[str, str], Sums] = {}
    # `run` was read for its tenant (by a request) or by id (by the job announcing it).
    run_scores = RunRepository(session, run.tenant_id).scores(run)
    for key, subset, total, num, total_sq, passed, failed in run_scores:
        sums[(key, subset)] = (total, num, total_sq, passed, failed)
        a_total, a_num, a_sq, a_passed, a_failed = sums.get((key, OVERALL), _NO_SUMS)
        sums[(key, OVERALL)] = (
            a_total + total,
            a_num + num,
            a_sq + total_sq,
            a_passed + passed,
            a_failed + failed,
        )
    read: dict[tuple[str, str], tuple[list[float], list[Any]]] = {}

    def values() -> dict[tuple[str, str], tuple[list[float], list[Any]]]:
        if not read:
            read.update(_values(session, run))
        return read

    bounds = _key_bounds(evaluation)
    clustered = _clustered(values(), cluster_by, bounds, run.id) if cluster_by and sums else {}
    complete = evaluation is None or evaluation.status in TERMINAL_STATUSES
    order = _key_order(run)
    subsets = [*run.options.get("subsets", []), OVERALL]
    rows = []
    for key in order:
        for subset in subsets:
            total, num, total_sq, passed_sum, failed_sum = sums.get((key, subset), _NO_SUMS)
            if not num:
                continue
            passed = failed = None
            # Pass/fail keys hold 0 or 1 (then Σx² = Σx); llm_recall's `acc` may not.
            if key in _PASS_FAIL_KEYS and abs(total - total_sq) < 1e-9:
                passed = round(total)
                failed = num - passed
            elif passed_sum + failed_sum:
                # The run's own metrics with a threshold: their verdicts, counted as stored.
                passed, failed = passed_sum, failed_sum
            interval = mean_interval(
                num,
                total,
                total_sq,
                bounds.get(key, intervals.UNIT),
                lambda where=(key, subset): values().get(where, ([], []))[0],
                complete=complete,
                cache_key=("run", run.id, key, subset),
            )
            bars = read_model.error_bars(
                num, total, total_sq, passed, failed, clustered.get((key, subset)), interval
            )
            # The sums' mean can miss an interval made from the exact scores by a last bit.
            score = round(snap_into(total / num, interval.ci95) or 0.0, DECIMALS)
            rows.append(
                ReportRow(metric=key, subset=subset, num=num, score=score, **_rounded(bars))
            )
    return rows + _unscored_rows(session, evaluation, {row.metric for row in rows}, complete)


# EvalScope rounds a report's score to 4 decimals (evalscope-formats.md, "Aggregation"); its
# intervals are rounded alike, so a score lies in its own interval (all 1/3 gave 0.3333 below
# [0.33333…, 0.33333…]); rounding is monotone, so lower ≤ mean ≤ upper stays so.
DECIMALS = 4


def _rounded(bars: dict[str, Any]) -> dict[str, Any]:
    """The error bars with every interval's bounds rounded as the report's score is."""
    out = dict(bars)
    for name in ("ci95", "pass_rate_ci95"):
        out[name] = out[name] and [round(bound, DECIMALS) for bound in out[name]]
    if (clustered := out.get("clustered")) is not None and clustered.ci95 is not None:
        rounded = [round(bound, DECIMALS) for bound in clustered.ci95]
        out["clustered"] = clustered.model_copy(update={"ci95": rounded})
    return out


def _unscored_rows(
    session: Session, evaluation: Evaluation | None, reported: set[str], complete: bool
) -> list[ReportRow]:
    """An OVERALL row without a score for each key of a metric whose every stored result
    errored (n = 0), its note saying so: the key would otherwise be missing from the report."""
    if evaluation is None:
        return []
    errored = {
        row["metric_index"]: row["errored"]
        for row in EvaluationRepository(session, evaluation.tenant_id).result_summary(evaluation)
        if row["errored"] and not row["scored"]
    }
    rows = []
    for index, spec in enumerate(evaluation.metrics):
        name = spec.get("name") or spec["type"]
        keys = REPORT_KEYS.get(spec["type"], ()) if name in SCORER_NAMES else (name,)
        for key in keys:
            if index in errored and key not in reported:
                rows.append(
                    ReportRow(
                        metric=key,
                        subset=OVERALL,
                        num=0,
                        score=None,
                        **read_model.error_bars(
                            0,
                            0.0,
                            0.0,
                            interval=BoundedInterval(
                                None, None, intervals.no_scores_note(errored[index], complete)
                            ),
                        ),
                    )
                )
    return rows


def _key_order(run: Run) -> list[str]:
    """Report keys in order: EvalScope's, then the run's own metrics'."""
    return [key for keys in REPORT_KEYS.values() for key in keys] + list(
        run.options.get("metric_keys") or []
    )


def score_keys(session: Session, run: Run) -> list[str]:
    """The report keys the run has scores for, in report order."""
    scores = RunRepository(session, run.tenant_id).scores(run)
    present = {key for key, _, _, num, *_ in scores if num}
    return [key for key in _key_order(run) if key in present]


def to_schema(
    session: Session, run: Run, evaluation: Evaluation, stalled_after: float | None = None
) -> RunSchema:
    """The run as clients see it; `stalled_after` as in `evaluations.to_schema` (its `recovery`)."""
    summary = read_model.to_schema(session, evaluation, stalled_after)
    options = run.options
    return RunSchema(
        id=run.id,
        name=evaluation.name,
        metadata=evaluation.metadata_ or {},
        status=evaluation.status,  # type: ignore[arg-type]
        completed_with_errors=summary.completed_with_errors,
        dataset_id=run.dataset_id,
        model_id=run.model_id,
        subsets=options.get("subsets", []),
        limit=options.get("limit"),
        generation=options.get("generation") or {},
        judge=options.get("judge") or {},  # type: ignore[arg-type]
        webhook_url=summary.webhook_url,
        sample_count=evaluation.total_test_cases,
        result_counts=summary.result_counts,
        cluster_by=evaluation.cluster_by,
        report=report(session, run, evaluation.cluster_by, evaluation),
        usage=summary.usage,
        candidate_usage=summary.candidate_usage,
        cost_usd=summary.cost_usd,
        error=ErrorInfo(**evaluation.error) if evaluation.error else None,
        created_at=evaluation.created_at,
        started_at=evaluation.started_at,
        completed_at=evaluation.completed_at,
        recovery=summary.recovery,
    )


def _astext_of(value: Any) -> str | None:
    if value is None or isinstance(value, str):
        return value
    return text_of(value)


@dataclass(frozen=True)
class SampleState:
    """What a run's samples are measured against: its scorers, and what a sample without all
    their results is (pending while it runs; canceled or skipped once it never will be)."""

    scorers: int
    unscored: str

    @classmethod
    def of(cls, evaluation: Evaluation) -> "SampleState":
        unscored = {"canceled": "canceled", "failed": "skipped"}.get(evaluation.status, "pending")
        return cls(len(evaluation.metrics), unscored)


def samples(
    session: Session, run: Run, state: SampleState, after: int | None, limit: int
) -> tuple[list[Sample], bool]:
    """A page of samples with prediction, extracted answer, scores and judge reasoning."""
    pairs, has_more = samples_with_cases(session, run, state, after, limit)
    return [sample for sample, _ in pairs], has_more


def samples_with_cases(
    session: Session, run: Run, state: SampleState, after: int | None, limit: int
) -> tuple[list[tuple[Sample, TestCase]], bool]:
    """A page of samples, each with its stored test case (the question and media sent)."""
    cases, results = RunRepository(session, run.tenant_id).sample_page(run, after, limit)
    by_case: dict[int, list[Result]] = defaultdict(list)
    for result in results:
        by_case[result.test_case_index].append(result)
    pairs = [(_sample(case, by_case[case.index], state), case) for case in cases[:limit]]
    return pairs, len(cases) > limit


def samples_with_conversations(
    session: Session, run: Run, state: SampleState, after: int | None, limit: int
) -> tuple[list[tuple[Sample, list[dict[str, Any]]]], bool]:
    """A page of samples, each with the conversation it asks about: the dataset row's messages,
    text, images and audio as stored (a test case's `input` is the judge's transcript, where
    speakers are markdown labels and audio is words)."""
    pairs, has_more = samples_with_cases(session, run, state, after, limit)
    rows = DatasetRepository(session, run.tenant_id).rows_at(
        run.dataset_id, [(sample.subset, sample.row_index) for sample, _ in pairs]
    )
    conversations = []
    for sample, case in pairs:
        row = rows.get((sample.subset, sample.row_index))
        messages = case.messages or (row.messages if row is not None else None)
        conversations.append((sample, messages or [{"role": "user", "content": case.input}]))
    return conversations, has_more


def _sample(case: TestCase, results: list[Result], state: SampleState) -> Sample:
    scores: dict[str, float] = {}
    extracted = verdict = reasoning = None
    errors: list[SampleError] = []
    candidate = None
    for result in results:
        logs = result.logs or {}
        candidate = candidate or logs.get("candidate")
        if result.error:
            errors.append(SampleError(metric=result.metric, **result.error))
            continue
        if result.metric not in SCORER_NAMES:
            if result.score is not None:
                scores[result.metric] = result.score
            continue
        for key in REPORT_KEYS.get(result.type, ()):
            if isinstance(logs.get(key), int | float):
                scores[key] = float(logs[key])
        if result.type == "choice_accuracy":
            extracted = logs.get("extracted_prediction")
        if result.type == "llm_accuracy":
            verdict, reasoning = logs.get("verdict"), logs.get("reasoning")
    metadata = case.metadata_ or {}
    return Sample(
        id=str(case.index),
        index=case.index,
        subset=metadata.get("subset", ""),
        row_index=metadata.get("row_index", case.index),
        prediction=_astext_of(case.actual_output),
        reference=_astext_of(case.expected_output),
        extracted_answer=extracted,
        scores=scores,
        verdict=verdict,
        reasoning=reasoning,
        errors=errors,
        candidate=candidate,
        status="scored" if len(results) >= state.scorers else state.unscored,
    )


def text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    return " ".join(p.get("text", "") for p in content or [] if p.get("type") == "text")
