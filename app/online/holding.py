"""The calls a conversation rule sampled, held by conversation until it is idle
(app/online/conversations.py stores each idle conversation as one test case)."""

from collections import Counter
from collections.abc import Sequence

from sqlalchemy.orm import Session

from app.models import OnlineRule, Tenant
from app.online import matching, turns
from app.online.repository import OnlineCallRepository
from app.online.waiting import OnlineConversationRepository
from app.otlp import JudgedCall


def hold(
    session: Session,
    tenant: Tenant,
    rule: OnlineRule,
    calls: Sequence[JudgedCall],
    counts: Counter[tuple[str, str]],
) -> None:
    """Hold the calls a conversation rule sampled until their conversation is idle; a span the
    rule held (or stored) before, an exporter's retry, is counted `skipped:duplicate`."""
    claimed = OnlineCallRepository(session, tenant.id).claim_spans(
        rule, [(call.trace_id, call.span_id) for call in calls]
    )
    rows = []
    for call in calls:
        key = (call.trace_id, call.span_id)
        conversation = matching.conversation_of(call)
        if key not in claimed or conversation is None:
            counts[(rule.id, "skipped:duplicate")] += 1
            continue
        claimed.discard(key)
        rows.append(
            {
                "rule_id": rule.id,
                "conversation_key": matching.conversation_key(conversation),
                "conversation_id": conversation[:256],
                "trace_id": call.trace_id,
                "span_id": call.span_id,
                "start_ns": call.start_ns,
                "exchange": turns.exchange_of(call),
            }
        )
    OnlineConversationRepository(session, tenant.id).hold(rows)
