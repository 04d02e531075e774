"""Conversation rules (`target: "conversation"`): the calls a rule samples are held by their
conversation (`gen_ai.conversation.id`, else `session.id`) until it has been idle
LOUPE_ONLINE_CONVERSATION_IDLE_SECONDS; the ticker then makes them ONE conversational test
case of the rule's day (app/online/turns.py), judged by the rule's metrics.

A conversation is sampled by a hash of its id, so all its calls are taken or none. Counters:
`received`, `matched`, `sampled` and `skipped` count calls as for span rules; `sent` counts
the conversations stored as test cases (one result per metric each).
"""

import logging
from collections import Counter
from datetime import datetime, timedelta
from types import SimpleNamespace
from typing import Any

from sqlalchemy.orm import Session

from app.db import utcnow
from app.evaluations import appending
from app.media import ingest as media
from app.media.own import OwnMedia
from app.models import OnlineConversationCall, OnlineRule, Tenant
from app.online import days, ingest, turns
from app.online.repository import OnlineRuleRepository
from app.outbox import outbox
from app.runtime import Runtime
from app.telemetry.metrics import ONLINE_CALLS
from app.unscoped.online_conversations import UnscopedOnlineConversationRepository

log = logging.getLogger(__name__)
# Conversations one tick stores at most (each in its own transaction); the rest wait a tick.
PER_TICK = 100


def sweep(runtime: Runtime, now: datetime | None = None) -> int:
    """Store each conversation idle LOUPE_ONLINE_CONVERSATION_IDLE_SECONDS as one test case of
    its rule's day (its own transaction each); how many conversations were taken."""
    idle = timedelta(seconds=runtime.settings.online_conversation_idle_seconds)
    cutoff = (now or utcnow()) - idle
    with runtime.session() as session:
        due = UnscopedOnlineConversationRepository(session).idle(cutoff, PER_TICK)
    taken = 0
    for tenant_id, rule_id, key in due:
        with runtime.session() as session:
            calls = UnscopedOnlineConversationRepository(session).take(rule_id, key)
            if not calls:
                continue
            tenant = session.get(Tenant, tenant_id)
            rule = OnlineRuleRepository(session, tenant_id).get_by_id(rule_id)
            if tenant is not None and rule is not None:
                _store(session, runtime, tenant, rule, calls)
            session.commit()
            taken += 1
    return taken


def _store(
    session: Session,
    runtime: Runtime,
    tenant: Tenant,
    rule: OnlineRule,
    calls: list[OnlineConversationCall],
) -> None:
    """Append one idle conversation to the rule's day, or count its calls skipped with why."""
    case = turns.conversation_case(
        calls[0].conversation_id, [(call.trace_id, call.span_id, call.exchange) for call in calls]
    )
    day = utcnow().date().isoformat()
    counts: Counter[tuple[str, str]] = Counter()
    reason = _unfit(rule, case)
    if reason is None:
        evaluation, reason = days.open_day(session, runtime, tenant, rule, day)
    if reason is None:
        # Held calls carry this server's media as `blob:sha256:` references (holding.py).
        own = OwnMedia(None, session, tenant.id)
        contents = media.case_contents([{**case, "index": 0}])
        intake = media.take_in(contents, runtime.settings, own)
        if intake.errors:
            reason = "image_refused"
        elif not days.within_budget(session, runtime, tenant, rule, evaluation, day, [case]):
            reason = "over_budget"
        else:
            appending.append(session, runtime, evaluation, [case], [intake])
            counts[(rule.id, "sent")] += 1
    if reason is not None:
        counts[(rule.id, f"skipped:{reason}")] += len(calls)
    OnlineRuleRepository(session, tenant.id).count(day, dict(counts))
    outbox(session).add(lambda: _count_on_metrics(counts))


def _unfit(rule: OnlineRule, case: dict[str, Any]) -> str | None:
    """Why the rule does not judge this conversation: disabled meanwhile (`rule_disabled`),
    changed meanwhile to judge single calls (`target_changed`: its metrics are not of a
    conversation's shape), a field one of its metrics needs is missing (`missing_fields`: no
    system instructions for role_adherence), or a metric cannot judge it (`unfit_for_metric`:
    no reply to a user turn)."""
    if not rule.enabled:
        return "rule_disabled"
    if rule.target != "conversation":
        return "target_changed"
    specs = [ingest.metric_spec(spec) for spec in rule.metrics]
    if not case["turns"] or ingest.missing_fields(specs, case):
        return "missing_fields"
    view = SimpleNamespace(**case)
    if any(spec.test_case_problems(view) for spec in specs):
        return "unfit_for_metric"
    return None


def _count_on_metrics(counts: Counter[tuple[str, str]]) -> None:
    for (rule_id, counter), n in counts.items():
        if n:
            ONLINE_CALLS.labels(rule_id, counter.replace(":", "_")).inc(n)
