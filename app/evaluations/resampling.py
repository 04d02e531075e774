"""A metric judged more than once per test case: `samples` judge calls from each judge of its
`panel` (or its one judge), none answered from the judge cache, aggregated into one result
that keeps every judgment and how far they agree (`stability`).

Answers that do not judge the output (a G-Eval's steps, a context's truths) are still made
once and shared: the samples differ only where the output is judged.
"""

import asyncio
import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.judges import JudgeUsage as Usage
from app.metrics import (
    MetricContext,
    MetricError,
    MetricResult,
    MetricTestCase,
    measure,
    strict_scored,
)
from app.stats import Judgment, verdict


@dataclass(frozen=True)
class Member:
    """One judge of the metric: its context (its client and shared answers), who it is, and
    its weight in the aggregate."""

    ctx: MetricContext
    model: str | None
    model_id: str | None
    host: str | None
    weight: float = 1.0


async def measure_repeated(
    spec: Any,
    case: MetricTestCase,
    members: Sequence[Member],
    *,
    samples: int,
    aggregate: str,
    panel: bool,
    temperature: float | None = None,
) -> MetricResult:
    """Every member's `samples` judgments of the case, run together, made into one result."""
    sampling = {"temperature": temperature} if temperature is not None else None
    if panel and getattr(spec, "model", None):
        # Each member asks for its own model (its context's), as recorded and priced: a spec
        # stored with one `model` for the whole panel (refused at submit since) asked every
        # member's endpoint for that one.
        spec = spec.model_copy(update={"model": None})
    runs = [
        (number, sample, member)
        for number, member in enumerate(members)
        for sample in range(samples)
    ]
    results = await asyncio.gather(
        *(
            measure(spec, case, dataclasses.replace(member.ctx, cache=None, sampling=sampling))
            for _, _, member in runs
        )
    )
    usage = Usage()
    for result in results:
        usage.add(result.usage)
    if all(_undecided_by_judge(result) for result in results):
        # Decided without a judge (llm_accuracy's rule): one answer, not K judgments.
        return _decided_alone(results[0], samples, aggregate, usage)
    judgments = [
        Judgment(result.score, member.weight)
        for (_, _, member), result in zip(runs, results, strict=True)
    ]
    made = verdict(judgments, spec.threshold, aggregate)  # type: ignore[arg-type]
    errored = sum(result.error is not None for result in results)
    stability: dict[str, Any] = {
        "samples": samples,
        "aggregate": aggregate,
        "scores": [result.score for result in results],
        "errored": errored,
        # Every judgment asked for was made: a failed one does not vote, and says so here.
        "complete": errored == 0,
        "judgments": [
            {
                "member": number if panel else None,
                "sample": sample,
                "score": result.score,
                "passed": result.passed,
                "reason": result.reason,
                "error": result.error.as_dict() if result.error else None,
            }
            for (number, sample, _), result in zip(runs, results, strict=True)
        ],
        "panel": _panel(spec, members, results, samples, aggregate) if panel else None,
    }
    by_model = _usage_by_model(runs, results) if panel else None
    if made is None:
        first = next(result for result in results if result.error is not None)
        # No judgment at all: neither fragile nor steady.
        stability.update(scored=0, passed=0, spread=None, std=None, fragile=None)
        stability["all_passed"] = False
        failed = MetricResult.failure(
            spec.threshold, first.error or MetricError("judge_error", "no judgment was made")
        )
        logs = _with_calls(dict(first.logs), results, usage)
        failed.logs = _panel_logs(logs, members) if panel else logs
        failed.usage, failed.stability, failed.usage_by_model = usage, stability, by_model
        return failed
    stability.update(
        scored=made.scored,
        passed=made.passing,
        spread=made.spread,
        std=made.std,
        fragile=made.fragile,
        # pass^k: every judgment passed, none failed or errored.
        all_passed=made.all_passed and made.scored == len(results),
    )
    # The judgment nearest the aggregate speaks for it: its reason and its logs. A median or a
    # majority is one judgment's score; a mean is no judgment's, so its logs stand apart.
    nearest = min(
        (result for result in results if result.score is not None),
        key=lambda result: abs(result.score - made.score),  # type: ignore[operator]
    )
    logs = dict(nearest.logs) if aggregate != "mean" else _mean_logs(nearest, results)
    logs = _with_calls(logs, results, usage)
    score, reason = made.score, nearest.reason
    if getattr(spec, "strict_mode", False):
        # Strict mode stores 0 or 1, as each judgment did: a mean under the threshold is 0.
        score, reason = strict_scored(score, spec.threshold, True, reason, logs)
    return MetricResult(
        score=score,
        passed=made.passed,
        threshold=spec.threshold,
        reason=reason,
        usage=usage,
        logs=_panel_logs(logs, members) if panel else logs,
        stability=stability,
        usage_by_model=by_model,
    )


