"""All SQL about online rules and their counts, scoped to one tenant."""

from collections.abc import Iterable, Sequence

from sqlalchemy import func, select

from app.models import OnlineRule, OnlineRuleCount
from app.repository import TenantScopedRepository


class OnlineRuleRepository(TenantScopedRepository[OnlineRule]):
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
