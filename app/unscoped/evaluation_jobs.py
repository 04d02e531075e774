"""Evaluation jobs' reads and writes by evaluation id (every kind runs as an evaluation)."""

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, or_, select, update
from sqlalchemy.orm import Session

from app.db import add_into, insert_ignoring_duplicates, utcnow
from app.models import Evaluation, MetricSummary, Result, TestCase, UsageDay
from app.models.metric_summary import BIN_COLUMNS, score_bin
from app.models.usage_day import USAGE_SUMMED
from app.unscoped.nul import row_without_nul, without_nul

_SUMMED = (
    "stored",
    "fragile",
    "all_passed",
    "incomplete",
    "passed",
    "failed",
    "errored",
    "score_sum",
    "score_sq_sum",
    "scored",
    "calls",
    "failed_calls",
    "prompt_tokens",
    "completion_tokens",
    "cached_prompt_tokens",
    "judge_cost_usd",
    "judge_unpriced",
    "candidate_calls",
    "candidate_failed_calls",
    "candidate_prompt_tokens",
    "candidate_completion_tokens",
    "candidate_cached_prompt_tokens",
    "candidate_cost_usd",
    "candidate_unpriced",
    *BIN_COLUMNS,
)


def _count_usage(total: dict[str, float], row: dict[str, Any]) -> None:
    """Add a result row's judge and candidate calls, tokens and costs to its summary's sums."""
    total["calls"] += row["judge_calls"] or 0
    total["failed_calls"] += row.get("judge_failed_calls") or 0
    total["prompt_tokens"] += row["prompt_tokens"] or 0
    total["completion_tokens"] += row["completion_tokens"] or 0
    total["cached_prompt_tokens"] += row.get("cached_prompt_tokens") or 0
    for who in ("judge", "candidate"):
        cost = row.get(f"{who}_cost_usd")
        if cost is None:
            total[f"{who}_unpriced"] += 1
        else:
            total[f"{who}_cost_usd"] += cost
    total["candidate_calls"] += row.get("candidate_calls") or 0
    total["candidate_failed_calls"] += row.get("candidate_failed_calls") or 0
    total["candidate_prompt_tokens"] += row.get("candidate_prompt_tokens") or 0
    total["candidate_completion_tokens"] += row.get("candidate_completion_tokens") or 0
    total["candidate_cached_prompt_tokens"] += row.get("candidate_cached_prompt_tokens") or 0


