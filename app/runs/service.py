"""Run decisions: select samples, pick scorers, store the run as an evaluation; report."""

import dataclasses
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from sqlalchemy.orm import Session

from app.api.salvage import salvage
from app.candidates.repository import CandidateModelRepository
from app.config import Settings
from app.datasets.repository import DatasetRepository
from app.evaluations import admission, intervals, judging
from app.evaluations import service as evaluations
from app.evaluations.repository import EvaluationRepository
from app.evaluations.schemas import TERMINAL_STATUSES, ClusteredError, ErrorInfo
from app.ids import new_id
from app.metrics import BLEU_KEYS, ROUGE_KEYS, MetricSpecBase, parse_spec
from app.models import Dataset, DatasetRow, Evaluation, Result, Run, Tenant, TestCase
from app.problems import MAX_FIELD_ERRORS, FieldError, ProblemError, field_error, invalid_request
from app.runs.repository import RunRepository
from app.runs.schemas import ReportRow, RunCreate, Sample, SampleError
from app.runs.schemas import Run as RunSchema
from app.stats import BoundedInterval, Bounds, mean_interval
from app.telemetry import logs

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
_MAX_KEY = 32
OVERALL = "OVERALL"
_MAX_FIELD_ERRORS = 100


def _select(rows: list[DatasetRow], subsets: list[str], limit: int | float | None) -> list[Any]:
    by_subset: dict[str, list[DatasetRow]] = defaultdict(list)
    for row in rows:
        by_subset[row.subset].append(row)
    selected = []
    for name in subsets:
        subset_rows = by_subset[name]
        if isinstance(limit, float):
            subset_rows = subset_rows[: int(len(subset_rows) * limit)]
        elif isinstance(limit, int):
            subset_rows = subset_rows[:limit]
        selected.extend(subset_rows)
    return selected


_SPEAKERS = {
    "system": "System",
    "developer": "Developer",
    "user": "User",
    "assistant": "Assistant",
    "tool": "Tool",
}


def _question(messages: list[dict[str, Any]]) -> list[Any]:
    """What a judge is shown as the question: every message of the conversation, each after
    its speaker (`**User**:`), as EvalScope's judge transcript, with images in place."""
    parts: list[Any] = []
    for message in messages:
        role = message.get("role", "")
        speaker = f"**{_SPEAKERS.get(role, role)}**:"
        content = message.get("content")
        if not isinstance(content, list):
            parts.append({"type": "text", "text": f"{speaker} {content or ''}".rstrip()})
            continue
        parts.append({"type": "text", "text": speaker})
        for part in content:
            if part.get("type") == "input_audio":
                parts.append({"type": "text", "text": "[an audio clip]"})
            else:
                parts.append(part)
    return parts or [{"type": "text", "text": ""}]


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return " ".join(p.get("text", "") for p in content or [] if p.get("type") == "text")


def _metric_specs(kind: str, payload: RunCreate) -> list[dict[str, Any]]:
    rule: dict[str, Any] = (
        {"type": "rouge", "name": "rule", "variant": "l", "statistic": "r"}
        if kind == "vqa"
        else {"type": "choice_accuracy", "name": "accuracy"}
    )
    specs = [rule]
    if payload.judge.strategy != "rule":
        judged: dict[str, Any] = {"type": "llm_accuracy", "name": "acc"}
        if payload.judge.model:
            judged["model"] = payload.judge.model
        if payload.judge.model_id:
            judged["judge"] = {"model_id": payload.judge.model_id}
        if payload.judge.strategy == "llm_recall":
            # The benchmark's own rule decides whether the judge is asked: ROUGE-L recall for
            # VQA, the extracted answer's accuracy for MCQ (whose reference is only a label).
            judged["rule_first"] = True
            if kind == "mcq":
                judged["rule"] = "choice_accuracy"
        specs.append(judged)
    # Stored exactly as evaluations store validated specs; the caller's own specs after ours.
    return [parse_spec(spec).model_dump(mode="json", exclude_none=True) for spec in specs] + [
        spec.model_dump(mode="json", exclude_none=True) for spec in payload.metrics or []
    ]


def _judge_errors(errors: list[FieldError], builtin: int, payload: RunCreate) -> list[FieldError]:
    """Judge errors where the run's request has them: the scorers `judge` implies come first
    (their errors are `judge`'s), then the caller's own `metrics`."""
    placed = []
    for error in errors:
        found = re.match(r"metrics\[(\d+)\](.*)", error.loc)
        index = int(found.group(1)) if found else 0
        if index < builtin:
            where: list[str | int] = (
                ["judge", "model_id"] if payload.judge.model_id else ["judge", "strategy"]
            )
        else:
            rest = [part for part in (found.group(2) if found else "").split(".") if part]
            where = ["metrics", index - builtin, *rest]
        placed.append(field_error(where, error.msg, error.type))
    return placed


