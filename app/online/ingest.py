"""Received calls through a tenant's enabled rules: counted, filtered, sampled, and the
sampled ones appended as test cases to the rule's evaluation of the day, judged by workers.

Counters are added once per request and rule, never per span; only sampled calls are stored.
"""

import functools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from pydantic import TypeAdapter
from sqlalchemy.orm import Session

from app import otlp
from app.db import utcnow
from app.evaluations import appending
from app.media.own import OwnMedia
from app.metrics import MetricSpec, MetricSpecBase
from app.models import OnlineRule, OtlpPending, Tenant
from app.online import calls as kept
from app.online import days as days_of
from app.online import holding, joining, matching, turns, wanting
from app.online.intakes import Intakes
from app.online.repository import OnlineCallRepository, OnlineRuleRepository
from app.online.waiting import OtlpPendingRepository
from app.otlp import Image, JudgedCall, Skipped, SkipReason, Text, Unread
from app.outbox import outbox
from app.runtime import Runtime
from app.telemetry.metrics import ONLINE_CALLS
from app.unscoped.otlp_pending import UnscopedOtlpPendingRepository

KIND = days_of.KIND
_metric: TypeAdapter[MetricSpecBase] = TypeAdapter(MetricSpec)


@dataclass
class Taken:
    """What one request's calls did: how many were model calls, how many each rule sent to its
    judge."""

    calls: int = 0
    sent: dict[str, int] = field(default_factory=dict)


def take_spans(
    session: Session,
    runtime: Runtime,
    tenant: Tenant,
    spans: Sequence[otlp.Span],
    own: OwnMedia,
) -> Taken:
    """Run one request's spans through the tenant's enabled rules; the caller commits. A span
    whose messages travel in log records waits for them (app/online/joining.py).

    Args:
        own: this server's media as the tenant reads them, on the request's base URL: a
            call's images naming them are read from the store, never fetched.
    """
    rules = OnlineRuleRepository(session, tenant.id).enabled()
    if not rules:
        return Taken()
    pending = OtlpPendingRepository(session, tenant.id)
    needing = wanting.needing_documents(rules)
    joined = joining.calls_of_spans(
        pending,
        spans,
        functools.partial(wanting.sampled_by_any, rules),
        functools.partial(wanting.trace_read_by_any, rules),
        functools.partial(wanting.needs_documents, needing),
    )
    taken = _take_joined(session, runtime, tenant, joined, rules, needing, own)
    if joined.retrievals and any(rule.target == "conversation" for rule in rules):
        holding.document(session, tenant, joined.retrievals)
    return taken


def _take_joined(
    session: Session,
    runtime: Runtime,
    tenant: Tenant,
    joined: joining.Joined,
    rules: Sequence[OnlineRule],
    needing: Sequence[OnlineRule],
    own: OwnMedia,
) -> Taken:
    """Joined calls through their rules: each rule counts a call once, the rules needing
    documents when they come (or the join window passes without them)."""
    taken = take(session, runtime, tenant, joined.calls, rules, own)
    others = [rule for rule in rules if rule not in needing]
    for calls, by in ((joined.held, others), (joined.late, needing)):
        if calls and by:
            more = take(session, runtime, tenant, calls, by, own)
            taken.calls += more.calls
            taken.sent.update(more.sent)
    return taken


def take_records(
    session: Session,
    runtime: Runtime,
    tenant: Tenant,
    records: Sequence[otlp.LogRecord],
    own: OwnMedia,
) -> Taken:
    """Run the calls these log records complete through the tenant's rules; the caller commits
    (`own` as for `take_spans`)."""
    rules = OnlineRuleRepository(session, tenant.id).enabled()
    if not rules:
        return Taken()
    pending = OtlpPendingRepository(session, tenant.id)
    needing = wanting.needing_documents(rules)
    joined = joining.calls_of_records(
        pending,
        records,
        functools.partial(wanting.trace_read_by_any, rules),
        functools.partial(wanting.needs_documents, needing),
    )
    return _take_joined(session, runtime, tenant, joined, rules, needing, own)


def expire_pending(runtime: Runtime) -> int:
    """Count the spans that waited LOUPE_OTLP_JOIN_SECONDS for records that never came (as
    they stand: without content), give the calls whose retrieval never came to the rules that
    needed it (counted `missing_fields`), and drop records whose span never came and
    retrievals past LOUPE_OTLP_RETRIEVAL_KEEP_SECONDS; how many items."""
    now = utcnow()
    cutoff = now - timedelta(seconds=runtime.settings.otlp_join_seconds)
    documents_cutoff = now - timedelta(seconds=runtime.settings.otlp_retrieval_keep_seconds)
    with runtime.session() as session:
        rows = UnscopedOtlpPendingRepository(session).take_expired(cutoff, documents_cutoff)
        by_tenant: dict[tuple[str, str], list[OtlpPending]] = {}
        for row in rows:
            if row.what in ("span", "call"):
                by_tenant.setdefault((row.tenant_id, row.what), []).append(row)
        for (tenant_id, what), kept_rows in by_tenant.items():
            tenant = session.get(Tenant, tenant_id)
            rules = OnlineRuleRepository(session, tenant_id).enabled() if tenant else []
            if what == "call":
                rules = wanting.needing_documents(rules)
                spans, records = joining.unpack_held(kept_rows)
            else:
                spans, records = [otlp.unpack_span(row.body) for row in kept_rows], []
            if tenant is not None and rules:
                # No request: only `blob:sha256:` references are this server's media here.
                own = OwnMedia(None, session, tenant_id)
                calls = joining.expired_calls(spans, records)
                take(session, runtime, tenant, calls, rules, own)
        session.commit()
    return len(rows)


