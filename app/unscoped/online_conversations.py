"""Conversations whose calls conversation rules hold, idle long enough to be judged, for the
ticker (every tenant's)."""

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import delete, exists, func, or_, select, update
from sqlalchemy.orm import Session, aliased

from app.models import OnlineConversationCall

Held = OnlineConversationCall


class UnscopedOnlineConversationRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def idle(
        self, cutoff: datetime, oldest: datetime, full: int, now: datetime, limit: int = 100
    ) -> list[tuple[str, str, str]]:
        """(tenant id, rule id, conversation key) of conversations with calls not judged yet,
        the last held before `cutoff` (idle), or the first before `oldest`, or `full` of them
        (due however busy), none waiting past `now` for its retrieval; those idle longest
        first."""
        last = func.max(Held.received_at)
        waits = func.max(Held.waits_until)
        rows = self.session.execute(
            select(Held.tenant_id, Held.rule_id, Held.conversation_key)
            .where(Held.taken_at.is_(None))
            .group_by(Held.tenant_id, Held.rule_id, Held.conversation_key)
            .having(
                or_(last < cutoff, func.min(Held.received_at) < oldest, func.count() >= full),
                or_(waits.is_(None), waits < now),
            )
            .order_by(last)
            .limit(limit)
        ).all()
        return [(row[0], row[1], row[2]) for row in rows]

    def take(
        self, rule_id: str, conversation_key: str, now: datetime
    ) -> tuple[list[Held], list[Held]]:
        """The conversation's calls judged before and those held since, each in time order;
        the latter marked taken at `now`, only those this call marked (two tickers taking one
        conversation never both judge it): none, if another ticker took them."""
        rows = list(
            self.session.scalars(
                select(Held).where(
                    Held.rule_id == rule_id, Held.conversation_key == conversation_key
                )
            )
        )
        fresh = [row.id for row in rows if row.taken_at is None]
        if not fresh:
            return [], []
        marked = set(
            self.session.scalars(
                update(Held)
                .where(Held.id.in_(fresh), Held.taken_at.is_(None))
                .values(taken_at=now)
                .returning(Held.id)
                .execution_options(synchronize_session=False)
            )
        )
        if not marked:
            return [], []
        earlier = [row for row in rows if row.taken_at is not None]
        taken = [row for row in rows if row.id in marked]
        for row in taken:
            row.taken_at = now
        return _in_order(earlier), _in_order(taken)

    def forget(self, ids: Sequence[int]) -> None:
        """Delete these held calls (a conversation's oldest, past what a case holds)."""
        if ids:
            self.session.execute(
                delete(Held)
                .where(Held.id.in_(list(ids)))
                .execution_options(synchronize_session=False)
            )

    def expire(self, cutoff: datetime, limit: int = 1000) -> int:
        """Forget the judged calls of conversations judged last before `cutoff` (a later call
        starts a new case); how many conversations."""
        later = aliased(Held)
        stale = self.session.execute(
            select(Held.rule_id, Held.conversation_key)
            .where(
                Held.taken_at < cutoff,
                ~exists().where(
                    later.rule_id == Held.rule_id,
                    later.conversation_key == Held.conversation_key,
                    later.taken_at >= cutoff,
                ),
            )
            .distinct()
            .limit(limit)
        ).all()
        for rule_id, key in stale:
            self.session.execute(
                delete(Held)
                .where(
                    Held.rule_id == rule_id,
                    Held.conversation_key == key,
                    Held.taken_at < cutoff,
                )
                .execution_options(synchronize_session=False)
            )
        return len(stale)


def _in_order(rows: list[Held]) -> list[Held]:
    return sorted(rows, key=lambda row: (row.start_ns or 0, row.id))
