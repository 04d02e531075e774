"""Why a new queue would stay empty for good: its sources are finished evaluations and its
routing picked none of their results. Refused (422) naming the routing fields that picked
nothing, each with what it considered, rather than made with no items and nothing said; a
queue fed by an online rule or by an evaluation still running is made empty, since the
results it is waiting for are taken in at each claim."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.models import ReviewQueue
from app.problems import FieldError, field_error
from app.review.repository import ReviewQueueRepository

FINISHED = frozenset({"completed", "failed", "canceled"})


@dataclass(frozen=True)
class Taken:
    """One result taken into a queue: why it was routed (None: not offered), and how far its
    score lies from its threshold (None: no threshold)."""

    reason: str | None
    distance: float | None


def problems(
    repo: ReviewQueueRepository,
    queue: ReviewQueue,
    taken: Sequence[Taken],
    scores_shown: bool = True,
) -> list[FieldError]:
    """Why the queue, routing none of `taken` (everything its sources hold), stays empty for
    good; [] when it does not (an item was routed, or a source may still bring results).

    Args:
        scores_shown: the caller reads scores (`read`): how far the closest result lies from
            its threshold is a score, left out for a caller who may not GET it.
    """
    if any(item.reason is not None for item in taken) or queue.online_rule_ids:
        return []
    statuses = repo.evaluation_statuses(queue.evaluation_ids)
    if any(status not in FINISHED for status in statuses.values()):
        return []
    if not taken:
        message = (
            f"the sources (all finished) hold no judged, scored result of metric "
            f"{queue.metric!r}: its results errored, or it has no judge (exact_match and the "
            "other deterministic metrics have no metric version to label); the queue would "
            "stay empty"
        )
        return [field_error(["metric"], message, "nothing_to_review")]
    return _routing_problems(queue.routing, queue.metric, taken, scores_shown)


def _routing_problems(
    routing: Mapping[str, Any], metric: str, taken: Sequence[Taken], scores_shown: bool
) -> list[FieldError]:
    count = len(taken)
    said = (
        f"routing picked none of the {count} judged results of metric {metric!r} in the "
        "sources (all finished), so the queue would stay empty: "
    )
    errors = []
    near = routing.get("near_threshold")
    if near:
        distances = [item.distance for item in taken if item.distance is not None]
        closest = (
            f"the closest is {min(distances):.3g} from its threshold"
            if distances
            else "none has a threshold"
        )
        message = f"{said}none lies within {near['width']:g} of its threshold" + (
            f" ({closest})" if scores_shown else ""
        )
        errors.append(field_error(["routing", "near_threshold", "width"], message, "picked_none"))
    if routing.get("fragile"):
        message = (
            f"{said}none is fragile (a judge sampling more than once that disagreed with itself "
            "across the threshold; a metric judged once never is)"
        )
        errors.append(field_error(["routing", "fragile"], message, "picked_none"))
    share = routing.get("audit_share")
    if share:
        message = (
            f"{said}the audit share of {share:g} drew none of them (each result's draw is fixed "
            "by the queue and the result): raise it, or add `lowest`"
        )
        errors.append(field_error(["routing", "audit_share"], message, "picked_none"))
    return errors