def take(
    session: Session,
    runtime: Runtime,
    tenant: Tenant,
    calls: Sequence[joining.Call],
    rules: Sequence[OnlineRule],
    own: OwnMedia,
) -> Taken:
    """Run calls through these rules of the tenant: counted, filtered, sampled, judged; their
    images naming this server's media (`own`) read from its store."""
    model_calls = [
        call
        for call in calls
        if not (isinstance(call, Skipped) and call.reason == SkipReason.NOT_A_MODEL_CALL)
    ]
    taken = Taken(calls=len(model_calls))
    if not model_calls:
        return taken
    days = OnlineRuleRepository(session, tenant.id)
    day = utcnow().date().isoformat()
    counts: Counter[tuple[str, str]] = Counter()
    # A span that waited for log records in vain may be a retried export of a span whose
    # records were joined to its first copy: a rule that stored that copy counts a duplicate.
    waited = [
        (call.trace_id, call.span_id)
        for call in model_calls
        if isinstance(call, Skipped) and call.awaits_records
    ]
    stored_calls = OnlineCallRepository(session, tenant.id) if waited else None
    # The calls' images: fetched together, taken in for the first rule that stores a call.
    intakes = Intakes(runtime.settings, own)
    for rule in rules:
        retried = stored_calls.stored_spans(rule, waited) if stored_calls is not None else set()
        chosen = _choose(rule, model_calls, counts, retried)
        if chosen and rule.target == "conversation":
            # Judged as one test case once the conversation is idle (the ticker's sweep).
            waits = utcnow() + timedelta(seconds=runtime.settings.otlp_join_seconds)
            holding.hold(session, tenant, rule, chosen, counts, own, waits)
        elif chosen:
            sent = _judge_calls(session, runtime, tenant, rule, day, chosen, days, counts, intakes)
            counts[(rule.id, "sent")] += sent
            taken.sent[rule.id] = sent
    days.count(day, dict(counts))
    # On /metrics once the counts are committed (a rolled-back request counted nothing).
    outbox(session).add(lambda: _count_on_metrics(counts))
    return taken


def _count_on_metrics(counts: Counter[tuple[str, str]]) -> None:
    for (rule_id, counter), n in counts.items():
        if n:
            ONLINE_CALLS.labels(rule_id, counter.replace(":", "_")).inc(n)


def _choose(
    rule: OnlineRule,
    calls: Sequence[joining.Call],
    counts: Counter[tuple[str, str]],
    retried: set[tuple[str, str]],
) -> list[JudgedCall]:
    """The calls the rule takes and samples that have content; the rest counted by reason (a
    conversation rule's call that names no conversation: `no_conversation_id`, or
    `conversation_id_dropped` when its span dropped attributes; a span without content that
    the rule stored before, in `retried`: `duplicate`)."""
    chosen = []
    for call in calls:
        counts[(rule.id, "received")] += 1
        if not matching.matches(rule.filter, call):
            continue
        counts[(rule.id, "matched")] += 1
        if rule.target == "conversation":
            conversation = matching.conversation_of(call)
            if conversation is None:
                counts[(rule.id, f"skipped:{matching.unplaced(call)}")] += 1
                continue
            sampled = matching.sampled_conversation(conversation, rule.sampling_rate)
        else:
            sampled = matching.sampled(call.trace_id, rule.sampling_rate)
        if not sampled:
            counts[(rule.id, "skipped:not_sampled")] += 1
            continue
        counts[(rule.id, "sampled")] += 1
        if isinstance(call, Unread):  # not read as no rule samples it: not reached
            continue
        if isinstance(call, Skipped):
            again = (call.trace_id, call.span_id) in retried
            counts[(rule.id, "skipped:duplicate" if again else f"skipped:{call.reason.value}")] += 1
            continue
        chosen.append(call)
    return chosen


