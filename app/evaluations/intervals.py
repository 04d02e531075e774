"""Each metric's score range and the interval of its mean inside it, for summaries and reports."""

from typing import Any

from pydantic import ValidationError

from app.evaluations.repository import EvaluationRepository
from app.metrics import parse_spec
from app.models import Evaluation
from app.stats import BoundedInterval, Bounds, mean_interval

UNIT: Bounds = (0.0, 1.0)


def metric_bounds(spec: dict[str, Any]) -> Bounds:
    """The lowest and highest score a stored metric spec gives (its `score_bounds`)."""
    try:
        return parse_spec(spec).score_bounds()
    except ValidationError:
        # A spec stored before its type's rules tightened: every metric but psnr, ssim and
        # score_model scores in [0, 1].
        return UNIT


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
) -> BoundedInterval:
    """The 95% interval of one metric's mean score: Wilson when every score is at a bound,
    else a BCa bootstrap of the stored scores (read only then, and kept per process for the
    same sums); with no score, null with a note saying why.

    Args:
        sums: (scored results, Σ score, Σ score²), as `metric_summary` keeps them.
        complete: whether every result of the metric is stored.
        errored: the metric's errored results.
    """
    n, total, total_sq = sums
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
