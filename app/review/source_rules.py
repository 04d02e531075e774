"""All SQL about the online rules a review queue takes its items from (its sources)."""

from sqlalchemy import select

from app.models import OnlineRule, OnlineRuleDay
from app.repository import TenantScopedRepository


class SourceRuleRepository(TenantScopedRepository[OnlineRule]):
    """The tenant's online rules as a queue's sources: a rule's metrics and its days'
    evaluations (read from their tables, as a queue reads any evaluation's results)."""

    model = OnlineRule

    def day_evaluation_ids(self, rule: OnlineRule) -> list[str]:
        """The rule's days' evaluations, newest day first."""
        return list(
            self.session.scalars(
                select(OnlineRuleDay.evaluation_id)
                .where(OnlineRuleDay.rule_id == self.owned(rule).id)
                .order_by(OnlineRuleDay.day.desc())
            )
        )