def _extra_metric_errors(
    payload: RunCreate, selected: list[DatasetRow], predictions: dict[tuple[str, int], str]
) -> list[FieldError]:
    """What the run's own metric specs cannot have: a name its report already uses or cannot
    hold, a test-case field samples lack, a sample a metric cannot take (image counts)."""
    errors: list[FieldError] = []
    taken = {*SCORER_NAMES, *(key for keys in REPORT_KEYS.values() for key in keys), OVERALL}
    seen: set[str] = set()
    for position, spec in enumerate(payload.metrics or []):
        name = spec.display_name
        if name in taken or name in seen or len(name) > _MAX_KEY:
            errors.append(
                field_error(
                    ["metrics", position, "name"],
                    f"{name!r} cannot be a report key: give a name of at most {_MAX_KEY} "
                    "characters that the run's scorers and other metrics do not use",
                    "report_key",
                )
            )
        seen.add(name)
        for field in spec.required_test_case_fields():
            missing = (
                [row for row in selected if not row.answer]
                if field == "expected_output"
                else selected
                if field in ("context", "retrieval_context")
                else []
            )
            if missing:
                errors.append(
                    field_error(
                        ["metrics", position],
                        f"needs {field}, which {len(missing)} selected samples do not have "
                        f"(first: {missing[0].subset}/{missing[0].index})",
                        "missing_for_metric",
                    )
                )
        if type(spec).test_case_problems is MetricSpecBase.test_case_problems:
            continue  # the spec has no per-case checks
        for row in selected:
            # The candidate's answer is text: only given predictions are known at submit.
            stand_in = SimpleNamespace(
                input=_question(row.messages),
                actual_output=predictions.get((row.subset, row.index), ""),
                expected_output=row.answer or "",
                context=None,
                retrieval_context=None,
                metadata={"subset": row.subset, "row_index": row.index},
            )
            problems = spec.test_case_problems(stand_in)
            if problems:
                field, message = problems[0]
                errors.append(
                    field_error(
                        ["metrics", position],
                        f"sample {row.subset}/{row.index}: {field} {message}",
                        "unfit_for_metric",
                    )
                )
                break
    return errors


def _predictions(
    payload: RunCreate, selected: list[DatasetRow], subsets: list[str]
) -> tuple[dict[tuple[str, int], str], list[FieldError]]:
    wanted = {(row.subset, row.index) for row in selected}
    found: dict[tuple[str, int], str] = {}
    errors: list[FieldError] = []
    for position, item in enumerate(payload.predictions or []):
        subset = item.subset
        if subset is None and len(subsets) == 1:
            subset = subsets[0]
        key = (subset or "", item.index)
        if subset is None:
            message = "name the subset: the run has several"
        elif key not in wanted:
            message = f"no selected sample {subset}/{item.index}"
        elif key in found:
            message = f"a second prediction for {subset}/{item.index}"
        else:
            found[key] = item.prediction
            continue
        errors.append(field_error(["predictions", position], message, "unknown_sample"))
    missing = [row for row in selected if (row.subset, row.index) not in found]
    for row in missing[: max(0, _MAX_FIELD_ERRORS - len(errors))]:
        errors.append(
            field_error(
                ["predictions"], f"no prediction for sample {row.subset}/{row.index}", "missing"
            )
        )
    return found, errors


# Where a sample's cluster (the value of the run's `cluster_by` column) sits in its metadata.
CLUSTER = "cluster"


def _first_image(messages: list[dict[str, Any]]) -> str | None:
    for message in messages:
        content = message.get("content")
        for part in content if isinstance(content, list) else ():
            if part.get("type") == "image_url":
                url = part.get("image_url")
                return url.get("url") if isinstance(url, dict) else url
    return None


def _cluster(row: DatasetRow, column: str) -> Any:
    """The sample's value of a dataset column: `subset`, `image` (its first image, by content)
    or a key the format keeps in `extra` (VLMEvalKit's `category`, `index`)."""
    if column == "subset":
        return row.subset
    if column == "image":
        return _first_image(row.messages)
    return (row.extra or {}).get(column)


def _clusters(selected: list[DatasetRow], column: str | None) -> tuple[list[Any], list[FieldError]]:
    if column is None:
        return [None] * len(selected), []
    clusters = [_cluster(row, column) for row in selected]
    missing = [row for row, cluster in zip(selected, clusters, strict=True) if cluster is None]
    if not missing:
        return clusters, []
    return clusters, [
        field_error(
            ["cluster_by"],
            f"sample {missing[0].subset}/{missing[0].index} has no {column!r} "
            f"({len(missing)} samples in all); use subset, image or a column every "
            "selected row has",
            "missing_column",
        )
    ]


