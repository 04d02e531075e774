"""The calls a conversation rule sampled, held by conversation until it is idle
(app/online/conversations.py stores each idle conversation as one test case).

A call without documents, held by a rule whose metrics read a turn's `retrieval_context`
(`turn_faithfulness`, `turn_contextual_relevancy`), keeps its conversation from being judged
for LOUPE_OTLP_JOIN_SECONDS: its trace's retrieval step may come in a later export. A
retrieval that comes while the call is held, in that window or after it, gives the call its
documents (those of retrievals started before the call, as in one export)."""

from collections import Counter
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from app import otlp
from app.media.own import OwnMedia
from app.models import OnlineRule, Tenant
from app.online import matching, turns, wanting
from app.online.repository import OnlineCallRepository
from app.online.waiting import OnlineConversationRepository
from app.otlp import JudgedCall, Span


def hold(
    session: Session,
    tenant: Tenant,
    rule: OnlineRule,
    calls: Sequence[JudgedCall],
    counts: Counter[tuple[str, str]],
    own: OwnMedia,
    waits_until: datetime,
) -> None:
    """Hold the calls a conversation rule sampled until their conversation is idle; a span the
    rule held (or stored) before, an exporter's retry, is counted `skipped:duplicate`. A call
    without documents that the rule's metrics read keeps the conversation until `waits_until`
    (its retrieval may come in a later export).

    Their images naming this server's media (`own`, on the request's base URL) are held as
    `blob:sha256:` references: the ticker judges the conversation with no request to say
    which host is this server's, and reads a reference from the store, the tenant's own
    blobs only, as a submission's."""
    claimed = OnlineCallRepository(session, tenant.id).claim_spans(
        rule, [(call.trace_id, call.span_id) for call in calls]
    )
    rows = []
    reads_documents = wanting.reads_turn_documents(rule)
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
                "waits_until": (
                    waits_until if reads_documents and not call.retrieval_context else None
                ),
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


def document(session: Session, tenant: Tenant, retrievals: Sequence[Span]) -> None:
    """Give the held calls of these retrieval spans' traces without documents those of the
    retrievals started before them; a retrieval of its trace ends a call's wait either way
    (one started after the call gives it none, as in one export)."""
    found = otlp.retrieval_documents(retrievals, otlp.DEFAULT_LIMITS)
    for row in OnlineConversationRepository(session, tenant.id).of_traces(found):
        if row.exchange.get("retrieval_context"):
            continue
        texts = [
            text
            for started, text in found[row.trace_id]
            if not row.start_ns or started <= row.start_ns
        ]
        if texts:
            row.exchange = {**row.exchange, "retrieval_context": texts}
        row.waits_until = None
