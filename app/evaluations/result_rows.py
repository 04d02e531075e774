"""A stored result as a row: what one metric made of one test case, with the judge's and the
candidate's usage priced, and the images the metric was shown."""

from collections.abc import Mapping
from typing import Any, Protocol

from app.config import ModelPrice, Settings
from app.db import utcnow
from app.ids import new_id
from app.judges import JudgeUsage
from app.metrics import MetricError, MetricResult, MetricTestCase
from app.usage.pricing import cost_usd

# An item a cancel stopped before its result was made: its case, metric index and the calls it
# spent (model, usage), filled until its job's shared calls are stopped too.
Canceled = tuple[MetricTestCase, int, list[tuple[str | None, JudgeUsage]]]


def shown_media(media: list[dict[str, Any]] | None, seen: set[str]) -> list[dict[str, Any]]:
    """The case's image log entries for the images this metric was shown, in case order: by
    place (`field:actual_output[1]`), or by digest for an image shown without one."""
    return [
        entry
        for entry in media or []
        if f"field:{entry.get('field')}" in seen or entry.get("sha256") in seen
    ]


# The most a result's integer columns hold (PostgreSQL's integer): a provider's usage report is
# taken up to 10^15 tokens a call, and a result of 3 * 10^9 failed its job's every write on
# PostgreSQL (SQLite took it), leaving the evaluation in progress. No call uses as many.
_MAX_STORED = 2**31 - 1


def _stored(count: int) -> int:
    return min(count, _MAX_STORED)


def result_row(
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
    """The result's row as stored: scores, error, the judge's and the candidate's usage and cost,
    and the images the metric was shown."""
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
        "prompt_tokens": _stored(result.usage.prompt_tokens),
        "completion_tokens": _stored(result.usage.completion_tokens),
        "cached_prompt_tokens": _stored(result.usage.cached_prompt_tokens),
        "judge_cost_usd": _judge_cost(prices, judge_model, result),
        # A judge that only failed is still the model the result's requests went to; a
        # panel's results name each member's model.
        "judge_model": (
            _panel_models(result) or judge_model if usage.calls or usage.failed_calls else None
        ),
        "candidate_model": candidate_model if spent.calls else None,
        "candidate_calls": spent.calls,
        "candidate_failed_calls": spent.failed_calls,
        "candidate_prompt_tokens": _stored(spent.prompt_tokens),
        "candidate_completion_tokens": _stored(spent.completion_tokens),
        "candidate_cached_prompt_tokens": _stored(spent.cached_prompt_tokens),
        "candidate_cost_usd": cost_usd(
            prices,
            candidate_model,
            calls=spent.calls,
            prompt_tokens=spent.prompt_tokens,
            completion_tokens=spent.completion_tokens,
            cached_prompt_tokens=spent.cached_prompt_tokens,
        ),
        # Judged more than once: every judgment, and whether they straddle the threshold.
        "stability": result.stability,
        "fragile": result.stability["fragile"] if result.stability else None,
        # Each image's original and sent sizes, next to whatever the metric logged.
        "logs": {**result.logs, "media": media} if media else result.logs,
        "created_at": utcnow(),
    }


def dropped_rows(
    evaluation_id: str,
    case: MetricTestCase,
    metric_index: int,
    spec: Any,
    spent: list[tuple[str | None, JudgeUsage]],
    prices: Mapping[str, ModelPrice] | None = None,
    *,
    candidate: JudgeUsage | None = None,
    candidate_model: str | None = None,
) -> list[dict[str, Any]]:
    """The row of an item canceled before its result was made, for its calls alone (never
    stored as a result: the job counts its usage, `add_dropped_usage`); none without a call.

    Args:
        candidate: its sample's candidate calls, when no stored result counts them.
    """
    if not spent and not (candidate and (candidate.calls or candidate.failed_calls)):
        return []
    result = MetricResult.failure(spec.threshold, MetricError("canceled", "canceled"))
    for _, usage in spent:
        result.usage.add(usage)
    models = {model for model, _ in spent}
    if len(models) > 1:
        result.usage_by_model = list(spent)
    model = next(iter(models), None)
    row = result_row(
        evaluation_id,
        case,
        metric_index,
        spec,
        result,
        prices=prices,
        judge_model=model,
        candidate=candidate,
        candidate_model=candidate_model,
    )
    return [row]


def _judge_cost(
    prices: Mapping[str, ModelPrice], judge_model: str | None, result: MetricResult
) -> float | None:
    """The judge calls' cost, a panel's each by its member's model (None: one is unpriced)."""
    parts = result.usage_by_model or [(judge_model, result.usage)]
    total = 0.0
    for model, usage in parts:
        cost = cost_usd(
            prices,
            model,
            calls=usage.calls,
            prompt_tokens=usage.prompt_tokens,
            completion_tokens=usage.completion_tokens,
            cached_prompt_tokens=usage.cached_prompt_tokens,
        )
        if cost is None:
            return None
        total += cost
    return total


def _panel_models(result: MetricResult) -> str | None:
    """A panel's models, as `usage?group_by=model` shows them (None: not a panel)."""
    if not result.usage_by_model:
        return None
    return " + ".join(sorted({model or "?" for model, _ in result.usage_by_model}))[:256]


class _CanceledJob(Protocol):
    evaluation_id: str
    specs: list[Any]
    predictor: Any


def canceled_rows(
    job: _CanceledJob, canceled: list[Canceled], charged: set[int], settings: Settings
) -> list[dict[str, Any]]:
    """The rows of a job's canceled items, read once its shared calls have stopped: a shared
    call a cancel cut off then is counted with the calls of the item that made it, and a
    sample's candidate calls no stored result counts (answered, or cut off), with its first
    canceled item. `charged`: the samples whose candidate calls are counted (it grows)."""
    predictor, rows = job.predictor, []
    for case, index, spent in canceled:
        candidate = None
        if predictor is not None and case.index not in charged:
            charged.add(case.index)
            candidate = predictor.usage(case.index)
        rows += dropped_rows(
            job.evaluation_id,
            case,
            index,
            job.specs[index],
            spent,
            settings.model_prices,
            candidate=candidate,
            candidate_model=predictor.model_name if predictor is not None else None,
        )
    return rows
