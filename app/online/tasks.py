"""An online rule's day as a kind of evaluation: open while its UTC day lasts, taking the calls
the rule samples as they arrive (app/online/ingest.py), completed by the ticker once the day is
over and every result is stored."""

from collections import Counter
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.orm import Session

from app import ids
from app.db import utcnow
from app.evaluations import kinds
from app.models import Evaluation
from app.outbox import outbox
from app.telemetry.metrics import ONLINE_CALLS
from app.unscoped.online_rollups import Sums, UnscopedOnlineRollupRepository


def hour_of(moment: datetime) -> datetime:
    """The UTC hour `moment` falls in (a naive moment is taken as UTC)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).replace(minute=0, second=0, microsecond=0)


def rollup_sums(rows: list[dict[str, Any]]) -> Sums:
    """Per (metric, UTC hour stored): count, scored, passed, failed, errored, Σ score, Σ score²."""
    sums: Sums = {}
    for row in rows:
        key = (row["metric"], hour_of(row.get("created_at") or utcnow()))
        count, scored, passed, failed, errored, total, total_sq = sums.get(
            key, (0, 0, 0, 0, 0, 0.0, 0.0)
        )
        score = row.get("score")
        sums[key] = (
            count + 1,
            scored + (score is not None),
            passed + (row.get("passed") is True),
            failed + (row.get("passed") is False),
            errored + (row.get("error") is not None),
            total + (score or 0.0),
            total_sq + (score or 0.0) ** 2,
        )
    return sums


class OnlineKind(kinds.Kind):
    """One rule's judged calls of one UTC day; read through `/v1/online_rules/{id}/results`
    and, as any evaluation, `/v1/evaluations/{id}`."""

    label = "online rule day"
    # Read through the evaluation routes too (`GET /v1/evaluations/{id}`, its test cases and
    # results: the judged calls' input, output and images); managed through its rule.
    listed = True
    id_prefixes = ids.EVALUATION_PREFIXES
    open_ended = True

    def api_path(self, session: Session, evaluation: Evaluation) -> str:
        rule_id = (evaluation.metadata_ or {}).get("online_rule_id", "-")
        return f"/v1/online_rules/{rule_id}"

    def cancel_path(self, session: Session, evaluation: Evaluation) -> str:
        # A day is not canceled: its rule is disabled (or deleted, which deletes its days).
        return f"{self.api_path(session, evaluation)}/disable"

    def described(self, session: Session, evaluation: Evaluation) -> str:
        rule_id = (evaluation.metadata_ or {}).get("online_rule_id", "-")
        return f"a day of online rule {rule_id}, managed through its rule"

    def managed_by(self, session: Session, evaluation: Evaluation) -> str:
        rule = self.api_path(session, evaluation)
        return f"POST {rule}/disable stops it, DELETE {rule} deletes the rule with its days"

    def console_parent(self, evaluation: Evaluation) -> tuple[str, str] | None:
        rule_id = (evaluation.metadata_ or {}).get("online_rule_id")
        return ("Online rule", f"/console/online_rules/{rule_id}") if rule_id else None

    def tally(self, session: Session, evaluation_id: str, inserted: list[dict[str, Any]]) -> None:
        """Add the results to the rule's hourly rollups, in the transaction that stores them:
        the trend reads these rows, never the results."""
        if not inserted:
            return
        rollups = UnscopedOnlineRollupRepository(session)
        rule_id = rollups.rule_of(evaluation_id)
        if rule_id is None:
            return
        sums = rollup_sums(inserted)
        rollups.add(rule_id, sums)
        # The rule's counts say what became of the calls it sent: results judged or errored,
        # counted by the day they were stored, and on /metrics once they are committed.
        counts: Counter[tuple[str, str]] = Counter()
        for (_, hour), (count, _, _, _, errored, _, _) in sums.items():
            day = hour.date().isoformat()
            counts[(day, "judged")] += count - errored
            counts[(day, "errored")] += errored
        rollups.count(rule_id, dict(counts))
        outbox(session).add(lambda: _count_on_metrics(rule_id, counts))

    def still_open(self, evaluation: Evaluation, now: datetime) -> bool:
        day = (evaluation.metadata_ or {}).get("day")
        return day is not None and day >= now.date().isoformat()


def _count_on_metrics(rule_id: str, counts: Counter[tuple[str, str]]) -> None:
    for (_, outcome), n in counts.items():
        if n:
            ONLINE_CALLS.labels(rule_id, outcome).inc(n)