@dataclass
class _Checked:
    """A run request's problems, and what was read on the way (for a valid one)."""

    errors: list[FieldError] = dataclasses.field(default_factory=list)
    dataset: Dataset | None = None
    subsets: list[str] = dataclasses.field(default_factory=list)
    selected: list[DatasetRow] = dataclasses.field(default_factory=list)
    clusters: list[Any] = dataclasses.field(default_factory=list)
    predictions: dict[tuple[str, int], str] = dataclasses.field(default_factory=dict)
    metrics: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    judge: dict[str, Any] | None = None
    endpoint_id: str | None = None


def _check(
    session: Session,
    tenant: Tenant,
    payload: RunCreate,
    settings: Settings,
    refused: frozenset[str] = frozenset(),
) -> _Checked:
    """Every problem of a run request the schema could not see, in one list: the dataset,
    model and webhook, subsets, the selection, clusters, predictions, metrics and judges.
    `refused`: fields whose schema failed (a salvaged body), which are left unchecked."""
    checked = _Checked()
    errors = checked.errors
    if "dataset_id" not in refused:
        checked.dataset = DatasetRepository(session, tenant.id).get(payload.dataset_id)
        if checked.dataset is None:
            errors.append(field_error(["dataset_id"], "no such dataset", "not_found"))
    model_repo = CandidateModelRepository(session, tenant.id)
    if payload.model_id is not None and model_repo.get(payload.model_id) is None:
        errors.append(field_error(["model_id"], "no such model", "not_found"))
    if payload.webhook_url is not None:
        endpoint = evaluations.webhook_service.endpoint_for_url(
            session, tenant.id, payload.webhook_url
        )
        if endpoint is None:
            errors.append(
                field_error(["webhook_url"], "not a registered webhook endpoint", "unregistered")
            )
        else:
            checked.endpoint_id = endpoint.id
    dataset = checked.dataset
    if dataset is not None:
        names = [subset["name"] for subset in dataset.subsets]
        unknown = False
        for position, name in enumerate(payload.subsets or []):
            if name not in names:
                unknown = True
                errors.append(
                    field_error(["subsets", position], f"not a subset of the dataset: {names}")
                )
        checked.subsets = list(dict.fromkeys(payload.subsets or names))
        # A refused subsets or limit would make any selection a guess.
        if not unknown and not refused & {"subsets", "limit"}:
            rows = list(DatasetRepository(session, tenant.id).rows(dataset, checked.subsets))
            checked.selected = _select(rows, checked.subsets, payload.limit)
            if not checked.selected and "limit" not in refused:
                errors.append(field_error(["limit"], "selects no samples", "empty"))
    selected = checked.selected
    if selected:
        checked.clusters, cluster_errors = _clusters(selected, payload.cluster_by)
        errors.extend(cluster_errors)
        if payload.predictions is not None:
            checked.predictions, prediction_errors = _predictions(
                payload, selected, checked.subsets
            )
            errors.extend(prediction_errors)
        if payload.metrics:
            errors.extend(_extra_metric_errors(payload, selected, checked.predictions))
    if "judge" in refused or "metrics" in refused:
        return checked
    # The kind only picks the scorer that needs no judge: judges are checked without a dataset.
    checked.metrics = _metric_specs(selected[0].kind if selected else "vqa", payload)
    checked.judge, judge_errors = judging.resolve(
        session,
        tenant.id,
        settings,
        [parse_spec(spec) for spec in checked.metrics],
        None,
        judge_path=["judge"],
        metric_path=["metrics"],
    )
    builtin = len(checked.metrics) - len(payload.metrics or [])
    errors.extend(_judge_errors(judge_errors, builtin, payload))
    return checked


def body_problems(
    session: Session, tenant: Tenant, settings: Settings, body: Mapping[str, Any]
) -> list[FieldError]:
    """The problems of a run request that failed its schema, beyond the schema's own."""
    payload, refused = salvage(RunCreate, body)
    return _check(session, tenant, payload, settings, refused).errors[:MAX_FIELD_ERRORS]


