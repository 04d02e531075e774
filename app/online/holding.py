"""The calls a conversation rule sampled, held by conversation until it is idle
(app/online/conversations.py stores each idle conversation as one test case)."""

from collections import Counter
from collections.abc import Sequence
from typing import Any

from sqlalchemy.orm import Session

from app.media.own import OwnMedia
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
    own: OwnMedia,
) -> None:
    """Hold the calls a conversation rule sampled until their conversation is idle; a span the
    rule held (or stored) before, an exporter's retry, is counted `skipped:duplicate`.

    Their images naming this server's media (`own`, on the request's base URL) are held as
    `blob:sha256:` references: the ticker judges the conversation with no request to say
    which host is this server's, and reads a reference from the store, the tenant's own
    blobs only, as a submission's."""
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
                "exchange": _with_references(turns.exchange_of(call), own),
            }
        )
    OnlineConversationRepository(session, tenant.id).hold(rows)


def _with_references(exchange: dict[str, Any], own: OwnMedia) -> dict[str, Any]:
    """The exchange with its user messages' media URLs of this server as references."""
    inputs = [
        {**item, "user": own.as_references(item["user"])} if "user" in item else item
        for item in exchange["inputs"]
    ]
    return {**exchange, "inputs": inputs}
