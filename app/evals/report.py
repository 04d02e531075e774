"""An eval run as the SDK reads it: counts per row and criterion, usage per model, output items.

A row (output item) is counted once every criterion has graded it: `error` when any grade is
an error (or the candidate call failed), `pass` when every criterion passed, else `fail`.
"""

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from app.evals.data_source import sampling_used
from app.evals.repository import EvalRunRepository
from app.evals.schemas import (
    EvalRunCriterionCounts,
    EvalRunError,
    EvalRunModelUsage,
    EvalRunObject,
    EvalRunResultCounts,
    OutputItem,
)
from app.evaluations.read_model import recovery
from app.evaluations.repository import EvaluationRepository
from app.metrics import TemplateError, flatten
from app.models import EvalDefinition, EvalRun, Evaluation, Result, TestCase

_ITEM_PREFIX = "outputitem_"
_TEMPLATE_MISSING = TemplateError.type


@dataclass
class _Row:
    graded: int = 0
    errored: bool = False
    passed: int = 0


@dataclass
class Grades:
    """Every row's status and each criterion's pass/fail counts over rows not errored."""

    criteria: int
    statuses: dict[int, str] = field(default_factory=dict)
    per_criterion: list[list[int]] = field(default_factory=list)

    @classmethod
    def of(cls, session: Session, evaluation: Evaluation) -> "Grades":
        criteria = len(evaluation.metrics)
        rows: dict[int, _Row] = defaultdict(_Row)
        by_criterion: dict[int, list[tuple[int, bool]]] = defaultdict(list)
        runs = EvalRunRepository(session, evaluation.tenant_id)
        for index, metric_index, passed, errored in runs.grades(evaluation):
            row = rows[index]
            row.graded += 1
            row.errored = row.errored or bool(errored)
            row.passed += 1 if passed else 0
            if not errored:
                by_criterion[metric_index].append((index, bool(passed)))
        grades = cls(criteria)
        for index, row in rows.items():
            if row.graded < criteria:
                continue
            grades.statuses[index] = (
                "error" if row.errored else "pass" if row.passed == criteria else "fail"
            )
        grades.per_criterion = [[0, 0] for _ in range(criteria)]
        for metric_index, graded in by_criterion.items():
            for index, passed in graded:
                if grades.statuses.get(index) in ("pass", "fail"):
                    grades.per_criterion[metric_index][0 if passed else 1] += 1
        return grades

    def counts(self) -> EvalRunResultCounts:
        values = list(self.statuses.values())
        return EvalRunResultCounts(
            total=len(values),
            errored=values.count("error"),
            failed=values.count("fail"),
            passed=values.count("pass"),
        )


def _usage(
    session: Session, definition: EvalDefinition, run: EvalRun, evaluation: Evaluation
) -> list[EvalRunModelUsage]:
    totals: dict[str, list[int]] = {}
    summaries = EvaluationRepository(session, evaluation.tenant_id).result_summary(evaluation)
    if run.model:
        # The sampled model's calls, counted once per row as results are stored.
        sampled = totals.setdefault(run.model, [0, 0, 0, 0])
        for summary in summaries:
            sampled[0] += summary["candidate_calls"]
            sampled[1] += summary["candidate_prompt_tokens"]
            sampled[2] += summary["candidate_completion_tokens"]
            sampled[3] += summary["candidate_cached_prompt_tokens"]
    # Graders' calls are the results' judge usage, summed per criterion as results are stored.
    models = [criterion.get("model") for criterion in definition.testing_criteria]
    # A `cosine` text_similarity names no model: its calls are its results' embedding model's.
    unnamed = [
        index
        for index, criterion in enumerate(definition.testing_criteria)
        if criterion.get("evaluation_metric") == "cosine"
    ]
    if unnamed:
        found = EvalRunRepository(session, evaluation.tenant_id).result_models(evaluation, unnamed)
        models = [found.get(index, model) for index, model in enumerate(models)]
    for summary in summaries:
        index = summary["metric_index"]
        model = models[index] if index < len(models) else None
        if not model or not summary["calls"]:
            continue
        total = totals.setdefault(model, [0, 0, 0, 0])
        total[0] += summary["calls"]
        total[1] += summary["prompt_tokens"]
        total[2] += summary["completion_tokens"]
        total[3] += summary["cached_prompt_tokens"]
    return [
        EvalRunModelUsage(
            model_name=name,
            invocation_count=calls,
            prompt_tokens=prompt,
            completion_tokens=completion,
            total_tokens=prompt + completion,
            cached_tokens=cached,
        )
        for name, (calls, prompt, completion, cached) in totals.items()
        if calls
    ]


