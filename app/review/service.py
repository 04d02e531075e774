"""Review queues: made, read, deleted; items taken in from their sources, claimed, labelled
and released (never commits: the caller does).

An item is a judged result of the queue's metric. It is taken in once (when the queue is made,
then at each claim, so an online rule's new days keep feeding it) and its routing is decided
then, once. Each item has `reviewers_per_item` slots; a claim inserts an assignment into a free
slot, and the unique (item, slot) pair makes a concurrent claim of the same slot fail and try
the next (app/models/review_queue.py); a person holds at most one live reservation per queue
(a unique partial index), so concurrent claims of one person all get the same item.
"""

from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from app import audit
from app.db import utcnow
from app.ids import new_id
from app.labels import blind
from app.labels import service as labels
from app.labels.items import item_key
from app.labels.schemas import Label as LabelSchema
from app.media.links import MediaUrl
from app.models import (
    Label,
    ReviewAssignment,
    ReviewItem,
    ReviewQueue,
)
from app.problems import ProblemError, invalid_request, not_found
from app.review import empty, routing, sources
from app.review.items import item_in, judged, shown
from app.review.repository import (
    LABELLED,
    RELEASED,
    RESERVED,
    WITHDRAWN,
    ReviewQueueRepository,
)
from app.review.schemas import (
    JudgeVerdict,
    ReviewerProgress,
    ReviewLabelCreate,
    ReviewLabelled,
    ReviewProgress,
    ReviewQueueCreate,
)
from app.review.schemas import ReviewItem as ReviewItemSchema
from app.review.schemas import ReviewQueue as ReviewQueueSchema

# How many offerable items a claim tries before saying nothing is left (each a slot insert
# that a concurrent claim may win).
CLAIM_CANDIDATES = 20


def create(
    session: Session,
    tenant_id: str,
    actor: str,
    body: ReviewQueueCreate,
    scores_shown: bool = True,
) -> ReviewQueue:
    """A new queue, its sources' results taken in; 422 naming every field at fault (with no
    score in it unless `scores_shown`: the caller reads scores)."""
    errors = sources.body_problems(session, tenant_id, body.model_dump())
    if errors:
        raise invalid_request(errors)
    queue = ReviewQueue(
        id=new_id("rq"),
        tenant_id=tenant_id,
        name=body.name,
        metric=body.metric,
        evaluation_ids=body.evaluation_ids,
        online_rule_ids=body.online_rule_ids,
        routing=body.routing.model_dump(),
        reviewers_per_item=body.reviewers_per_item,
        reservation_minutes=body.reservation_minutes,
        created_at=utcnow(),
    )
    repo = ReviewQueueRepository(session, tenant_id)
    repo.add(queue)
    refused = empty.problems(repo, queue, intake(session, tenant_id, queue), scores_shown)
    if refused:
        raise invalid_request(refused)
    audit.record(
        session,
        actor,
        "review_queue.create",
        "review_queue",
        queue.id,
        tenant_id=tenant_id,
        name=queue.name,
        metric=queue.metric,
        reviewers_per_item=queue.reviewers_per_item,
    )
    return queue


def get_or_404(session: Session, tenant_id: str, queue_id: str) -> ReviewQueue:
    """The tenant's queue `queue_id`; 404 naming it otherwise (another tenant's too)."""
    found = ReviewQueueRepository(session, tenant_id).get_by_id(queue_id)
    if found is None:
        raise not_found(f"No review queue {queue_id!r}.", field=["path", "queue_id"])
    return found


def page(session: Session, tenant_id: str, after: str | None, limit: int) -> Sequence[ReviewQueue]:
    return ReviewQueueRepository(session, tenant_id).page(after, limit)


def delete(session: Session, tenant_id: str, actor: str, queue: ReviewQueue) -> None:
    """Delete a queue, its items and reservations; the labels given in it stay."""
    audit.record(
        session,
        actor,
        "review_queue.delete",
        "review_queue",
        queue.id,
        tenant_id=tenant_id,
        name=queue.name,
    )
    ReviewQueueRepository(session, tenant_id).delete(queue)


def progress(session: Session, tenant_id: str, queue: ReviewQueue) -> ReviewProgress:
    counts = ReviewQueueRepository(session, tenant_id).counts(queue, utcnow())
    return ReviewProgress(
        items=counts.items,
        labelled=counts.labelled,
        in_progress=counts.in_progress,
        remaining=counts.items - counts.labelled - counts.in_progress,
        reviewers=[
            ReviewerProgress(
                actor=actor,
                name=labels.actor_name(session, tenant_id, actor),
                labelled=labelled,
                reserved=reserved,
            )
            for actor, (labelled, reserved) in sorted(counts.reviewers.items())
        ],
    )