class UnscopedJobRepository:
    """Unscoped access for jobs, which receive an evaluation id and nothing else."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def get(self, evaluation_id: str) -> Evaluation | None:
        return self.session.get(Evaluation, evaluation_id, populate_existing=True)

    def get_for_update(self, evaluation_id: str) -> Evaluation | None:
        """The evaluation, locked until commit (an append or a close waits for us)."""
        return self.session.get(
            Evaluation, evaluation_id, populate_existing=True, with_for_update=True
        )

    def test_cases(self, evaluation_id: str, start: int, stop: int) -> Sequence[TestCase]:
        return self.session.scalars(
            select(TestCase)
            .where(
                TestCase.evaluation_id == evaluation_id,
                TestCase.index >= start,
                TestCase.index < stop,
            )
            .order_by(TestCase.index)
        ).all()

    def contexts_scored_elsewhere(
        self, evaluation_id: str, hashes: set[str], start: int, stop: int
    ) -> set[str]:
        """Of these retrieval-context hashes, those test cases outside [start, stop) have too."""
        found: set[str] = set()
        ordered = sorted(hashes)
        for offset in range(0, len(ordered), 500):
            found.update(
                self.session.scalars(
                    select(TestCase.context_hash)
                    .where(
                        TestCase.evaluation_id == evaluation_id,
                        TestCase.context_hash.in_(ordered[offset : offset + 500]),
                        or_(TestCase.index < start, TestCase.index >= stop),
                    )
                    .distinct()
                )
            )
        return found

    def stored_result_keys(self, evaluation_id: str, start: int, stop: int) -> set[tuple[int, int]]:
        rows = self.session.execute(
            select(Result.test_case_index, Result.metric_index).where(
                Result.evaluation_id == evaluation_id,
                Result.test_case_index >= start,
                Result.test_case_index < stop,
            )
        )
        return {(tc, m) for tc, m in rows}

    def insert_results(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Store results a retry has not stored yet; returns the rows this call stored."""
        rows = [row_without_nul(row) for row in rows]
        ids = insert_ignoring_duplicates(
            self.session, Result, rows, returning=Result.id, likely_new=True
        )
        return [row for row in rows if row["id"] in ids]

    def store_predictions(self, evaluation_id: str, predictions: dict[int, str]) -> None:
        """A run's candidate outputs, as the actual_output of its test cases."""
        for index, prediction in predictions.items():
            self.session.execute(
                update(TestCase)
                .where(TestCase.evaluation_id == evaluation_id, TestCase.index == index)
                .values(actual_output=without_nul(prediction))
            )

    def count_results(self, evaluation_id: str) -> int:
        return (
            self.session.scalar(
                select(func.count())
                .select_from(Result)
                .where(Result.evaluation_id == evaluation_id)
            )
            or 0
        )

    def mark_started(self, evaluation_id: str) -> bool:
        """Move a queued evaluation to in_progress; False if it was not queued."""
        now = utcnow()
        outcome = self.session.execute(
            update(Evaluation)
            .where(Evaluation.id == evaluation_id, Evaluation.status == "queued")
            .values(status="in_progress", started_at=now, heartbeat_at=now)
        )
        return outcome.rowcount == 1  # type: ignore[attr-defined]

    def heartbeat(self, evaluation_id: str) -> None:
        self.session.execute(
            update(Evaluation)
            .where(Evaluation.id == evaluation_id, Evaluation.status == "in_progress")
            .values(heartbeat_at=utcnow())
        )

    def hold(self, evaluation_id: str) -> bool:
        """Refresh the heartbeat and keep the evaluation from being deleted until commit;
        False if it is gone (deleted while its job ran).

        Called before writing any row that references the evaluation: a delete in progress is
        waited for, and a later one waits for our commit. On SQLite the UPDATE takes the one
        write lock (a SELECT alone would not); on PostgreSQL `FOR KEY SHARE` blocks a DELETE
        whatever the status (the UPDATE locks only a running evaluation).
        """
        self.heartbeat(evaluation_id)
        found = self.session.scalar(
            select(Evaluation.id)
            .where(Evaluation.id == evaluation_id)
            .with_for_update(read=True, key_share=True)
        )
        return found is not None

    def store_intervals(self, evaluation_id: str, intervals: dict[int, dict[str, Any]]) -> None:
        """Each metric's interval of its mean, on its summary row (`evaluations.intervals`)."""
        for metric_index, interval in intervals.items():
            self.session.execute(
                update(MetricSummary)
                .where(
                    MetricSummary.evaluation_id == evaluation_id,
                    MetricSummary.metric_index == metric_index,
                )
                .values(interval=interval)
            )

    def finish(self, evaluation_id: str, status: str, error: dict[str, Any] | None = None) -> bool:
        """Move a running evaluation to a terminal status; False if another job got there first."""
        outcome = self.session.execute(
            update(Evaluation)
            .where(
                Evaluation.id == evaluation_id,
                Evaluation.status.in_(("queued", "in_progress")),
            )
            .values(status=status, completed_at=utcnow(), error=error)
        )
        return outcome.rowcount == 1  # type: ignore[attr-defined]

    def unfinished(self) -> Sequence[Evaluation]:
        return self.session.scalars(
            select(Evaluation).where(Evaluation.status.in_(("queued", "in_progress")))
        ).all()

    def count_dispatch(self, evaluation_id: str) -> None:
        self.session.execute(
            update(Evaluation)
            .where(Evaluation.id == evaluation_id)
            .values(dispatch_attempts=Evaluation.dispatch_attempts + 1)
        )

    def made_progress(self, evaluation_id: str) -> None:
        """Results were stored: the enqueues counted against `LOUPE_MAX_DISPATCH_ATTEMPTS` start
        again from the one running (an evaluation making progress is not stuck, however many
        of its workers died on the way)."""
        self.session.execute(
            update(Evaluation)
            .where(Evaluation.id == evaluation_id, Evaluation.dispatch_attempts > 1)
            .values(dispatch_attempts=1)
        )

    def claim_stuck(self, cutoff: datetime, limit: int = 100) -> list[Evaluation]:
        """Non-terminal evaluations silent since `cutoff`, claimed by moving their heartbeat."""
        candidates = self.session.scalars(
            select(Evaluation)
            .where(
                Evaluation.status.in_(("queued", "in_progress")),
                Evaluation.heartbeat_at < cutoff,
            )
            .limit(limit)
        ).all()
        claimed = []
        now = utcnow()
        for evaluation in candidates:
            # Compare-and-set on the heartbeat: of several tickers, one wins each evaluation.
            outcome = self.session.execute(
                update(Evaluation)
                .where(Evaluation.id == evaluation.id, Evaluation.heartbeat_at < cutoff)
                .values(heartbeat_at=now)
            )
            if outcome.rowcount == 1:  # type: ignore[attr-defined]
                self.session.refresh(evaluation)
                claimed.append(evaluation)
        return claimed

    def add_to_summaries(
        self, evaluation_id: str, rows: list[dict[str, Any]], *, dropped: bool = False
    ) -> None:
        """Count newly stored result rows into their metrics' running summaries; `dropped`:
        rows not stored (their evaluation was canceled as they were scored), whose calls were
        made all the same, so only their usage is counted."""
        session = self.session
        sums: dict[int, dict[str, float]] = {}
        for row in rows:
            total = sums.setdefault(row["metric_index"], dict.fromkeys(_SUMMED, 0))
            _count_usage(total, row)
            if dropped:
                continue
            total["stored"] += 1
            total["passed"] += row["passed"] is True
            total["failed"] += row["passed"] is False
            total["errored"] += row["error"] is not None
            stability = row.get("stability")
            if stability:
                total["fragile"] += bool(stability.get("fragile"))
                total["all_passed"] += bool(stability.get("all_passed"))
                # A verdict resting on fewer judgments than asked for; none at all is an error.
                total["incomplete"] += not stability.get("complete", True) and row["error"] is None
            if row["score"] is not None:
                total["score_sum"] += row["score"]
                total["score_sq_sum"] += row["score"] * row["score"]
                total["scored"] += 1
                tenth = score_bin(row["score"])
                if tenth is not None:
                    total[BIN_COLUMNS[tenth]] += 1
        if not sums:
            return
        add_into(
            session,
            MetricSummary,
            # Sorted, so concurrent jobs lock the shared rows in one order and cannot deadlock.
            [
                {"evaluation_id": evaluation_id, "metric_index": index, **total}
                for index, total in sorted(sums.items())
            ],
            keys=("evaluation_id", "metric_index"),
            added=_SUMMED,
        )

    def add_dropped_usage(
        self,
        evaluation_id: str,
        rows: list[dict[str, Any]],
        inserted: Sequence[dict[str, Any]] = (),
    ) -> bool:
        """Count the calls of result rows not stored: their evaluation was canceled or finished
        as they were scored (the caller rolled their insert back), or another job stored its
        results of the same items first (a slice enqueued again while its job still ran: a
        stalled worker's lapsed lease, a sweep after an outage). The judge and the candidate
        bill their calls all the same, so the evaluation's usage and the tenant's (GET
        /v1/usage, the daily budget) count them. A row an earlier try of the same write
        stored (its id is found) is counted already. True when there was something to count
        (the caller commits)."""
        stored = {row["id"] for row in inserted}
        called = [
            row
            for row in rows
            if row["id"] not in stored
            and any(
                row.get(f"{who}_calls") or row.get(f"{who}_failed_calls")
                for who in ("judge", "candidate")
            )
        ]
        if called:
            ids = [row["id"] for row in called]
            found = set(self.session.scalars(select(Result.id).where(Result.id.in_(ids))))
            called = [row for row in called if row["id"] not in found]
        if not called or not self.hold(evaluation_id):
            return False
        self.add_to_summaries(evaluation_id, called, dropped=True)
        self.add_to_usage(evaluation_id, called)
        return True

    def add_to_usage(self, evaluation_id: str, rows: list[dict[str, Any]]) -> None:
        """Count newly stored result rows into the evaluation's usage by UTC day, role and
        model: the rows that made or tried a call of the role, as GET /v1/usage reads them."""
        sums: dict[tuple[Any, str, str], dict[str, Any]] = {}
        for row in rows:
            day = row["created_at"].astimezone(UTC).date()
            for role, prefix in (("judge", ""), ("candidate", "candidate_")):
                calls = row.get(f"{role}_calls") or 0
                failed = row.get(f"{role}_failed_calls") or 0
                if calls <= 0 and failed <= 0:
                    continue
                key = (day, role, row.get(f"{role}_model") or "")
                total = sums.setdefault(key, dict.fromkeys(USAGE_SUMMED, 0))
                total["calls"] += calls
                total["failed_calls"] += failed
                total["prompt_tokens"] += row.get(f"{prefix}prompt_tokens") or 0
                total["completion_tokens"] += row.get(f"{prefix}completion_tokens") or 0
                total["cached_prompt_tokens"] += row.get(f"{prefix}cached_prompt_tokens") or 0
                cost = row.get(f"{role}_cost_usd")
                if cost is None:
                    total["unpriced"] += 1
                else:
                    total["cost_usd"] += cost
        if not sums:
            return
        tenant_id = self.session.scalar(
            select(Evaluation.tenant_id).where(Evaluation.id == evaluation_id)
        )
        add_into(
            self.session,
            UsageDay,
            # Sorted, so concurrent jobs lock the shared rows in one order.
            [
                {
                    "evaluation_id": evaluation_id,
                    "day": day,
                    "role": role,
                    "model": model,
                    "tenant_id": tenant_id,
                    **total,
                }
                for (day, role, model), total in sorted(sums.items())
            ],
            keys=("evaluation_id", "day", "role", "model"),
            added=USAGE_SUMMED,
        )
