"""All SQL about online rules and their counts, scoped to one tenant."""

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, insert, select, tuple_

from app.db import dialect_insert
from app.models import (
    Evaluation,
    MetricSummary,
    OnlineCall,
    OnlineRollup,
    OnlineRule,
    OnlineRuleBackfilled,
    OnlineRuleCount,
    OnlineRuleDay,
    Result,
    TestCase,
)
from app.models.online_rule import OnlineRuleSpan
from app.repository import TenantScopedRepository
from app.unscoped.online_rollups import add_counts


class OnlineRuleRepository(TenantScopedRepository[OnlineRule]):
    """A tenant's rules, and through them their days: evaluations, counters and spend."""

    model = OnlineRule

    def page(self, after: str | None, limit: int) -> Sequence[OnlineRule]:
        return self.keyset_page(
            self.get_base_statement(), OnlineRule.id, after or None, limit, descending=True
        )

    def enabled(self) -> Sequence[OnlineRule]:
        """The tenant's enabled rules, oldest first."""
        return self.session.scalars(
            self.get_base_statement().where(OnlineRule.enabled.is_(True)).order_by(OnlineRule.id)
        ).all()

    def add(self, rule: OnlineRule) -> None:
        self.session.add(rule)
        self.session.flush()

    def delete(self, rule: OnlineRule) -> None:
        self.session.delete(rule)
        self.session.flush()

    def counts(self, rules: Iterable[OnlineRule]) -> dict[str, dict[str, int]]:
        """Each rule's counters summed over its days (rules read through this repository)."""
        ids = [self.owned(rule).id for rule in rules]
        if not ids:
            return {}
        rows = self.session.execute(
            select(
                OnlineRuleCount.rule_id, OnlineRuleCount.counter, func.sum(OnlineRuleCount.count)
            )
            .where(OnlineRuleCount.rule_id.in_(ids))
            .group_by(OnlineRuleCount.rule_id, OnlineRuleCount.counter)
        ).all()
        found: dict[str, dict[str, int]] = {rule_id: {} for rule_id in ids}
        for rule_id, counter, total in rows:
            found[rule_id][counter] = int(total)
        return found

    def evaluation_id(self, rule: OnlineRule, day: str, config: str) -> str | None:
        """The rule's evaluation of `day` under the configuration `config`, if made."""
        return self.session.scalar(
            select(OnlineRuleDay.evaluation_id).where(
                OnlineRuleDay.rule_id == self.owned(rule).id,
                OnlineRuleDay.day == day,
                OnlineRuleDay.config == config,
            )
        )

    def day_count(self, rule: OnlineRule, day: str) -> int:
        """How many evaluations (one per configuration) the rule has of `day`."""
        return int(
            self.session.scalar(
                select(func.count())
                .select_from(OnlineRuleDay)
                .where(OnlineRuleDay.rule_id == self.owned(rule).id, OnlineRuleDay.day == day)
            )
            or 0
        )

    def add_day(self, rule: OnlineRule, day: str, config: str, evaluation_id: str) -> bool:
        """Make `evaluation_id` the rule's evaluation of `day` under `config`; False if a
        concurrent request made it first (PostgreSQL waits for it to commit; SQLite serialises
        writers)."""
        statement = dialect_insert(self.session, OnlineRuleDay)
        made = self.session.execute(
            statement.on_conflict_do_nothing(
                index_elements=[OnlineRuleDay.rule_id, OnlineRuleDay.day, OnlineRuleDay.config]
            )
            .values(
                rule_id=self.owned(rule).id, day=day, config=config, evaluation_id=evaluation_id
            )
            .returning(statement.table.c.evaluation_id)
        ).first()
        return made is not None

    def evaluation_ids(self, rule: OnlineRule) -> list[str]:
        """The rule's evaluations, newest day first."""
        return list(
            self.session.scalars(
                select(OnlineRuleDay.evaluation_id)
                .where(OnlineRuleDay.rule_id == self.owned(rule).id)
                .order_by(OnlineRuleDay.day.desc())
            )
        )

    def evaluations(self, rule: OnlineRule) -> list[Evaluation]:
        """The rule's days' evaluations, locked for their delete."""
        return list(
            self.session.scalars(
                select(Evaluation)
                .join(OnlineRuleDay, OnlineRuleDay.evaluation_id == Evaluation.id)
                .where(
                    OnlineRuleDay.rule_id == self.owned(rule).id,
                    Evaluation.tenant_id == self.tenant_id,
                )
                .order_by(Evaluation.id)
                .with_for_update(of=Evaluation)
            )
        )

    def results(
        self, rule: OnlineRule, after: str | None, limit: int
    ) -> list[tuple[Result, dict[str, Any] | None, str]]:
        """The results of the rule's days, newest first, after the result `after`: each with
        its test case's metadata and its day."""
        statement = (
            select(Result, TestCase.metadata_, OnlineRuleDay.day)
            .join(OnlineRuleDay, OnlineRuleDay.evaluation_id == Result.evaluation_id)
            .join(
                TestCase,
                (TestCase.evaluation_id == Result.evaluation_id)
                & (TestCase.index == Result.test_case_index),
            )
            .where(OnlineRuleDay.rule_id == self.owned(rule).id)
            .order_by(Result.id.desc())
            .limit(limit)
        )
        if after:
            statement = statement.where(Result.id < after)
        return [(row[0], row[1], row[2]) for row in self.session.execute(statement)]

    def rollups(
        self,
        rule: OnlineRule,
        since: datetime,
        until: datetime,
        bucket: str = "hour",
        metric: str | None = None,
    ) -> list[tuple[Any, ...]]:
        """The rule's rollups (of one metric, or all) from `since` (included) to `until`
        (excluded) by `bucket` (`hour` as kept, or `day`: summed in the database), oldest
        first: (metric, bucket start, count, scored, passed, failed, errored, score_sum,
        score_sq_sum) rows. Plain rows, not entities: 90 days of ten metrics are 21,600 hourly
        ones, most of a second as objects."""
        sums = [
            func.sum(column)
            for column in (
                OnlineRollup.count,
                OnlineRollup.scored,
                OnlineRollup.passed,
                OnlineRollup.failed,
                OnlineRollup.errored,
                OnlineRollup.score_sum,
                OnlineRollup.score_sq_sum,
            )
        ]
        start: Any = OnlineRollup.bucket_start
        if bucket == "day":
            # The UTC day as text: PostgreSQL keeps a time zone, SQLite text in UTC.
            start = (
                func.to_char(func.timezone("UTC", OnlineRollup.bucket_start), "YYYY-MM-DD")
                if self.session.get_bind().dialect.name == "postgresql"
                else func.substr(OnlineRollup.bucket_start, 1, 10)
            )
        statement = select(OnlineRollup.metric, start.label("start"), *sums).where(
            OnlineRollup.rule_id == self.owned(rule).id,
            OnlineRollup.bucket_start >= since,
            OnlineRollup.bucket_start < until,
        )
        if metric is not None:
            statement = statement.where(OnlineRollup.metric == metric)
        rows = self.session.execute(
            statement.group_by(OnlineRollup.metric, start).order_by(start, OnlineRollup.metric)
        ).all()
        if bucket != "day":
            return [tuple(row) for row in rows]
        return [
            (row[0], datetime.fromisoformat(row[1]).replace(tzinfo=UTC), *row[2:]) for row in rows
        ]

    def latest_cases(self, rule: OnlineRule, limit: int) -> list[tuple[TestCase, str]]:
        """The rule's latest stored calls (test cases), newest first, each with its day."""
        rows = self.session.execute(
            select(TestCase, OnlineRuleDay.day)
            .join(OnlineRuleDay, OnlineRuleDay.evaluation_id == TestCase.evaluation_id)
            .where(OnlineRuleDay.rule_id == self.owned(rule).id)
            .order_by(TestCase.id.desc())
            .limit(limit)
        ).all()
        return [(row[0], row[1]) for row in rows]

    def case_results(self, rule: OnlineRule, cases: Iterable[TestCase]) -> Sequence[Result]:
        """The results of these calls of the rule, in metric order."""
        keys = [(case.evaluation_id, case.index) for case in cases]
        if not keys:
            return []
        return self.session.scalars(
            select(Result)
            .join(OnlineRuleDay, OnlineRuleDay.evaluation_id == Result.evaluation_id)
            .where(
                OnlineRuleDay.rule_id == self.owned(rule).id,
                tuple_(Result.evaluation_id, Result.test_case_index).in_(keys),
            )
            .order_by(Result.metric_index)
        ).all()

    def spent(self, rule: OnlineRule, day: str) -> tuple[float, int]:
        """What the judge calls of the rule's evaluations of `day` (every configuration) cost,
        priced ones; and how many results they still owe (cases times metrics, less those
        stored): calls taken and not judged yet."""
        rule_id = self.owned(rule).id
        evaluations = self.session.execute(
            select(Evaluation.id, Evaluation.total_test_cases, Evaluation.metrics)
            .join(OnlineRuleDay, OnlineRuleDay.evaluation_id == Evaluation.id)
            .where(
                OnlineRuleDay.rule_id == rule_id,
                OnlineRuleDay.day == day,
                Evaluation.tenant_id == self.tenant_id,
            )
        ).all()
        if not evaluations:
            return 0.0, 0
        cost, stored = self.session.execute(
            select(
                func.coalesce(func.sum(MetricSummary.judge_cost_usd), 0.0),
                func.coalesce(func.sum(MetricSummary.stored), 0),
            ).where(MetricSummary.evaluation_id.in_([row[0] for row in evaluations]))
        ).one()
        owed = sum(cases * len(metrics or []) for _, cases, metrics in evaluations)
        return float(cost or 0.0), max(0, owed - int(stored or 0))

    def count(self, day: str, counts: dict[tuple[str, str], int]) -> None:
        """Add to (rule id, counter) counters of `day`; the rules are the tenant's own."""
        add_counts(
            self.session,
            [
                {"rule_id": rule_id, "day": day, "counter": counter, "count": n}
                for (rule_id, counter), n in sorted(counts.items())
                if n
            ],
        )