def create(session: Session, tenant: Tenant, payload: RunCreate, settings: Settings) -> Evaluation:
    """Validate and store a queued run: an evaluation of kind `run`, one case per sample."""
    checked = _check(session, tenant, payload, settings)
    if checked.errors:
        raise invalid_request(checked.errors)
    assert checked.dataset is not None  # no errors: the dataset was found
    dataset, subsets, selected = checked.dataset, checked.subsets, checked.selected
    clusters, predictions, metrics = checked.clusters, checked.predictions, checked.metrics
    judge, endpoint_id = checked.judge, checked.endpoint_id
    given = payload.predictions is not None
    # Last, once the submission is known to be valid: the tenant row stays locked until commit.
    admission.admit(
        session,
        tenant,
        settings,
        test_cases=(len(selected), ["limit"]),
        metrics=(len(payload.metrics or []), ["metrics"]),
    )
    evaluation = Evaluation(
        id=new_id("run"),
        kind="run",
        tenant_id=tenant.id,
        name=payload.name,
        metadata_=payload.metadata or {},
        metrics=metrics,
        judge=judge,
        webhook_endpoint_id=endpoint_id,
        use_cache=payload.cache,
        cluster_by=payload.cluster_by,
        status="queued",
        request_id=logs.request_id.get(),
        total_test_cases=len(selected),
        dispatch_attempts=1,
    )
    cases = [
        {
            "evaluation_id": evaluation.id,
            "index": index,
            "client_id": f"{row.subset}/{row.index}",
            "input": _question(row.messages),
            "actual_output": predictions.get((row.subset, row.index)),
            "expected_output": row.answer or "",
            "messages": None if given else row.messages,
            "metadata_": {"subset": row.subset, "row_index": row.index, "line": row.line}
            | ({"labels": row.labels} if row.labels else {})
            | ({CLUSTER: clusters[index]} if payload.cluster_by else {}),
        }
        for index, row in enumerate(selected)
    ]
    EvaluationRepository(session, tenant.id).add(evaluation, cases)
    RunRepository(session, tenant.id).add(
        Run(
            id=evaluation.id,
            tenant_id=tenant.id,
            dataset_id=dataset.id,
            model_id=payload.model_id,
            options={
                "subsets": subsets,
                "limit": payload.limit,
                "generation": payload.generation.model_dump(exclude_none=True),
                "judge": payload.judge.model_dump(),
                "uses_model": payload.model_id is not None,
                # Report keys of the run's own metric specs, in their order.
                "metric_keys": [spec.display_name for spec in payload.metrics or []],
            },
        )
    )
    return evaluation


def get_or_404(session: Session, tenant: Tenant, run_id: str) -> tuple[Run, Evaluation]:
    found = RunRepository(session, tenant.id).get(run_id)
    if found is None:
        raise ProblemError(404, "Not Found", f"No run {run_id!r}.", slug="not-found")
    return found


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
        where: evaluations.clustered_error(
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
            rows.append(
                ReportRow(
                    metric=key,
                    subset=subset,
                    num=num,
                    score=round(total / num, 4),
                    **evaluations.error_bars(
                        num,
                        total,
                        total_sq,
                        passed,
                        failed,
                        clustered.get((key, subset)),
                        interval,
                    ),
                )
            )
    return rows + _unscored_rows(session, evaluation, {row.metric for row in rows}, complete)


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
                        **evaluations.error_bars(
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
    summary = evaluations.to_schema(session, evaluation, stalled_after)
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


def _as_text(value: Any) -> str | None:
    if value is None or isinstance(value, str):
        return value
    return _text(value)


def samples(session: Session, run: Run, after: int | None, limit: int) -> tuple[list[Sample], bool]:
    """A page of samples with prediction, extracted answer, scores and judge reasoning."""
    pairs, has_more = samples_with_cases(session, run, after, limit)
    return [sample for sample, _ in pairs], has_more


def samples_with_cases(
    session: Session, run: Run, after: int | None, limit: int
) -> tuple[list[tuple[Sample, TestCase]], bool]:
    """A page of samples, each with its stored test case (the question and media sent)."""
    cases, results = RunRepository(session, run.tenant_id).sample_page(run, after, limit)
    by_case: dict[int, list[Result]] = defaultdict(list)
    for result in results:
        by_case[result.test_case_index].append(result)
    pairs = [(_sample(case, by_case[case.index]), case) for case in cases[:limit]]
    return pairs, len(cases) > limit


def samples_with_conversations(
    session: Session, run: Run, after: int | None, limit: int
) -> tuple[list[tuple[Sample, list[dict[str, Any]]]], bool]:
    """A page of samples, each with the conversation it asks about: the dataset row's messages,
    text, images and audio as stored (a test case's `input` is the judge's transcript, where
    speakers are markdown labels and audio is words)."""
    pairs, has_more = samples_with_cases(session, run, after, limit)
    rows = DatasetRepository(session, run.tenant_id).rows_at(
        run.dataset_id, [(sample.subset, sample.row_index) for sample, _ in pairs]
    )
    conversations = []
    for sample, case in pairs:
        row = rows.get((sample.subset, sample.row_index))
        messages = case.messages or (row.messages if row is not None else None)
        conversations.append((sample, messages or [{"role": "user", "content": case.input}]))
    return conversations, has_more


def _sample(case: TestCase, results: list[Result]) -> Sample:
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
        prediction=_as_text(case.actual_output),
        reference=_as_text(case.expected_output),
        extracted_answer=extracted,
        scores=scores,
        verdict=verdict,
        reasoning=reasoning,
        errors=errors,
        candidate=candidate,
    )
