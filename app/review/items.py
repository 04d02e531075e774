"""A review queue's items as people see them: blind while claimed (the test case and the
metric's scale), with the judge's verdict once they labelled it; the item lookups (404 for one
not in the queue, 410 for one whose evaluation was deleted)."""

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from app.evaluations.read_model import test_case_to_schema
from app.labels import checks as label_checks
from app.labels import service as labels
from app.media.links import MediaUrl
from app.models import (
    Evaluation,
    Label,
    Result,
    ReviewAssignment,
    ReviewItem,
    ReviewQueue,
    TestCase,
)
from app.problems import FieldError, ProblemError, not_found
from app.review.repository import LABELLED, RELEASED, WITHDRAWN, ReviewQueueRepository
from app.review.schemas import JudgeVerdict, Scale
from app.review.schemas import ReviewItem as ReviewItemSchema


@dataclass(frozen=True)
class ItemView:
    """An item as the console shows it to `actor`: the stored test case (media as blob
    references), the metric's scale, and once they labelled it their label and the judge's."""

    item: ReviewItem
    test_case: TestCase
    metric: str
    metric_type: str
    scale: tuple[float, float]
    threshold: float | None
    status: str
    expires_at: datetime
    label: Label | None
    judge: JudgeVerdict | None


def view(
    session: Session, tenant_id: str, actor: str, queue: ReviewQueue, item: ReviewItem
) -> ItemView:
    """What `actor` may see of an item: blind while they hold it, the judge once they
    labelled it; 404 for an item never offered to them (or given back)."""
    repo = ReviewQueueRepository(session, tenant_id)
    assignment = repo.assignment(item, actor)
    if assignment is None or assignment.status in (RELEASED, WITHDRAWN):
        raise item_not_found(queue, item.id)
    result, evaluation = judged(repo, item)
    test_case = repo.test_case(item)
    assert test_case is not None
    given = None
    judge = None
    if assignment.status == LABELLED:
        given = next(
            (
                row
                for row in labels.of_item(session, tenant_id, item.metric_version, item.item_key)
                if row.actor == actor
            ),
            None,
        )
        judge = JudgeVerdict(
            score=result.score,
            passed=result.passed,
            threshold=result.threshold,
            reason=result.reason,
        )
    return ItemView(
        item=item,
        test_case=test_case,
        metric=result.metric,
        metric_type=result.type,
        scale=scale_of(evaluation, result),
        threshold=result.threshold,
        status=assignment.status,
        expires_at=assignment.expires_at,
        label=given,
        judge=judge,
    )


def item_or_404(session: Session, tenant_id: str, queue: ReviewQueue, item_id: str) -> ReviewItem:
    """The queue's item `item_id`; 404 naming it otherwise."""
    return item_in(ReviewQueueRepository(session, tenant_id), queue, item_id)


def scale_of(evaluation: Evaluation, result: Result) -> tuple[float, float]:
    spec = (
        evaluation.metrics[result.metric_index]
        if result.metric_index < len(evaluation.metrics)
        else {}
    )
    return labels.score_bounds(spec) if spec else (0.0, 1.0)


def item_not_found(queue: ReviewQueue, item_id: str) -> ProblemError:
    return not_found(
        f"No item {item_id!r} in review queue {queue.id!r}.", field=["path", "item_id"]
    )


def item_in(repo: ReviewQueueRepository, queue: ReviewQueue, item_id: str) -> ReviewItem:
    item = repo.item(queue, item_id)
    if item is None:
        raise item_not_found(queue, item_id)
    return item


def judged(repo: ReviewQueueRepository, item: ReviewItem) -> tuple[Result, Evaluation]:
    result = repo.result(item.result_id)
    evaluation = repo.evaluation(item.evaluation_id)
    if result is None or evaluation is None:
        raise ProblemError(
            410,
            "Gone",
            f"The result of item {item.id!r} was deleted with its evaluation.",
            slug="item-gone",
            field=["path", "item_id"],
        )
    return result, evaluation


def shown(
    session: Session,
    tenant_id: str,
    queue: ReviewQueue,
    item: ReviewItem,
    assignment: ReviewAssignment,
    media_url: MediaUrl,
) -> ReviewItemSchema:
    repo = ReviewQueueRepository(session, tenant_id)
    result, evaluation = judged(repo, item)
    test_case = repo.test_case(item)
    assert test_case is not None
    low, high = scale_of(evaluation, result)
    return ReviewItemSchema(
        id=item.id,
        queue_id=queue.id,
        metric=result.metric,
        metric_type=result.type,
        metric_version=item.metric_version,
        scale=Scale(min=low, max=high),
        threshold=result.threshold,
        test_case=test_case_to_schema(test_case, media_url),
        expires_at=assignment.expires_at,
    )


def label_body_problems(
    session: Session, tenant_id: str, queue_id: str, item_id: str, body: Mapping[str, Any]
) -> list[FieldError]:
    """A label body the schema refused, checked on: its `value` against the scale of the
    item's metric (a queue or item not the tenant's is left to the route's 404)."""
    repo = ReviewQueueRepository(session, tenant_id)
    queue = repo.get_by_id(queue_id)
    item = None if queue is None else repo.item(queue, item_id)
    if item is None:
        return []
    return label_checks.value_problems(session, tenant_id, item.result_id, body)
