"""Each metric's score range and the interval of its mean inside it, for summaries and reports."""

import logging
from typing import Any

from pydantic import ValidationError
from sqlalchemy.orm import Session

from app.evaluations.repository import EvaluationRepository
from app.evaluations.schemas import TERMINAL_STATUSES
from app.metrics import parse_spec
from app.models import Evaluation
from app.runtime import Runtime
from app.stats import BoundedInterval, Bounds, mean_interval
from app.unscoped.evaluation_jobs import UnscopedJobRepository

logger = logging.getLogger("loupe.jobs")

UNIT: Bounds = (0.0, 1.0)


def metric_bounds(spec: dict[str, Any]) -> Bounds:
    """The lowest and highest score a stored metric spec gives (its `score_bounds`)."""
    try:
        return parse_spec(spec).score_bounds()
    except ValidationError:
        # A spec stored before its type's rules tightened: every metric but psnr, ssim and
        # score_model scores in [0, 1].
        return UNIT


def all_in(evaluation: Evaluation, stored: int) -> bool:
    """Whether a metric's `stored` results are all it will have: one for every case, or the
    evaluation finished (a canceled or failed one keeps what it stored, and no more come).

    An open one's every case so far is not every case: no bootstrap of all its scores on each
    read while batches come, and no note saying there are none for good."""
    if evaluation.status in TERMINAL_STATUSES:
        return True
    return stored >= evaluation.total_test_cases and not evaluation.open


def no_scores_note(errored: int, complete: bool) -> str:
    """Why a metric without a single score has no interval, in words."""
    if errored:
        return "no scored results: every result errored" + ("" if complete else " so far")
    return "no scored results" + ("" if complete else " yet")


def metric_interval(
    evaluations: EvaluationRepository,
    evaluation: Evaluation,
    metric_index: int,
    bounds: Bounds,
    sums: tuple[int, float, float],
    complete: bool,
    errored: int = 0,
    stored: dict[str, Any] | None = None,
) -> BoundedInterval:
    """The 95% interval of one metric's mean score: Wilson when every score is at a bound,
    else a BCa bootstrap of the stored scores (read only then, and kept per process for the
    same sums); with no score, null with a note saying why.

    Args:
        sums: (scored results, Σ score, Σ score²), as `metric_summary` keeps them.
        complete: whether every result of the metric is stored.
        errored: the metric's errored results.
        stored: the interval `settle` stored on the metric's summary row (used when made for
            these sums and this range).
    """
    n, total, total_sq = sums
    if stored and stored.get("sums") == [n, total, total_sq] and stored.get("bounds") == [*bounds]:
        ci95 = stored.get("ci95")
        return BoundedInterval(
            (ci95[0], ci95[1]) if ci95 else None, stored.get("method"), stored.get("note")
        )
    if n == 0:
        return BoundedInterval(None, None, no_scores_note(errored, complete))
    return mean_interval(
        n,
        total,
        total_sq,
        bounds,
        lambda: evaluations.metric_scores(evaluation, metric_index),
        complete=complete,
        cache_key=("evaluation", evaluation.id, metric_index),
    )


def settle(session: Session, evaluation_id: str) -> None:
    """Store a completed evaluation's interval of each metric's mean on its summary row, with
    the sums and range it was made for: reads (list pages, the evaluation, the console) then
    bootstrap none of its scores, in no process. Done once it completed, after that commit."""
    jobs = UnscopedJobRepository(session)
    evaluation = jobs.get(evaluation_id)
    if evaluation is None or evaluation.status != "completed":
        return
    evaluations = EvaluationRepository(session, evaluation.tenant_id)
    made: dict[int, dict[str, Any]] = {}
    for row in evaluations.result_summary(evaluation):
        index = row["metric_index"]
        if index >= len(evaluation.metrics):
            continue
        bounds = metric_bounds(evaluation.metrics[index])
        sums = (row["scored"], row["score_sum"], row["score_sq_sum"])
        interval = metric_interval(
            evaluations, evaluation, index, bounds, sums, complete=True, errored=row["errored"]
        )
        made[index] = {
            "sums": list(sums),
            "bounds": list(bounds),
            "ci95": list(interval.ci95) if interval.ci95 else None,
            "method": interval.method,
            "note": interval.note,
        }
    jobs.store_intervals(evaluation.id, made)


def settle_completed(runtime: Runtime, evaluation_id: str) -> None:
    """`settle` in a transaction of its own, once the completion is committed; a failure is
    logged and leaves the intervals to be made on read, as before they were stored."""
    try:
        with runtime.session() as session:
            settle(session, evaluation_id)
            session.commit()
    except Exception:
        logger.exception("the intervals of evaluation %s were not stored", evaluation_id)
