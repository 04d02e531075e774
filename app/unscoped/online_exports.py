"""Online rules' export state and results by rule id, for the export job and the ticker."""

from datetime import datetime
from typing import Any

from sqlalchemy import exists, func, or_, select, update
from sqlalchemy.orm import Session

from app.models import OnlineRule, OnlineRuleDay, Result, TestCase


class UnscopedOnlineExportRepository:
    """Unscoped access for the export job and the ticker, which act on rule ids."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def rule(self, rule_id: str) -> OnlineRule | None:
        return self.session.get(OnlineRule, rule_id, populate_existing=True)

    def due_rules(
        self, now: datetime, before_id: str, default_endpoint: bool, limit: int = 500
    ) -> list[tuple[str, str]]:
        """(rule id, tenant id) of rules with an endpoint, not leased nor backing off, that have
        results past their cursor and below `before_id`."""
        rule = OnlineRule
        has_new = exists(
            select(Result.id)
            .join(OnlineRuleDay, OnlineRuleDay.evaluation_id == Result.evaluation_id)
            .where(
                OnlineRuleDay.rule_id == rule.id,
                Result.id > func.coalesce(rule.export_cursor, ""),
                Result.id < before_id,
            )
        )
        conditions = [or_(rule.export_due_at.is_(None), rule.export_due_at <= now), has_new]
        if not default_endpoint:
            conditions.append(rule.export_endpoint.is_not(None))
        rows = self.session.execute(
            select(rule.id, rule.tenant_id).where(*conditions).order_by(rule.id).limit(limit)
        ).all()
        return [(row[0], row[1]) for row in rows]

    def claim(self, rule_id: str, now: datetime, lease_until: datetime) -> bool:
        """Take the rule for one export job; False while another holds it or it backs off."""
        outcome = self.session.execute(
            update(OnlineRule)
            .where(
                OnlineRule.id == rule_id,
                or_(OnlineRule.export_due_at.is_(None), OnlineRule.export_due_at <= now),
            )
            .values(export_due_at=lease_until)
        )
        return outcome.rowcount == 1  # type: ignore[attr-defined]

    def pending(
        self, rule_id: str, cursor: str | None, before_id: str, limit: int
    ) -> list[tuple[Result, dict[str, Any] | None]]:
        """The rule's results past `cursor` and below `before_id`, oldest first, each with its
        test case's metadata (the judged span's trace and span id)."""
        statement = (
            select(Result, TestCase.metadata_)
            .join(OnlineRuleDay, OnlineRuleDay.evaluation_id == Result.evaluation_id)
            .join(
                TestCase,
                (TestCase.evaluation_id == Result.evaluation_id)
                & (TestCase.index == Result.test_case_index),
            )
            .where(OnlineRuleDay.rule_id == rule_id, Result.id < before_id)
            .order_by(Result.id)
            .limit(limit)
        )
        if cursor:
            statement = statement.where(Result.id > cursor)
        return [(row[0], row[1]) for row in self.session.execute(statement)]

    def exported(self, rule_id: str, cursor: str | None) -> None:
        """The collector accepted everything up to `cursor`: move past it, release the rule."""
        values: dict[str, Any] = {"export_due_at": None, "export_failures": 0}
        if cursor:
            values["export_cursor"] = cursor
        self.session.execute(update(OnlineRule).where(OnlineRule.id == rule_id).values(**values))

    def failed(self, rule_id: str, retry_at: datetime) -> None:
        """The export did not get through: the cursor stays, the next try waits until `retry_at`."""
        self.session.execute(
            update(OnlineRule)
            .where(OnlineRule.id == rule_id)
            .values(export_due_at=retry_at, export_failures=OnlineRule.export_failures + 1)
        )
