"""All SQL about a tenant's review queues, their items and who holds or labelled them."""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Text, and_, cast, delete, exists, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import aliased

from app.db import dialect_insert
from app.media.gc import CASE_COLUMNS
from app.models import (
    BlobRef,
    Evaluation,
    Label,
    Result,
    ReviewAssignment,
    ReviewItem,
    ReviewQueue,
    TestCase,
)
from app.repository import TenantScopedRepository

RESERVED = "reserved"
LABELLED = "labelled"
RELEASED = "released"
# Its label was deleted after the judge's verdict was shown (app.labels.repository.delete):
# no slot held, and the item's content never offered to that person again, in any queue.
WITHDRAWN = "withdrawn"


@dataclass(frozen=True)
class Counts:
    """A queue's progress: items offered, fully labelled, in progress; per actor labelled and
    reserved."""

    items: int
    labelled: int
    in_progress: int
    reviewers: dict[str, tuple[int, int]]


class ReviewQueueRepository(TenantScopedRepository[ReviewQueue]):
    """One tenant's review queues; their items and assignments read through them."""

    model = ReviewQueue

    def page(self, after: str | None, limit: int) -> Sequence[ReviewQueue]:
        return self.keyset_page(
            self.get_base_statement(), ReviewQueue.id, after, limit, descending=True
        )

    def add_items(self, queue: ReviewQueue, rows: Sequence[dict[str, object]]) -> None:
        """Insert the queue's new items, skipping any a concurrent claim took in first."""
        queue_id = self.owned(queue).id
        assert all(row["queue_id"] == queue_id for row in rows)
        statement = dialect_insert(self.session, ReviewItem)
        self.session.execute(
            statement.on_conflict_do_nothing(
                index_elements=[ReviewItem.queue_id, ReviewItem.result_id]
            ),
            [{**row, "tenant_id": self.tenant_id} for row in rows],
        )

    def add(self, row: ReviewQueue | ReviewItem) -> None:
        assert row.tenant_id == self.tenant_id
        self.session.add(row)
        self.session.flush()

    def delete(self, queue: ReviewQueue) -> None:
        queue_id = self.owned(queue).id
        # Children first: SQLite enforces no foreign keys' cascades unless told to.
        self.session.execute(delete(ReviewAssignment).where(ReviewAssignment.queue_id == queue_id))
        self.session.execute(delete(ReviewItem).where(ReviewItem.queue_id == queue_id))
        self.session.delete(queue)
        self.session.flush()

    # Sources.

    def evaluation_statuses(self, ids: Sequence[str]) -> dict[str, str]:
        """The status of each of `ids` that is one of the tenant's evaluations (or runs)."""
        if not ids:
            return {}
        rows = self.session.execute(
            select(Evaluation.id, Evaluation.status).where(
                Evaluation.tenant_id == self.tenant_id, Evaluation.id.in_(list(ids))
            )
        )
        return {evaluation_id: status for evaluation_id, status in rows}

    def metric_names(self, evaluation_ids: Sequence[str]) -> set[str]:
        """The metric names the tenant's evaluations `evaluation_ids` were submitted with."""
        names: set[str] = set()
        if not evaluation_ids:
            return names
        for metrics in self.session.scalars(
            select(Evaluation.metrics).where(
                Evaluation.tenant_id == self.tenant_id, Evaluation.id.in_(list(evaluation_ids))
            )
        ):
            names.update(str(spec.get("name") or spec.get("type")) for spec in metrics or [])
        return names

    def new_results(
        self, queue: ReviewQueue, evaluation_ids: Sequence[str]
    ) -> list[tuple[Result, TestCase]]:
        """The sources' judged, scored results of the queue's metric not yet taken in, with
        their test cases, oldest first."""
        if not evaluation_ids:
            return []
        taken = exists().where(
            ReviewItem.queue_id == self.owned(queue).id, ReviewItem.result_id == Result.id
        )
        rows = self.session.execute(
            self._judged(queue, evaluation_ids)
            .add_columns(TestCase)
            .join(
                TestCase,
                and_(
                    TestCase.evaluation_id == Result.evaluation_id,
                    TestCase.index == Result.test_case_index,
                ),
            )
            .where(~taken)
            .order_by(Result.id)
        ).all()
        return [(row[0], row[1]) for row in rows]

    def scores(self, queue: ReviewQueue, evaluation_ids: Sequence[str]) -> list[float]:
        """Every judged score of the queue's metric in its sources (the lowest share's base)."""
        if not evaluation_ids:
            return []
        statement = self._judged(queue, evaluation_ids).with_only_columns(Result.score)
        return [float(score) for score in self.session.scalars(statement)]

    def _judged(self, queue: ReviewQueue, evaluation_ids: Sequence[str]):  # type: ignore[no-untyped-def]
        return (
            select(Result)
            .join(Evaluation, Evaluation.id == Result.evaluation_id)
            .where(
                Evaluation.tenant_id == self.tenant_id,
                Evaluation.id.in_(list(evaluation_ids)),
                Result.metric == queue.metric,
                Result.metric_version.is_not(None),
                Result.error.is_(None),
                Result.score.is_not(None),
            )
        )

    def result(self, result_id: str) -> Result | None:
        return self.session.scalars(
            select(Result)
            .join(Evaluation, Evaluation.id == Result.evaluation_id)
            .where(Evaluation.tenant_id == self.tenant_id, Result.id == result_id)
        ).one_or_none()

    def evaluation(self, evaluation_id: str) -> Evaluation | None:
        return self.session.scalars(
            select(Evaluation).where(
                Evaluation.tenant_id == self.tenant_id, Evaluation.id == evaluation_id
            )
        ).one_or_none()

    def test_case(self, item: ReviewItem) -> TestCase | None:
        return self.session.scalars(
            select(TestCase)
            .join(Evaluation, Evaluation.id == TestCase.evaluation_id)
            .where(
                Evaluation.tenant_id == self.tenant_id,
                TestCase.evaluation_id == item.evaluation_id,
                TestCase.index == item.test_case_index,
            )
        ).one_or_none()

    def held_cases_naming(self, actor: str, sha256: str) -> Sequence[TestCase]:
        """Test cases of items `actor` holds or labelled (in any queue) whose stored content
        names the blob `sha256` (as text: the caller checks the references exactly); a few
        at most."""
        named = or_(
            *(cast(getattr(TestCase, column), Text).contains(sha256) for column in CASE_COLUMNS)
        )
        return self.session.scalars(
            select(TestCase)
            .join(
                ReviewItem,
                and_(
                    ReviewItem.evaluation_id == TestCase.evaluation_id,
                    ReviewItem.test_case_index == TestCase.index,
                ),
            )
            .join(ReviewAssignment, ReviewAssignment.item_id == ReviewItem.id)
            .join(
                BlobRef,
                and_(BlobRef.holder_id == ReviewItem.evaluation_id, BlobRef.sha256 == sha256),
            )
            .where(
                ReviewAssignment.tenant_id == self.tenant_id,
                ReviewAssignment.actor == actor,
                ReviewAssignment.status.in_((RESERVED, LABELLED)),
                BlobRef.tenant_id == self.tenant_id,
                named,
            )
            .limit(20)
        ).all()

    # Items and assignments.

    def item(self, queue: ReviewQueue, item_id: str) -> ReviewItem | None:
        return self.session.scalars(
            select(ReviewItem).where(
                ReviewItem.queue_id == self.owned(queue).id,
                ReviewItem.tenant_id == self.tenant_id,
                ReviewItem.id == item_id,
            )
        ).one_or_none()

    def assignment(self, item: ReviewItem, actor: str) -> ReviewAssignment | None:
        return self.session.scalars(
            select(ReviewAssignment).where(
                ReviewAssignment.item_id == item.id,
                ReviewAssignment.tenant_id == self.tenant_id,
                ReviewAssignment.actor == actor,
            )
        ).one_or_none()

    def held(self, queue: ReviewQueue, actor: str, now: datetime) -> ReviewAssignment | None:
        """The actor's live reservation in the queue, if any."""
        return self.session.scalars(
            select(ReviewAssignment)
            .where(
                ReviewAssignment.queue_id == self.owned(queue).id,
                ReviewAssignment.tenant_id == self.tenant_id,
                ReviewAssignment.actor == actor,
                ReviewAssignment.status == RESERVED,
                ReviewAssignment.expires_at > now,
            )
            .order_by(ReviewAssignment.id)
            .limit(1)
        ).first()

    def drop_lapsed(self, queue: ReviewQueue, actor: str, now: datetime) -> None:
        """Forget the actor's lapsed reservations in the queue (the items went back)."""
        self.session.execute(
            delete(ReviewAssignment).where(
                ReviewAssignment.queue_id == self.owned(queue).id,
                ReviewAssignment.actor == actor,
                ReviewAssignment.status == RESERVED,
                ReviewAssignment.expires_at <= now,
            )
        )

    def _live_count(self, now: datetime):  # type: ignore[no-untyped-def]
        """How many of the item's assignments hold their slot: labelled, or reserved and not
        lapsed."""
        return (
            select(func.count())
            .select_from(ReviewAssignment)
            .where(
                ReviewAssignment.item_id == ReviewItem.id,
                or_(
                    ReviewAssignment.status == LABELLED,
                    and_(ReviewAssignment.status == RESERVED, ReviewAssignment.expires_at > now),
                ),
            )
            .scalar_subquery()
        )

    def offerable(
        self, queue: ReviewQueue, actor: str, now: datetime, limit: int
    ) -> Sequence[ReviewItem]:
        """Items the actor may be offered next, best first: routed before audit, fewer labels
        first; none the actor had (labelled, released) or labelled elsewhere, none whose
        label they withdrew in any queue, none whose live assignments fill `reviewers_per_item`."""
        queue_id = self.owned(queue).id
        mine = exists().where(
            ReviewAssignment.item_id == ReviewItem.id, ReviewAssignment.actor == actor
        )
        withdrawn = aliased(ReviewItem)
        withdrawn_by_me = exists().where(
            ReviewAssignment.tenant_id == self.tenant_id,
            ReviewAssignment.actor == actor,
            ReviewAssignment.status == WITHDRAWN,
            withdrawn.id == ReviewAssignment.item_id,
            withdrawn.metric_version == ReviewItem.metric_version,
            withdrawn.item_key == ReviewItem.item_key,
        )
        labelled_by_me = exists().where(
            Label.tenant_id == self.tenant_id,
            Label.metric_version == ReviewItem.metric_version,
            Label.item_key == ReviewItem.item_key,
            Label.actor == actor,
        )
        return self.session.scalars(
            select(ReviewItem)
            .where(
                ReviewItem.queue_id == queue_id,
                ReviewItem.tenant_id == self.tenant_id,
                ReviewItem.priority < 2,
                ReviewItem.labelled < queue.reviewers_per_item,
                ~mine,
                ~labelled_by_me,
                ~withdrawn_by_me,
                _still_judged(),
                self._live_count(now) < queue.reviewers_per_item,
            )
            # Then the oldest results first (result ids sort by time; item ids taken in by one
            # claim share a millisecond).
            .order_by(ReviewItem.priority, ReviewItem.labelled, ReviewItem.result_id)
            .limit(limit)
        ).all()

    def take_slot(self, item: ReviewItem, assignment: ReviewAssignment, now: datetime) -> bool:
        """Insert `assignment` in its slot of `item`, first removing a lapsed reservation
        holding that slot; False when the slot is held (a concurrent claim took it: the unique
        (item, slot) pair refuses the second insert on PostgreSQL and SQLite alike)."""
        assert assignment.tenant_id == self.tenant_id and assignment.item_id == item.id
        try:
            with self.session.begin_nested():
                self.session.execute(
                    delete(ReviewAssignment).where(
                        ReviewAssignment.item_id == item.id,
                        ReviewAssignment.slot == assignment.slot,
                        ReviewAssignment.status == RESERVED,
                        ReviewAssignment.expires_at <= now,
                    )
                )
                self.session.add(assignment)
                self.session.flush()
        except IntegrityError:
            return False
        return True

    def mark_labelled(self, item: ReviewItem, assignment: ReviewAssignment) -> None:
        """Mark the reservation labelled and count the item's label once: of two requests at
        once, only the one whose UPDATE finds it unlabelled counts it (not what either read)."""
        assert assignment.item_id == item.id and assignment.tenant_id == self.tenant_id
        marked = self.session.execute(
            update(ReviewAssignment)
            .where(
                ReviewAssignment.id == assignment.id,
                ReviewAssignment.tenant_id == self.tenant_id,
                ReviewAssignment.status != LABELLED,
            )
            .values(status=LABELLED)
        )
        if marked.rowcount:  # type: ignore[attr-defined]
            self.session.execute(
                update(ReviewItem)
                .where(ReviewItem.id == item.id, ReviewItem.tenant_id == self.tenant_id)
                .values(labelled=ReviewItem.labelled + 1)
            )

    def counts(self, queue: ReviewQueue, now: datetime) -> Counts:
        """The queue's progress over its offered items whose result is still there (an item of
        a deleted evaluation is neither offered nor counted, reserved or not)."""
        queue_id = self.owned(queue).id
        needed = queue.reviewers_per_item
        rows = self.session.execute(
            select(ReviewItem.labelled, self._live_count(now)).where(
                ReviewItem.queue_id == queue_id, ReviewItem.priority < 2, _still_judged()
            )
        ).all()
        items = len(rows)
        full = sum(1 for labelled, _ in rows if labelled >= needed)
        in_progress = sum(1 for labelled, held in rows if labelled < needed and held > 0)
        reviewers: dict[str, tuple[int, int]] = {}
        for actor, status, expires_at, judged in self.session.execute(
            select(
                ReviewAssignment.actor,
                ReviewAssignment.status,
                ReviewAssignment.expires_at,
                _still_judged(),
            )
            .join(ReviewItem, ReviewItem.id == ReviewAssignment.item_id)
            .where(ReviewAssignment.queue_id == queue_id)
        ):
            labelled, reserved = reviewers.get(actor, (0, 0))
            if status == LABELLED:
                # The label outlives its result: the person gave it.
                labelled += 1
            elif status == RESERVED and expires_at > now and judged:
                reserved += 1
            else:
                continue
            reviewers[actor] = (labelled, reserved)
        return Counts(items, full, in_progress, reviewers)


def _still_judged():  # type: ignore[no-untyped-def]
    """Whether the item's result is still there: an item whose evaluation was deleted since has
    nothing left to show, and is neither offered nor counted."""
    return exists().where(Result.id == ReviewItem.result_id)
