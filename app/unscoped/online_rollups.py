"""An online rule's hourly rollups, added to by the job that stores its day's results (it knows
the evaluation id, whose metadata names the rule)."""

from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db import dialect_insert
from app.models import Evaluation, OnlineRollup, OnlineRule, OnlineRuleCount

# (metric, UTC hour) -> count, scored, passed, failed, errored, Σ score, Σ score².
Sums = dict[tuple[str, datetime], tuple[int, int, int, int, int, float, float]]
_SUMMED = ("count", "scored", "passed", "failed", "errored", "score_sum", "score_sq_sum")


class UnscopedOnlineRollupRepository:
    """The rollups (`online_rollup`) jobs add newly stored results to."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def rule_of(self, evaluation_id: str) -> str | None:
        """The rule whose day the evaluation is, if the rule still exists."""
        metadata: dict[str, Any] | None = self.session.scalar(
            select(Evaluation.metadata_).where(Evaluation.id == evaluation_id)
        )
        rule_id = (metadata or {}).get("online_rule_id")
        if not isinstance(rule_id, str):
            return None
        return self.session.scalar(select(OnlineRule.id).where(OnlineRule.id == rule_id))

    def count(self, rule_id: str, counts: dict[tuple[str, str], int]) -> None:
        """Add to the rule's (day, counter) counters (`online_rule_count`)."""
        add_counts(
            self.session,
            [
                {"rule_id": rule_id, "day": day, "counter": counter, "count": n}
                for (day, counter), n in sorted(counts.items())
                if n
            ],
        )

    def add(self, rule_id: str, sums: Sums) -> None:
        """Add to the rule's rollups, one row per (metric, hour)."""
        if not sums:
            return
        # Sorted, so concurrent jobs lock the shared rows in one order and cannot deadlock.
        rows = [
            {
                "rule_id": rule_id,
                "metric": metric,
                "bucket_start": hour,
                **dict(zip(_SUMMED, values, strict=True)),
            }
            for (metric, hour), values in sorted(sums.items())
        ]
        statement = dialect_insert(self.session, OnlineRollup)
        self.session.execute(
            statement.on_conflict_do_update(
                index_elements=[
                    OnlineRollup.rule_id,
                    OnlineRollup.metric,
                    OnlineRollup.bucket_start,
                ],
                set_={
                    name: getattr(OnlineRollup, name) + getattr(statement.excluded, name)
                    for name in _SUMMED
                },
            ).values(rows)
        )


def add_counts(session: Session, rows: list[dict[str, Any]]) -> None:
    """Add `count` to each (rule_id, day, counter) row of `online_rule_count` (made at 0)."""
    if not rows:
        return
    statement = dialect_insert(session, OnlineRuleCount)
    session.execute(
        statement.on_conflict_do_update(
            index_elements=[OnlineRuleCount.rule_id, OnlineRuleCount.day, OnlineRuleCount.counter],
            set_={"count": OnlineRuleCount.count + statement.excluded.count},
        ).values(rows)
    )
