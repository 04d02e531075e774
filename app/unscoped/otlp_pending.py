"""Kept-aside spans and records past their join window, for the ticker (every tenant's)."""

from datetime import datetime

from sqlalchemy import and_, delete, or_, select
from sqlalchemy.orm import Session

from app.models import OtlpPending


class UnscopedOtlpPendingRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def take_expired(
        self, cutoff: datetime, documents_cutoff: datetime, limit: int = 5000
    ) -> list[OtlpPending]:
        """Items kept since before `cutoff` (retrieval spans, `docs`: `documents_cutoff`),
        oldest first (deleted as they are read): only those this call deleted, so two tickers
        taking them at once never both count one."""
        rows = list(
            self.session.scalars(
                select(OtlpPending)
                .where(
                    # The later bound on its own too: the received_at index finds candidates.
                    OtlpPending.received_at < max(cutoff, documents_cutoff),
                    or_(
                        and_(OtlpPending.what != "docs", OtlpPending.received_at < cutoff),
                        and_(
                            OtlpPending.what == "docs", OtlpPending.received_at < documents_cutoff
                        ),
                    ),
                )
                .order_by(OtlpPending.id)
                .limit(limit)
            )
        )
        return take(self.session, rows)


def take(session: Session, rows: list[OtlpPending]) -> list[OtlpPending]:
    """Delete these waiting items; the ones this call deleted (two callers taking one item
    never both get it: only the one whose DELETE removed it)."""
    if not rows:
        return rows
    deleted = set(
        session.scalars(
            delete(OtlpPending)
            .where(OtlpPending.id.in_([row.id for row in rows]))
            .returning(OtlpPending.id)
            .execution_options(synchronize_session=False)
        )
    )
    return [row for row in rows if row.id in deleted]