def _judge_calls(
    session: Session,
    runtime: Runtime,
    tenant: Tenant,
    rule: OnlineRule,
    day: str,
    calls: list[JudgedCall],
    days: OnlineRuleRepository,
    counts: Counter[tuple[str, str]],
    intakes: Intakes,
) -> int:
    """Append the calls the budgets allow to the rule's evaluation of the day; how many."""
    specs = [_metric.validate_python(spec) for spec in rule.metrics]
    ready = []
    for call in calls:
        case = stored_case(call)
        if missing_fields(specs, case):
            counts[(rule.id, "skipped:missing_fields")] += 1
        else:
            ready.append((call, case))
    if not ready:
        return 0
    evaluation, refused = days_of.open_day(session, runtime, tenant, rule, day, days)
    if refused is not None:
        counts[(rule.id, f"skipped:{refused}")] += len(ready)
        return 0
    # A retried export's calls this rule stored before are its duplicates before their images
    # are fetched again (`_first_times` still settles two requests bringing a span at once).
    stored = OnlineCallRepository(session, tenant.id).stored_spans(
        rule, [(call.trace_id, call.span_id) for call, _ in ready]
    )
    if stored:
        fresh = [pair for pair in ready if (pair[0].trace_id, pair[0].span_id) not in stored]
        counts[(rule.id, "skipped:duplicate")] += len(ready) - len(fresh)
        ready = fresh
    cases, taken_in, taken = [], [], []
    for (call, case), intake in zip(ready, intakes.of(ready), strict=True):
        if intake.errors:
            counts[(rule.id, "skipped:image_refused")] += 1
            continue
        cases.append(case)
        taken_in.append(intake)
        taken.append(call)
    # Past the rule's daily_usd with the calls taken and not judged yet: a batch is cut.
    room = days_of.within_budget(session, runtime, tenant, rule, evaluation, day, cases)
    counts[(rule.id, "skipped:over_budget")] += len(cases) - room
    cases, taken_in, taken = cases[:room], taken_in[:room], taken[:room]
    cases, taken_in, taken = _first_times(session, tenant, rule, cases, taken_in, taken, counts)
    if cases:
        appending.append(session, runtime, evaluation, cases, taken_in)
        kept.keep(session, evaluation, cases, taken)
    return len(cases)


def metric_spec(spec: dict[str, Any]) -> MetricSpecBase:
    """A stored metric spec as its metric reads it."""
    return _metric.validate_python(spec)


def missing_fields(specs: Sequence[MetricSpecBase], case: dict[str, Any]) -> list[str]:
    """The test-case fields some metric needs that a call (in stored form) does not give,
    as POST /v1/evaluations refuses them (`missing_for_metric`): such a call is not judged
    (counted `skipped:missing_fields`), its judge would be asked about nothing."""
    missing = []
    for spec in specs:
        for name in spec.required_test_case_fields():
            # An empty list is a valid (empty) retrieval context; None and "" are missing.
            if case.get(name) in (None, "") and name not in missing:
                missing.append(name)
    return missing


def _first_times(
    session: Session,
    tenant: Tenant,
    rule: OnlineRule,
    cases: list[dict[str, Any]],
    intakes: list[Any],
    calls: list[JudgedCall],
    counts: Counter[tuple[str, str]],
) -> tuple[list[dict[str, Any]], list[Any], list[JudgedCall]]:
    """The calls whose span the rule never stored before (on any day; once if a request
    holds it twice); the others, retried exports, counted `skipped:duplicate`."""
    claimed = OnlineCallRepository(session, tenant.id).claim_spans(
        rule, [(call.trace_id, call.span_id) for call in calls]
    )
    kept_cases, kept_intakes, kept_calls = [], [], []
    for case, intake, call in zip(cases, intakes, calls, strict=True):
        key = (call.trace_id, call.span_id)
        if key not in claimed:
            counts[(rule.id, "skipped:duplicate")] += 1
            continue
        claimed.discard(key)
        kept_cases.append(case)
        kept_intakes.append(intake)
        kept_calls.append(call)
    return kept_cases, kept_intakes, kept_calls


def stored_case(call: JudgedCall) -> dict[str, Any]:
    """A call as a test case in stored form: the last user message (its text and images) in,
    the output messages' text out, the tools they called, the trace's retrieved documents,
    where it came from."""
    last_user = next(
        (message for message in reversed(call.input_messages) if message.role == "user"), None
    )
    parts: list[Any] = []
    for part in last_user.parts if last_user else ():
        if isinstance(part, Text) and part.text:
            parts.append(part.text)
        elif isinstance(part, Image):
            parts.append({"type": "image_url", "image_url": {"url": part.url}})
    content: Any = parts[0] if len(parts) == 1 and isinstance(parts[0], str) else parts
    metadata = {
        "trace_id": call.trace_id,
        "span_id": call.span_id,
        "service": call.service_name,
        "model": call.model,
        "convention": call.convention,
        "response_id": call.response_id,
        # The chat the call belongs to: an alignment keeps one chat's calls on one side.
        "conversation_id": call.conversation_id,
        # What the instrumentation or its SDK lost on the way (an attribute limit evicting the
        # oldest messages, lists cut), so a judged call says what it was judged without.
        "warnings": "; ".join(call.warnings),
    }
    # The tools the reply called, as a test case holds them (the call id only pairs results).
    tools = [
        {key: value for key, value in tool.items() if key != "id" and value is not None}
        for tool in turns.tools_called(call)
    ]
    return {
        "client_id": call.span_id,
        "input": content or "",
        "actual_output": call.output_text,
        "expected_output": None,
        "context": None,
        "retrieval_context": list(call.retrieval_context) or None,
        "tools_called": tools or None,
        "metadata_": {key: str(value)[:512] for key, value in metadata.items() if value},
    }