def to_schema(session: Session, tenant_id: str, queue: ReviewQueue) -> ReviewQueueSchema:
    return ReviewQueueSchema(
        id=queue.id,
        name=queue.name,
        metric=queue.metric,
        evaluation_ids=queue.evaluation_ids,
        online_rule_ids=queue.online_rule_ids,
        routing=queue.routing,  # type: ignore[arg-type]
        reviewers_per_item=queue.reviewers_per_item,
        reservation_minutes=queue.reservation_minutes,
        created_at=queue.created_at,
        progress=progress(session, tenant_id, queue),
    )


def intake(session: Session, tenant_id: str, queue: ReviewQueue) -> list[empty.Taken]:
    """Take in the sources' results not yet in the queue, each routed once; each one's
    routing."""
    repo = ReviewQueueRepository(session, tenant_id)
    evaluation_ids = sources.evaluation_ids(session, tenant_id, queue)
    fresh = repo.new_results(queue, evaluation_ids)
    if not fresh:
        return []
    lowest = queue.routing.get("lowest")
    cutoff = None
    if lowest:
        cutoff = routing.lowest_cutoff(repo.scores(queue, evaluation_ids), lowest["share"])
    now = utcnow()
    rows: list[dict[str, object]] = []
    for result, test_case in fresh:
        assert result.score is not None and result.metric_version is not None
        why = routing.reason(
            queue.routing,
            result.score,
            result.threshold,
            result.fragile,
            cutoff,
            routing.audit_draw(queue.id, result.id),
        )
        rows.append(
            {
                "id": new_id("rqi"),
                "queue_id": queue.id,
                "result_id": result.id,
                "evaluation_id": result.evaluation_id,
                "test_case_index": result.test_case_index,
                "metric_version": result.metric_version,
                "item_key": item_key(test_case),
                "reason": why,
                "priority": routing.PRIORITY[why],
                "labelled": 0,
                "created_at": now,
            }
        )
    repo.add_items(queue, rows)
    return [
        empty.Taken(
            row["reason"],  # type: ignore[arg-type]
            None if result.threshold is None else abs(result.score - result.threshold),
        )
        for row, (result, _) in zip(rows, fresh, strict=True)
    ]


def claim_item(
    session: Session, tenant_id: str, actor: str, queue: ReviewQueue
) -> tuple[ReviewItem, ReviewAssignment] | None:
    """Reserve the next item for `actor` (their live reservation in the queue, if they hold
    one): the item and the reservation, or None when nothing is left for them."""
    repo = ReviewQueueRepository(session, tenant_id)
    intake(session, tenant_id, queue)
    now = utcnow()
    held = repo.held(queue, actor, now)
    if held is not None:
        item = repo.item(queue, held.item_id)
        assert item is not None
        if repo.result(item.result_id) is not None:
            return item, held
        # Its evaluation was deleted while held: give it up and offer another.
        held.status, held.slot = RELEASED, None
        session.flush()
    repo.drop_lapsed(queue, actor, now)
    expires_at = now + timedelta(minutes=queue.reservation_minutes)
    for item in repo.offerable(queue, actor, now, CLAIM_CANDIDATES):
        for slot in range(queue.reviewers_per_item):
            assignment = ReviewAssignment(
                id=new_id("rqa"),
                tenant_id=tenant_id,
                queue_id=queue.id,
                item_id=item.id,
                actor=actor,
                slot=slot,
                status=RESERVED,
                expires_at=expires_at,
                created_at=now,
            )
            if repo.take_slot(item, assignment, now):
                _audit_item(session, tenant_id, actor, "claim", item, expires_at=expires_at)
                return item, assignment
            # Refused: the slot is another's, or a concurrent claim of this actor's took an
            # item first (one live reservation per person and queue): that one is theirs.
            held = repo.held(queue, actor, now)
            if held is not None:
                mine = repo.item(queue, held.item_id)
                assert mine is not None
                return mine, held
    return None


def claim(
    session: Session, tenant_id: str, actor: str, queue: ReviewQueue, media_url: MediaUrl
) -> ReviewItemSchema | None:
    """`claim_item` as the API answers it: blind (no score, no reason)."""
    claimed = claim_item(session, tenant_id, actor, queue)
    if claimed is None:
        return None
    item, assignment = claimed
    return shown(session, tenant_id, queue, item, assignment, media_url)


