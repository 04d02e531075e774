"""The SQL of what waits, scoped to one tenant: spans and log records kept aside until their
partner arrives (app/online/joining.py), calls held until their conversation is idle
(app/online/holding.py)."""

from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import insert

from app.db import utcnow
from app.models import OnlineConversationCall, OtlpPending
from app.repository import TenantScopedRepository
from app.unscoped.otlp_pending import take


class OtlpPendingRepository(TenantScopedRepository[OtlpPending]):
    """A tenant's spans and log records kept aside until their partner arrives."""

    model = OtlpPending

    def keep(self, what: str, items: Sequence[tuple[str, str, dict[str, Any]]]) -> None:
        """Keep (trace id, span id, packed span or record) items aside."""
        if items:
            self.session.execute(
                insert(OtlpPending),
                [
                    {
                        "tenant_id": self.tenant_id,
                        "trace_id": trace_id,
                        "span_id": span_id,
                        "what": what,
                        "body": body,
                        "received_at": utcnow(),
                    }
                    for trace_id, span_id, body in items
                ],
            )

    def take(self, what: str, span_ids: Iterable[str]) -> list[OtlpPending]:
        """The kept items of these spans (deleted as they are read: the caller consumes them)."""
        wanted = sorted(set(span_ids))
        if not wanted:
            return []
        rows = list(
            self.session.scalars(
                self.get_base_statement().where(
                    OtlpPending.what == what, OtlpPending.span_id.in_(wanted)
                )
            )
        )
        # Only the items this request deleted: two requests taking one never both join it.
        return take(self.session, rows)

    def take_of_traces(self, what: str, trace_ids: Iterable[str]) -> list[OtlpPending]:
        """The kept items of these traces (deleted as they are read, as `take`)."""
        wanted = sorted(set(trace_ids))
        if not wanted:
            return []
        rows = list(
            self.session.scalars(
                self.get_base_statement().where(
                    OtlpPending.what == what, OtlpPending.trace_id.in_(wanted)
                )
            )
        )
        return take(self.session, rows)

    def documents(self, trace_ids: Iterable[str]) -> list[OtlpPending]:
        """The retrieval spans kept for these traces (`docs`), oldest first; read, not taken:
        every later call of the trace reads them until they expire."""
        wanted = sorted(set(trace_ids))
        if not wanted:
            return []
        return list(
            self.session.scalars(
                self.get_base_statement()
                .where(OtlpPending.what == "docs", OtlpPending.trace_id.in_(wanted))
                .order_by(OtlpPending.id)
            )
        )


class OnlineConversationRepository(TenantScopedRepository[OnlineConversationCall]):
    """The calls a tenant's conversation rules hold until their conversation is idle."""

    model = OnlineConversationCall

    def hold(self, rows: Sequence[dict[str, Any]]) -> None:
        """Hold these calls (columns of `online_conversation_call` but the tenant)."""
        if rows:
            self.session.execute(
                insert(OnlineConversationCall),
                [{**row, "tenant_id": self.tenant_id, "received_at": utcnow()} for row in rows],
            )

    def of_traces(self, trace_ids: Iterable[str]) -> list[OnlineConversationCall]:
        """The held calls of these traces (a retrieval of their trace came)."""
        wanted = sorted(set(trace_ids))
        if not wanted:
            return []
        return list(
            self.session.scalars(
                self.get_base_statement().where(OnlineConversationCall.trace_id.in_(wanted))
            )
        )
