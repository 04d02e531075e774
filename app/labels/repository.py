"""All SQL about a tenant's labels, and the results and test cases they are given on."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sqlalchemy import Select, and_, case, func, or_, select, tuple_, update
from sqlalchemy.exc import IntegrityError

from app.models import (
    ApiKey,
    Evaluation,
    Label,
    Membership,
    MetricVersion,
    Result,
    ReviewAssignment,
    ReviewItem,
    TestCase,
)
from app.repository import TenantScopedRepository


@dataclass(frozen=True)
class LabelFilter:
    """Which labels a list or an export shows (None: any)."""

    metric_version: str | None = None
    evaluation_id: str | None = None
    result_id: str | None = None
    actor: str | None = None
    item_key: str | None = None


@dataclass(frozen=True)
class Tally:
    """What the labels of one (metric version, item) say: how many, their values' mean, how
    many pass and fail."""

    count: int
    mean_value: float | None
    passed: int
    failed: int


class LabelRepository(TenantScopedRepository[Label]):
    """One tenant's labels, and the results and test cases of its evaluations they name."""

    model = Label

    def filtered(self, where: LabelFilter) -> Select[tuple[Label]]:
        statement = self.get_base_statement()
        for column, value in (
            (Label.metric_version, where.metric_version),
            (Label.evaluation_id, where.evaluation_id),
            (Label.result_id, where.result_id),
            (Label.actor, where.actor),
            (Label.item_key, where.item_key),
        ):
            if value is not None:
                statement = statement.where(column == value)
        return statement

    def page(self, where: LabelFilter, after: str | None, limit: int) -> Sequence[Label]:
        """`limit + 1` of the tenant's labels matching `where`, newest first, past `after`."""
        return self.keyset_page(self.filtered(where), Label.id, after, limit, descending=True)

    def oldest_first(self, where: LabelFilter, after: str | None, limit: int) -> Sequence[Label]:
        """`limit + 1` of the tenant's labels matching `where`, oldest first (exports)."""
        return self.keyset_page(self.filtered(where), Label.id, after, limit, descending=False)

    def of_version(self, metric_version: str) -> Sequence[Label]:
        """Every label of a metric version, oldest first."""
        return self.session.scalars(
            self.get_base_statement()
            .where(Label.metric_version == metric_version)
            .order_by(Label.id)
        ).all()

    def of_item(self, metric_version: str, item_key: str) -> Sequence[Label]:
        """Every label of one item for a metric version, oldest first."""
        return self.session.scalars(
            self.get_base_statement()
            .where(Label.metric_version == metric_version, Label.item_key == item_key)
            .order_by(Label.id)
        ).all()

    def mine(self, metric_version: str, item_key: str, actor: str) -> Label | None:
        """The label `actor` gave the item for the version, if any."""
        return self.session.scalars(
            self.get_base_statement().where(
                Label.metric_version == metric_version,
                Label.item_key == item_key,
                Label.actor == actor,
            )
        ).one_or_none()

    def add(self, label: Label) -> bool:
        """Insert `label`; False when a label of the same actor, item and version went in
        first (a concurrent request): the caller then updates that one."""
        assert label.tenant_id == self.tenant_id
        try:
            with self.session.begin_nested():
                self.session.add(label)
        except IntegrityError:
            return False
        return True

    def delete(self, label: Label) -> None:
        """Delete `label` and free the review queue slots it filled: its actor's labelled
        assignments of the item (in any of the tenant's queues) are withdrawn, giving up their
        slots, and each item counts one label fewer, so the item is offered again, blind, to
        others; never to its actor, who has seen the judge's verdict (a label of theirs
        through a queue now would be anchored on it and counted as blind)."""
        owned = self.owned(label)
        filled = self.session.execute(
            select(ReviewAssignment.id, ReviewAssignment.item_id)
            .join(ReviewItem, ReviewItem.id == ReviewAssignment.item_id)
            .where(
                ReviewAssignment.tenant_id == self.tenant_id,
                ReviewAssignment.actor == owned.actor,
                # app.review.repository.LABELLED (the review domain sits above labels).
                ReviewAssignment.status == "labelled",
                ReviewItem.tenant_id == self.tenant_id,
                ReviewItem.metric_version == owned.metric_version,
                ReviewItem.item_key == owned.item_key,
            )
        ).all()
        if filled:
            self.session.execute(
                update(ReviewItem)
                .where(
                    ReviewItem.tenant_id == self.tenant_id,
                    ReviewItem.id.in_([item_id for _, item_id in filled]),
                )
                .values(labelled=ReviewItem.labelled - 1)
                .execution_options(synchronize_session=False)
            )
            self.session.execute(
                update(ReviewAssignment)
                .where(
                    ReviewAssignment.tenant_id == self.tenant_id,
                    ReviewAssignment.id.in_([assignment_id for assignment_id, _ in filled]),
                )
                # app.review.repository.WITHDRAWN.
                .values(status="withdrawn", slot=None)
                .execution_options(synchronize_session=False)
            )
        self.session.delete(owned)
        self.session.flush()

    def tallies(self, items: Iterable[tuple[str, str]]) -> dict[tuple[str, str], Tally]:
        """What the labels say about each (metric version, item key), in one query; an item
        without labels is absent."""
        wanted = sorted(set(items))
        if not wanted:
            return {}
        rows = self.session.execute(
            select(
                Label.metric_version,
                Label.item_key,
                func.count(),
                func.avg(Label.value),
                func.sum(case((Label.passed.is_(True), 1), else_=0)),
                func.sum(case((Label.passed.is_(False), 1), else_=0)),
            )
            .where(
                Label.tenant_id == self.tenant_id,
                tuple_(Label.metric_version, Label.item_key).in_(wanted),
            )
            .group_by(Label.metric_version, Label.item_key)
        ).all()
        return {
            (version, key): Tally(
                int(count), None if mean is None else float(mean), int(yes or 0), int(no or 0)
            )
            for version, key, count, mean, yes, no in rows
        }

    def result(self, result_id: str) -> tuple[Result, Evaluation] | None:
        """The tenant's result with this id and its evaluation."""
        row = self.session.execute(
            select(Result, Evaluation)
            .join(Evaluation, Evaluation.id == Result.evaluation_id)
            .where(Evaluation.tenant_id == self.tenant_id, Result.id == result_id)
        ).one_or_none()
        return None if row is None else (row[0], row[1])

    def result_by_case(
        self, evaluation_id: str, test_case_id: str, metric: str
    ) -> tuple[Result, Evaluation] | None:
        """The result of the metric named `metric` on the evaluation's test case with this
        client id (the first, should the id repeat)."""
        row = self.session.execute(
            select(Result, Evaluation)
            .join(Evaluation, Evaluation.id == Result.evaluation_id)
            .where(
                Evaluation.tenant_id == self.tenant_id,
                Evaluation.id == evaluation_id,
                Result.test_case_id == test_case_id,
                Result.metric == metric,
            )
            .order_by(Result.test_case_index, Result.metric_index)
            .limit(1)
        ).first()
        return None if row is None else (row[0], row[1])

    def metric_version(self, version_id: str) -> MetricVersion | None:
        """The tenant's metric version with this id."""
        return self.session.scalar(
            select(MetricVersion).where(
                MetricVersion.tenant_id == self.tenant_id, MetricVersion.id == version_id
            )
        )

    def results_of_version(
        self, version_id: str, metric: str | None, test_case_id: str | None, limit: int
    ) -> list[tuple[Result, TestCase]]:
        """The newest `limit` scored results of the version (of the metric named `metric` on
        test cases with the id `test_case_id`, each when given) with their test cases."""
        statement = (
            select(Result, TestCase)
            .join(Evaluation, Evaluation.id == Result.evaluation_id)
            .join(
                TestCase,
                and_(
                    TestCase.evaluation_id == Result.evaluation_id,
                    TestCase.index == Result.test_case_index,
                ),
            )
            .where(
                Evaluation.tenant_id == self.tenant_id,
                Result.metric_version == version_id,
                Result.error.is_(None),
                Result.score.is_not(None),
            )
        )
        if metric is not None:
            statement = statement.where(Result.metric == metric)
        if test_case_id is not None:
            statement = statement.where(Result.test_case_id == test_case_id)
        rows = self.session.execute(statement.order_by(Result.id.desc()).limit(limit)).all()
        return [(row[0], row[1]) for row in rows]

    def evaluation_exists(self, evaluation_id: str) -> bool:
        return (
            self.session.scalar(
                select(Evaluation.id).where(
                    Evaluation.tenant_id == self.tenant_id, Evaluation.id == evaluation_id
                )
            )
            is not None
        )

    def test_cases(self, places: Iterable[tuple[str, int]]) -> dict[tuple[str, int], TestCase]:
        """The tenant's test cases at these (evaluation id, index) places, in one query."""
        by_evaluation: dict[str, set[int]] = {}
        for evaluation_id, index in places:
            by_evaluation.setdefault(evaluation_id, set()).add(index)
        if not by_evaluation:
            return {}
        rows = self.session.scalars(
            select(TestCase)
            .join(Evaluation, Evaluation.id == TestCase.evaluation_id)
            .where(
                Evaluation.tenant_id == self.tenant_id,
                or_(
                    *(
                        and_(TestCase.evaluation_id == evaluation_id, TestCase.index.in_(indices))
                        for evaluation_id, indices in by_evaluation.items()
                    )
                ),
            )
        ).all()
        return {(row.evaluation_id, row.index): row for row in rows}

    def is_known_actor(self, actor: str) -> bool:
        """Whether `actor` is one of the tenant's keys (revoked or not), a person who is a
        member, or anyone who has given one of its labels (a member since gone)."""
        kind, _, actor_id = actor.partition(":")
        if kind == "key":
            found = select(ApiKey.id).where(
                ApiKey.tenant_id == self.tenant_id, ApiKey.id == actor_id
            )
        elif kind == "person":
            found = select(Membership.person_id).where(
                Membership.tenant_id == self.tenant_id, Membership.person_id == actor_id
            )
        else:
            return False
        labelled = self.get_base_statement().where(Label.actor == actor).with_only_columns(Label.id)
        return (
            self.session.scalar(found.limit(1)) is not None
            or self.session.scalar(labelled.limit(1)) is not None
        )

    def key_name(self, key_id: str) -> str | None:
        """The name of the tenant's API key (its prefix when it has none)."""
        row = self.session.execute(
            select(ApiKey.name, ApiKey.prefix).where(
                ApiKey.tenant_id == self.tenant_id, ApiKey.id == key_id
            )
        ).one_or_none()
        if row is None:
            return None
        return row[0] or f"key {row[1]}"