class OnlineCallRepository(TenantScopedRepository[OnlineCall]):
    """The calls a tenant's rules stored, with what a filter needs of them (a backfill's)."""

    model = OnlineCall
    # Ids per IN list: within every database's limit on bound parameters.
    CHUNK = 500

    def keep(self, rows: Sequence[dict[str, Any]]) -> None:
        """Keep these calls (columns of `online_call` but the tenant)."""
        if rows:
            self.session.execute(
                insert(OnlineCall), [{**row, "tenant_id": self.tenant_id} for row in rows]
            )

    def received(
        self, since: datetime, until: datetime, after: int | None, limit: int
    ) -> Sequence[OnlineCall]:
        """Up to `limit` kept calls received from `since` (included) to `until` (excluded),
        after the call `after`, in the order they were kept."""
        statement = self.get_base_statement().where(
            OnlineCall.received_at >= since, OnlineCall.received_at < until
        )
        if after is not None:
            statement = statement.where(OnlineCall.id > after)
        return self.session.scalars(statement.order_by(OnlineCall.id).limit(limit)).all()

    def judged_spans(self, rule: OnlineRule, span_ids: Iterable[str]) -> set[str]:
        """Which of these span ids the rule's days already hold as test cases."""
        rule_id = OnlineRuleRepository(self.session, self.tenant_id).owned(rule).id
        wanted = sorted(set(span_ids))
        found: set[str] = set()
        for start in range(0, len(wanted), self.CHUNK):
            found.update(
                self.session.scalars(
                    select(TestCase.client_id)
                    .join(OnlineRuleDay, OnlineRuleDay.evaluation_id == TestCase.evaluation_id)
                    .where(
                        OnlineRuleDay.rule_id == rule_id,
                        TestCase.client_id.in_(wanted[start : start + self.CHUNK]),
                    )
                )
            )
        return found

    def mark_backfilled(
        self, rule: OnlineRule, spans: Iterable[tuple[str, str]]
    ) -> set[tuple[str, str]]:
        """Note these (trace id, span id) spans as counted by the rule's backfills; which of
        them were not noted before (a concurrent backfill noting one first has it, not us)."""
        return self._note(OnlineRuleBackfilled, rule, spans)

    def claim_spans(
        self, rule: OnlineRule, spans: Iterable[tuple[str, str]]
    ) -> set[tuple[str, str]]:
        """Note these (trace id, span id) spans as stored by the rule; which of them were not
        noted before (a retried export's spans, or a concurrent request's, are not)."""
        return self._note(OnlineRuleSpan, rule, spans)

    def stored_spans(
        self, rule: OnlineRule, spans: Iterable[tuple[str, str]]
    ) -> set[tuple[str, str]]:
        """Which of these (trace id, span id) spans the rule stored (or holds) already."""
        rule_id = OnlineRuleRepository(self.session, self.tenant_id).owned(rule).id
        wanted = sorted(set(spans))
        found: set[tuple[str, str]] = set()
        for start in range(0, len(wanted), self.CHUNK):
            rows = self.session.execute(
                select(OnlineRuleSpan.trace_id, OnlineRuleSpan.span_id).where(
                    OnlineRuleSpan.rule_id == rule_id,
                    tuple_(OnlineRuleSpan.trace_id, OnlineRuleSpan.span_id).in_(
                        wanted[start : start + self.CHUNK]
                    ),
                )
            )
            found.update((trace_id, span_id) for trace_id, span_id in rows)
        return found

    def _note(
        self, table: Any, rule: OnlineRule, spans: Iterable[tuple[str, str]]
    ) -> set[tuple[str, str]]:
        """Insert the rule's (trace id, span id) rows not in `table` yet; the ones inserted.
        Sorted, so two requests noting overlapping spans wait for each other, never deadlock."""
        rule_id = OnlineRuleRepository(self.session, self.tenant_id).owned(rule).id
        wanted = sorted(set(spans))
        noted: set[tuple[str, str]] = set()
        for start in range(0, len(wanted), self.CHUNK):
            rows = [
                {"rule_id": rule_id, "trace_id": trace_id, "span_id": span_id}
                for trace_id, span_id in wanted[start : start + self.CHUNK]
            ]
            statement = dialect_insert(self.session, table)
            inserted = self.session.execute(
                statement.on_conflict_do_nothing()
                .values(rows)
                .returning(statement.table.c.trace_id, statement.table.c.span_id)
            )
            noted.update((trace_id, span_id) for trace_id, span_id in inserted)
        return noted

    def cases(self, calls: Sequence[OnlineCall]) -> dict[tuple[str, int], TestCase]:
        """The test cases these kept calls are, by (evaluation id, index)."""
        keys = sorted({(self.owned(call).evaluation_id, call.test_case_index) for call in calls})
        found: dict[tuple[str, int], TestCase] = {}
        for start in range(0, len(keys), self.CHUNK):
            for case in self.session.scalars(
                select(TestCase)
                .join(Evaluation, Evaluation.id == TestCase.evaluation_id)
                .where(
                    Evaluation.tenant_id == self.tenant_id,
                    tuple_(TestCase.evaluation_id, TestCase.index).in_(
                        keys[start : start + self.CHUNK]
                    ),
                )
            ):
                found[(case.evaluation_id, case.index)] = case
        return found
