"""Conversations whose calls conversation rules hold, idle long enough to be judged, for the
ticker (every tenant's)."""

from datetime import datetime

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from app.models import OnlineConversationCall


class UnscopedOnlineConversationRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def idle(self, cutoff: datetime, limit: int = 100) -> list[tuple[str, str, str]]:
        """(tenant id, rule id, conversation key) of conversations whose last call was held
        before `cutoff`, those idle longest first."""
        last = func.max(OnlineConversationCall.received_at)
        rows = self.session.execute(
            select(
                OnlineConversationCall.tenant_id,
                OnlineConversationCall.rule_id,
                OnlineConversationCall.conversation_key,
            )
            .group_by(
                OnlineConversationCall.tenant_id,
                OnlineConversationCall.rule_id,
                OnlineConversationCall.conversation_key,
            )
            .having(last < cutoff)
            .order_by(last)
            .limit(limit)
        ).all()
        return [(row[0], row[1], row[2]) for row in rows]

    def take(self, rule_id: str, conversation_key: str) -> list[OnlineConversationCall]:
        """The conversation's held calls in time order (deleted as they are read): only those
        this call deleted, so two tickers taking one conversation never both judge it."""
        rows = list(
            self.session.scalars(
                select(OnlineConversationCall).where(
                    OnlineConversationCall.rule_id == rule_id,
                    OnlineConversationCall.conversation_key == conversation_key,
                )
            )
        )
        if not rows:
            return rows
        deleted = set(
            self.session.scalars(
                delete(OnlineConversationCall)
                .where(OnlineConversationCall.id.in_([row.id for row in rows]))
                .returning(OnlineConversationCall.id)
                .execution_options(synchronize_session=False)
            )
        )
        taken = [row for row in rows if row.id in deleted]
        return sorted(taken, key=lambda row: (row.start_ns or 0, row.id))