def run_schema(
    session: Session,
    definition: EvalDefinition,
    run: EvalRun,
    evaluation: Evaluation,
    base_url: str,
    stalled_after: float | None = None,
) -> EvalRunObject:
    """The run as the SDK reads it; `stalled_after` as in `evaluations.to_schema` (`recovery`)."""
    grades = Grades.of(session, evaluation)
    error = evaluation.error
    return EvalRunObject(
        id=run.id,
        eval_id=run.eval_id,
        name=evaluation.name or "",
        model=run.model,
        status=evaluation.status,  # type: ignore[arg-type]
        created_at=int(evaluation.created_at.timestamp()),
        data_source=run.data_source,
        metadata=evaluation.metadata_ or {},
        # The console page of the run's evaluation (a run is one): readable in a browser.
        report_url=f"{base_url.rstrip('/')}/console/evaluations/{run.id}",
        result_counts=grades.counts(),
        per_model_usage=_usage(session, definition, run, evaluation),
        per_testing_criteria_results=[
            EvalRunCriterionCounts(
                testing_criteria=criterion["id"], passed=counts[0], failed=counts[1]
            )
            for criterion, counts in zip(
                definition.testing_criteria, grades.per_criterion, strict=False
            )
        ],
        error=EvalRunError(code=error.get("type", "error"), message=error.get("message", ""))
        if error
        else None,
        recovery=recovery(evaluation, stalled_after),
    )


def item_id(run_id: str, index: int) -> str:
    """`outputitem_` + the run's own hex digits + the row index (8 hex digits)."""
    return f"{_ITEM_PREFIX}{run_id.split('_', 1)[1]}{index:08x}"


def item_index(run_id: str, output_item_id: str) -> int | None:
    """The row index an output item id names within this run, or None."""
    digits = output_item_id.removeprefix(_ITEM_PREFIX)
    run_digits = run_id.split("_", 1)[1]
    if not output_item_id.startswith(_ITEM_PREFIX) or digits[:-8] != run_digits:
        return None
    try:
        return int(digits[-8:], 16)
    except ValueError:
        return None


def _grade(criterion: dict[str, Any], result: Result | None) -> dict[str, Any]:
    logs = (result.logs if result else None) or {}
    grade: dict[str, Any] = {
        "name": criterion["id"],
        "type": criterion["type"],
        "score": result.score if result and result.score is not None else 0.0,
        "passed": bool(result.passed) if result else False,
        "sample": logs.get("grader_sample"),
        # Loupe's additions; the SDK keeps unknown keys readable as attributes.
        "reason": result.reason if result else None,
    }
    if "label" in logs:
        grade["label"] = logs["label"]
    if result is not None and result.error:
        grade["error"] = result.error
    return grade


def _sample(run: EvalRun, case: TestCase, results: list[Result]) -> dict[str, Any]:
    logs = (results[0].logs if results else None) or {}
    candidate = logs.get("candidate") or {}
    prompt = int(candidate.get("prompt_tokens") or 0)
    completion = int(candidate.get("completion_tokens") or 0)
    error = None
    if candidate.get("error") or (case.metadata_ or {}).get("error"):
        failed = next((r.error for r in results if r.error), None) or (case.metadata_ or {}).get(
            "error", {}
        )
        error = {
            "code": failed.get("type") or failed.get("code") or "error",
            "message": failed.get("message", ""),
        }
    else:
        # A grader template naming a path the row lacks errors the item (OpenAI: sample.error).
        missing = next(
            (r.error for r in results if r.error and r.error.get("type") == _TEMPLATE_MISSING),
            None,
        )
        if missing is not None:
            error = {"code": _TEMPLATE_MISSING, "message": missing.get("message", "")}
    output = case.actual_output
    # What the candidate calls used; a jsonl run sampled nothing (nulls).
    sampling = sampling_used(run.data_source) if run.model else {}
    return {
        "input": flatten(case.messages or []),
        "output": [{"role": "assistant", "content": output}] if isinstance(output, str) else [],
        "finish_reason": candidate.get("finish_reason") or "",
        "model": run.model or "",
        "usage": {
            "total_tokens": prompt + completion,
            "completion_tokens": completion,
            "prompt_tokens": prompt,
            "cached_tokens": int(candidate.get("cached_tokens") or 0),
        },
        "error": error,
        "temperature": sampling.get("temperature"),
        "max_completion_tokens": sampling.get("max_completion_tokens"),
        "top_p": sampling.get("top_p"),
        "seed": sampling.get("seed"),
    }


def output_items(
    session: Session,
    definition: EvalDefinition,
    run: EvalRun,
    evaluation: Evaluation,
    grades: Grades,
    indexes: list[int],
) -> list[OutputItem]:
    """The output items of the rows at `indexes` (rows every criterion has graded)."""
    cases, results = EvalRunRepository(session, run.tenant_id).item_page(run, indexes)
    by_row: dict[int, dict[int, Result]] = defaultdict(dict)
    for result in results:
        by_row[result.test_case_index][result.metric_index] = result
    items = []
    for case in cases:
        graded = by_row[case.index]
        ordered = [graded[i] for i in sorted(graded)]
        created = max((r.created_at for r in ordered), default=evaluation.created_at)
        items.append(
            OutputItem(
                id=item_id(run.id, case.index),
                eval_id=run.eval_id,
                run_id=run.id,
                created_at=int(created.timestamp()),
                status=grades.statuses.get(case.index, "error"),  # type: ignore[arg-type]
                datasource_item_id=case.index,
                datasource_item=(case.metadata_ or {}).get("item", {}),
                results=[
                    _grade(criterion, graded.get(position))
                    for position, criterion in enumerate(definition.testing_criteria)
                ],
                sample=_sample(run, case, ordered),
            )
        )
    return items
