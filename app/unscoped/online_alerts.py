"""Online rules' alerts by rule id, for the ticker: which rules have one, a metric's verdicts
over a window of the rule's hourly rollups, and the episode's start and end."""

from datetime import datetime

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from app.models import OnlineRollup, OnlineRule


class UnscopedOnlineAlertRepository:
    """Unscoped access for the ticker's alert check, which acts on rule ids."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def rules_with_alerts(self) -> list[str]:
        return list(
            self.session.scalars(
                select(OnlineRule.id).where(OnlineRule.alert.is_not(None)).order_by(OnlineRule.id)
            )
        )

    def rule(self, rule_id: str) -> OnlineRule | None:
        return self.session.get(OnlineRule, rule_id, populate_existing=True)

    def verdicts(
        self, rule_id: str, metric: str, since: datetime, until: datetime
    ) -> tuple[int, int]:
        """(passed, failed) of the metric's results stored from `since` to `until` (excluded)."""
        row = self.session.execute(
            select(
                func.coalesce(func.sum(OnlineRollup.passed), 0),
                func.coalesce(func.sum(OnlineRollup.failed), 0),
            ).where(
                OnlineRollup.rule_id == rule_id,
                OnlineRollup.metric == metric,
                OnlineRollup.bucket_start >= since,
                OnlineRollup.bucket_start < until,
            )
        ).one()
        return int(row[0]), int(row[1])

    def start(self, rule_id: str, now: datetime) -> bool:
        """Open an episode; False when one is open already (another ticker opened it)."""
        outcome = self.session.execute(
            update(OnlineRule)
            .where(OnlineRule.id == rule_id, OnlineRule.alert_since.is_(None))
            .values(alert_since=now)
        )
        return outcome.rowcount == 1  # type: ignore[attr-defined]

    def end(self, rule_id: str) -> bool:
        """Close the open episode; False when none is open (another ticker closed it)."""
        outcome = self.session.execute(
            update(OnlineRule)
            .where(OnlineRule.id == rule_id, OnlineRule.alert_since.is_not(None))
            .values(alert_since=None)
        )
        return outcome.rowcount == 1  # type: ignore[attr-defined]