def _mean_logs(nearest: MetricResult, results: Sequence[MetricResult]) -> dict[str, Any]:
    """A mean's logs: the nearest judgment's apart, the judge that made them all beside it,
    and `position_consistent` (pairwise's) false when any judgment's two orders disagreed,
    which the metric's `position_inconsistent` counts."""
    logs: dict[str, Any] = {"nearest_judgment": nearest.logs}
    for key in ("model", "judge"):
        if key in nearest.logs:
            logs[key] = nearest.logs[key]
    consistent = [
        result.logs["position_consistent"]
        for result in results
        if "position_consistent" in result.logs
    ]
    if consistent:
        logs["position_consistent"] = all(consistent)
    return logs


def _with_calls(
    logs: dict[str, Any], results: Sequence[MetricResult], usage: Usage
) -> dict[str, Any]:
    """`logs` with the calls of every judgment, as `usage` counts them, not one judgment's:
    answers from a cache, requests never answered, and repair requests (each a call)."""
    logs["cached_calls"] = sum(result.logs.get("cached_calls", 0) for result in results)
    repaired = [name for result in results for name in result.logs.get("repaired_calls", ())]
    for key, value in (("failed_calls", usage.failed_calls), ("repaired_calls", repaired)):
        if value:
            logs[key] = value
        else:
            logs.pop(key, None)
    return logs


def _undecided_by_judge(result: MetricResult) -> bool:
    """True for a result no judge call made or tried (a rule decided it)."""
    return result.error is None and result.usage.calls == 0 and result.usage.failed_calls == 0


def _decided_alone(
    result: MetricResult, samples: int, aggregate: str, usage: Usage
) -> MetricResult:
    result.usage = usage
    result.stability = {
        "samples": samples,
        "aggregate": aggregate,
        "decided_without_judge": True,
        "scores": [result.score],
        "scored": 1,
        "passed": int(bool(result.passed)),
        "errored": 0,
        "complete": True,
        "spread": 0.0,
        "std": None,
        "fragile": False,
        "all_passed": bool(result.passed),
        "judgments": [
            {
                "member": None,
                "sample": 0,
                "score": result.score,
                "passed": result.passed,
                "reason": result.reason,
                "error": None,
            }
        ],
        "panel": None,
    }
    return result


def _panel_logs(logs: dict[str, Any], members: Sequence[Member]) -> dict[str, Any]:
    """A panel's result names every member's model as its judge, not one member's."""
    models = " + ".join(str(member.model) for member in members)
    logs["model"] = models
    logs["judge"] = {
        "model": models,
        "model_id": None,
        "host": None,
        "members": [
            {"model": member.model, "model_id": member.model_id, "host": member.host}
            for member in members
        ],
    }
    return logs


def _panel(
    spec: Any,
    members: Sequence[Member],
    results: Sequence[MetricResult],
    samples: int,
    aggregate: str,
) -> list[dict[str, Any]]:
    """Each member's own verdict over its samples, with the reason nearest to it."""
    shown = []
    for number, member in enumerate(members):
        own = results[number * samples : (number + 1) * samples]
        made = verdict([Judgment(result.score) for result in own], spec.threshold, aggregate)  # type: ignore[arg-type]
        reason = None
        if made is not None:
            reason = min(
                (result for result in own if result.score is not None),
                key=lambda result: abs(result.score - made.score),  # type: ignore[operator]
            ).reason
        shown.append(
            {
                "member": number,
                "model": member.model,
                "model_id": member.model_id,
                "host": member.host,
                "weight": member.weight,
                "score": made.score if made else None,
                "passed": made.passed if made else None,
                "reason": reason,
                "errored": sum(result.error is not None for result in own),
            }
        )
    return shown


def _usage_by_model(
    runs: Sequence[tuple[int, int, Member]], results: Sequence[MetricResult]
) -> list[tuple[str | None, Usage]]:
    totals: dict[str | None, Usage] = {}
    for (_, _, member), result in zip(runs, results, strict=True):
        totals.setdefault(member.model, Usage()).add(result.usage)
    return list(totals.items())
