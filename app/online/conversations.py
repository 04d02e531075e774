"""Conversation rules (`target: "conversation"`): the calls a rule samples are held by their
conversation (`gen_ai.conversation.id`, else `session.id`) until it has been idle
LOUPE_ONLINE_CONVERSATION_IDLE_SECONDS (and no call of it waits for its trace's retrieval,
app/online/holding.py); the ticker then makes them ONE conversational test case of the rule's
day (app/online/turns.py), judged by the rule's metrics. One that never goes idle is judged
once its first call not judged is LOUPE_ONLINE_CONVERSATION_MAX_SECONDS old or it holds
`MAX_TURNS` calls not judged; its later calls resume it.

A judged conversation's calls are kept LOUPE_ONLINE_CONVERSATION_KEEP_SECONDS: if it resumes
within that time, the next case holds all its calls, earlier ones included (its last
`MAX_TURNS` turns), and names the case it continues. An image of a turn that the media
pipeline refuses is left out of that turn (the turn keeps its text; its metadata says which
image and why), counted `dropped:image_refused`: the rest of the conversation is judged.

A conversation is sampled by a hash of its id, so all its calls are taken or none. Counters:
`received`, `matched`, `sampled` and `skipped` count calls as for span rules; `sent` counts
the conversations stored as test cases (one result per metric each).
"""

import copy
import logging
from collections import Counter
from datetime import datetime, timedelta
from types import SimpleNamespace
from typing import Any

from sqlalchemy.orm import Session

from app.db import utcnow
from app.evaluations import appending
from app.evaluations.case_schemas import MAX_TURNS
from app.media import ingest as media
from app.media.own import OwnMedia
from app.models import OnlineConversationCall, OnlineRule, Tenant
from app.online import days, images, ingest, turns
from app.online.repository import OnlineRuleRepository
from app.outbox import outbox
from app.runtime import Runtime
from app.telemetry.metrics import ONLINE_CALLS
from app.unscoped.online_conversations import UnscopedOnlineConversationRepository

log = logging.getLogger(__name__)
# Conversations one tick stores at most (each in its own transaction); the rest wait a tick.
PER_TICK = 100


def sweep(runtime: Runtime, now: datetime | None = None) -> int:
    """Store each conversation idle LOUPE_ONLINE_CONVERSATION_IDLE_SECONDS (or never idle, but
    with its first call not judged LOUPE_ONLINE_CONVERSATION_MAX_SECONDS old, or `MAX_TURNS`
    calls not judged) as one test case of its rule's day (its own transaction each), after
    forgetting the calls of conversations judged more than LOUPE_ONLINE_CONVERSATION_KEEP_SECONDS
    ago; how many were taken."""
    settings = runtime.settings
    now = now or utcnow()
    with runtime.session() as session:
        repository = UnscopedOnlineConversationRepository(session)
        repository.expire(now - timedelta(seconds=settings.online_conversation_keep_seconds))
        cutoff = now - timedelta(seconds=settings.online_conversation_idle_seconds)
        oldest = now - timedelta(seconds=settings.online_conversation_max_seconds)
        due = repository.idle(cutoff, oldest, MAX_TURNS, now, PER_TICK)
        session.commit()
    taken = 0
    for tenant_id, rule_id, key in due:
        with runtime.session() as session:
            repository = UnscopedOnlineConversationRepository(session)
            earlier, calls = repository.take(rule_id, key, utcnow())
            if not calls:
                continue
            tenant = session.get(Tenant, tenant_id)
            rule = OnlineRuleRepository(session, tenant_id).get_by_id(rule_id)
            if tenant is not None and rule is not None:
                every = sorted([*earlier, *calls], key=lambda row: (row.start_ns or 0, row.id))
                # A case holds the last MAX_TURNS turns: older calls are not kept for the next.
                repository.forget([row.id for row in every[:-MAX_TURNS]])
                _store(session, runtime, tenant, rule, every[-MAX_TURNS:], len(calls))
            session.commit()
            taken += 1
    return taken


def _store(
    session: Session,
    runtime: Runtime,
    tenant: Tenant,
    rule: OnlineRule,
    calls: list[OnlineConversationCall],
    new: int,
) -> None:
    """Append one idle conversation (its calls judged before and the `new` last-held ones) to
    the rule's day, or count its new calls skipped with why."""
    # Copies: taking images in rewrites the case's parts, the held calls keep what came.
    case = turns.conversation_case(
        calls[0].conversation_id,
        [(call.trace_id, call.span_id, copy.deepcopy(call.exchange)) for call in calls],
    )
    _mark_continuation(case, calls)
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
        dropped = images.drop_refused(case, intake)
        if dropped is None:
            reason = "image_refused"
        elif not days.within_budget(session, runtime, tenant, rule, evaluation, day, [case]):
            reason = "over_budget"
        else:
            [index] = appending.append(session, runtime, evaluation, [case], [intake])
            counts[(rule.id, "sent")] += 1
            counts[(rule.id, "dropped:image_refused")] += dropped
            stored = images.stored_references(intake)
            for call in calls:
                call.judged_case = f"{evaluation.id}:{index}"
                call.exchange = images.with_stored(call.exchange, stored)
    if reason is not None:
        counts[(rule.id, f"skipped:{reason}")] += new
    OnlineRuleRepository(session, tenant.id).count(day, dict(counts))
    outbox(session).add(lambda: _count_on_metrics(counts))


def _mark_continuation(case: dict[str, Any], calls: list[OnlineConversationCall]) -> None:
    """Name in the case's metadata the case a resumed conversation continues (the last one its
    calls were judged in) and how many of its calls were judged before."""
    judged = [call for call in calls if call.judged_case]
    if not judged:
        return
    last = max(
        judged, key=lambda call: (call.taken_at.timestamp() if call.taken_at else 0.0, call.id)
    )
    evaluation_id, _, index = (last.judged_case or "").rpartition(":")
    case["metadata_"].update(
        {
            "continues_evaluation_id": evaluation_id,
            "continues_index": int(index),
            "calls_judged_before": len(judged),
        }
    )


def _unfit(rule: OnlineRule, case: dict[str, Any]) -> str | None:
    """Why the rule does not judge this conversation: disabled meanwhile (`rule_disabled`),
    changed meanwhile to judge single calls (`target_changed`: its metrics are not of a
    conversation's shape), a field one of its metrics needs is missing (`missing_fields`: no
    system instructions for role_adherence), or a metric cannot judge it (`unfit_for_metric`:
    no reply to a user turn, or no turn with documents for a turn RAG metric)."""
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