def _conflict(message: str, slug: str) -> ProblemError:
    return ProblemError(409, "Conflict", message, slug=slug, field=["path", "item_id"])


def give_label(
    session: Session,
    tenant_id: str,
    actor: str,
    queue: ReviewQueue,
    item_id: str,
    body: ReviewLabelCreate,
) -> tuple[ReviewLabelled, bool]:
    """Store `actor`'s label of an item they reserved through the labels service, end the
    reservation, and answer with what the judge said, and whether the label is new. A lapsed
    reservation whose slot nobody took still counts; one another person took is a 409. An
    item they labelled already is answered again for the same label (not new), and a 409 for
    another (they have seen the judge)."""
    repo = ReviewQueueRepository(session, tenant_id)
    item = item_in(repo, queue, item_id)
    assignment = repo.assignment(item, actor)
    if assignment is None:
        raise _conflict(
            f"You hold no reservation of item {item_id!r}: claim it first (a lapsed one may "
            "have gone to another reviewer).",
            "not-reserved",
        )
    if assignment.status == RELEASED:
        raise _conflict(f"You gave item {item_id!r} back.", "released")
    result, _ = judged(repo, item)
    selection = "random" if item.reason == routing.AUDIT else "routed"
    given = _given(session, tenant_id, actor, item) if assignment.status == LABELLED else None
    if assignment.status == WITHDRAWN or (assignment.status == LABELLED and given is None):
        # Deleted since (a delete withdraws the reservation; one from before that did not): a
        # label now would be given after the judge's verdict was shown, counted as blind.
        raise _conflict(
            f"Your label of item {item_id!r} was deleted after the judge's verdict was shown: "
            "this reservation holds no label to give.",
            "not-reserved",
        )
    if given is not None and not blind.same(given, body.value, body.rationale):
        # They have seen the judge's verdict since: another label would be anchored on it
        # and counted as blind. The same one again (a double click, a retry) is answered.
        raise _conflict(
            f"You labelled item {item_id!r} already and have seen the judge's verdict since: "
            "your label stands as you gave it.",
            "already-labelled",
        )
    created = False
    if given is None:
        # A label of theirs given meanwhile (outside the queue, or a concurrent request's
        # different one) is a 409 too: the unique actor, item and version decide the race.
        given, created = labels.label_result(
            session,
            tenant_id,
            actor,
            result.id,
            body.value,
            body.rationale,
            selection=selection,
            queue_id=queue.id,
        )
    repo.mark_labelled(item, assignment)
    answer = ReviewLabelled(
        item_id=item.id,
        result_id=result.id,
        reason=item.reason or routing.AUDIT,
        selection=selection,
        label=LabelSchema.model_validate(given, from_attributes=True),
        judge=JudgeVerdict(
            score=result.score,
            passed=result.passed,
            threshold=result.threshold,
            reason=result.reason,
        ),
    )
    return answer, created


def _given(session: Session, tenant_id: str, actor: str, item: ReviewItem) -> Label | None:
    """`actor`'s label of the item's content and version, if they gave one."""
    mine = labels.of_item(session, tenant_id, item.metric_version, item.item_key)
    return next((label for label in mine if label.actor == actor), None)


def release(session: Session, tenant_id: str, actor: str, queue: ReviewQueue, item_id: str) -> None:
    """Give a reserved item back: its slot is free for others (not offered to `actor` again)."""
    repo = ReviewQueueRepository(session, tenant_id)
    item = item_in(repo, queue, item_id)
    assignment = repo.assignment(item, actor)
    if assignment is None or assignment.status != RESERVED:
        raise _conflict(f"You hold no reservation of item {item_id!r}.", "not-reserved")
    assignment.status = RELEASED
    assignment.slot = None
    session.flush()
    _audit_item(session, tenant_id, actor, "release", item)


def _audit_item(
    session: Session,
    tenant_id: str,
    actor: str,
    verb: str,
    item: ReviewItem,
    expires_at: datetime | None = None,
) -> None:
    """A reservation taken or given back, on the audit trail (one that lapses by itself
    leaves no event: nobody acted)."""
    shown = {} if expires_at is None else {"expires_at": expires_at.isoformat()}
    audit.record(
        session,
        actor,
        f"review_item.{verb}",
        "review_item",
        item.id,
        tenant_id=tenant_id,
        queue_id=item.queue_id,
        result_id=item.result_id,
        metric_version=item.metric_version,
        item_key=item.item_key,
        **shown,
    )
