"""A rule applied to the calls Loupe kept (those any of the tenant's rules stored) within a
time window: through its filter and sampling as they came, the ones it has not judged
appended to its evaluation of today, within its and the tenant's daily budget.

Each backfill considers at most LOUPE_BACKFILL_MAX_CALLS kept calls; a wider window is taken
up in turns (`next_after`), so no request runs unbounded.
"""

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from app import audit
from app.config import Settings
from app.db import utcnow
from app.evaluations import appending
from app.media import ingest as media
from app.models import Evaluation, OnlineCall, OnlineRule, Tenant
from app.online import days, ingest, matching
from app.online.repository import OnlineCallRepository, OnlineRuleRepository
from app.online.schemas import Backfill, BackfillRequest, moment_at
from app.outbox import outbox
from app.problems import FieldError, ProblemError, field_error, invalid_request
from app.runtime import Runtime
from app.telemetry.metrics import ONLINE_CALLS

DEFAULT_SPAN = timedelta(hours=24)
MAX_DAYS_BACK = 31


@dataclass(frozen=True)
class Window:
    """A backfill's window, checked."""

    since: datetime
    until: datetime
    after: int | None


def parse(body: BackfillRequest, settings: Settings, now: datetime | None = None) -> Window:
    """The window asked for, or one 422 naming each field that is wrong."""
    now = now or utcnow()
    errors: list[FieldError] = []
    start, start_error = moment_at(["since"], body.since)
    end, end_error = moment_at(["until"], body.until)
    errors += [error for error in (start_error, end_error) if error]
    after = None
    if body.after is not None:
        if body.after.isdigit():
            after = int(body.after)
        else:
            errors.append(field_error(["after"], "not a backfill's `next_after`", "invalid_cursor"))
    end = end or now
    if start is None:
        try:
            start = end - DEFAULT_SPAN
        except OverflowError:  # until is the first day there is
            start = end
    days_back = min(settings.retention_days or MAX_DAYS_BACK, MAX_DAYS_BACK)
    if not (start_error or end_error):
        if start < now - timedelta(days=days_back):
            errors.append(
                field_error(
                    ["since" if body.since is not None else "until"],
                    f"a backfill goes at most {days_back:g} days back",
                    "too_far_back",
                )
            )
        if start >= end:
            errors.append(
                field_error(
                    ["until"],
                    f"{end.isoformat()} is not after since ({start.isoformat()})",
                    "empty_range",
                )
            )
    if errors:
        raise invalid_request(errors)
    return Window(start, end, after)


def backfill(
    session: Session, runtime: Runtime, tenant: Tenant, rule: OnlineRule, window: Window
) -> Backfill:
    """Apply the rule to the tenant's kept calls of the window; the caller commits."""
    if rule.target == "conversation":
        # Kept calls are single-turn cases (the last user message): no conversation to rebuild.
        raise ProblemError(
            409,
            "Conflict",
            "A conversation rule is not backfilled: the kept calls are single calls, not the "
            "conversations it judges; it judges conversations from the calls it receives.",
            slug="conversation-backfill",
            field=["target"],
        )
    kept = OnlineCallRepository(session, tenant.id)
    limit = runtime.settings.backfill_max_calls
    rows = kept.received(window.since, window.until, window.after, limit + 1)
    truncated = len(rows) > limit
    rows = rows[:limit]
    considered = _each_span_once(rows)
    matched = [call for call in considered if matching.matches(rule.filter, call)]
    sampled = [call for call in matched if matching.sampled(call.trace_id, rule.sampling_rate)]
    judged_already = kept.judged_spans(rule, [call.span_id for call in sampled])
    fresh = [call for call in sampled if call.span_id not in judged_already]
    skipped: Counter[str] = Counter()
    if len(matched) > len(sampled):
        skipped["not_sampled"] = len(matched) - len(sampled)
    day = utcnow().date().isoformat()
    evaluation_id, sent = None, 0
    # Per skip reason, the spans it kept from the judge.
    refused: dict[str, set[tuple[str, str]]] = {}
    if fresh:
        evaluation, refusal = days.open_day(session, runtime, tenant, rule, day)
        evaluation_id = evaluation.id
        if refusal:
            refused[refusal] = {(call.trace_id, call.span_id) for call in fresh}
        else:
            sent, refused = _append(session, runtime, tenant, kept, rule, evaluation, fresh)
        for reason, spans in refused.items():
            skipped[reason] += len(spans)
    already = len(sampled) - len(fresh)
    # Counted once per rule however often a window is backfilled: only the calls no backfill
    # of the rule counted before (and that it had not judged), as `backfilled` (not
    # `received`); the calls it sends to its judge count as `sent` whenever they go.
    new = kept.mark_backfilled(
        rule,
        [
            (call.trace_id, call.span_id)
            for call in considered
            if call.span_id not in judged_already
        ],
    )
    matched_new = [call for call in matched if (call.trace_id, call.span_id) in new]
    sampled_new = [call for call in sampled if (call.trace_id, call.span_id) in new]
    counts = {
        (rule.id, "backfilled"): len(new),
        (rule.id, "matched"): len(matched_new),
        (rule.id, "sampled"): len(sampled_new),
        (rule.id, "sent"): sent,
        (rule.id, "skipped:not_sampled"): len(matched_new) - len(sampled_new),
        **{
            (rule.id, f"skipped:{reason}"): len(
                [
                    call
                    for call in sampled_new
                    if (call.trace_id, call.span_id) in refused.get(reason, ())
                ]
            )
            for reason in skipped
            if reason != "not_sampled"
        },
    }
    OnlineRuleRepository(session, tenant.id).count(day, counts)
    outbox(session).add(lambda: _count_on_metrics(counts))
    audit.record(
        session,
        None,
        "online_rule.backfill",
        "online_rule",
        rule.id,
        tenant_id=tenant.id,
        since=window.since.isoformat(),
        until=window.until.isoformat(),
        sent=sent,
    )
    return Backfill(
        rule_id=rule.id,
        since=window.since,
        until=window.until,
        considered=len(considered),
        matched=len(matched),
        sampled=len(sampled),
        already_judged=already,
        sent=sent,
        skipped=dict(sorted(skipped.items())),
        evaluation_id=evaluation_id,
        truncated=truncated,
        next_after=str(rows[-1].id) if truncated else None,
    )


def _append(
    session: Session,
    runtime: Runtime,
    tenant: Tenant,
    kept: OnlineCallRepository,
    rule: OnlineRule,
    evaluation: Evaluation,
    fresh: list[OnlineCall],
) -> tuple[int, dict[str, set[tuple[str, str]]]]:
    """Copy the calls' test cases (their image references are the tenant's blobs already) to
    the rule's day; how many, and the spans left out by reason: a call without a field one of
    the rule's metrics needs (`missing_fields`), a span the rule stored meanwhile
    (`duplicate`: its live traffic or another backfill), calls past the rule's daily_usd
    (`over_budget`), as live ingest leaves them out."""
    stored = kept.cases(fresh)
    specs = [ingest.metric_spec(spec) for spec in rule.metrics]
    left_out: dict[str, set[tuple[str, str]]] = {}
    # A call whose day was deleted meanwhile has gone with it.
    ready = []
    for call in fresh:
        case = stored.get((call.evaluation_id, call.test_case_index))
        if case is None:
            continue
        fields = {"input": case.input, "actual_output": case.actual_output}
        fields["retrieval_context"] = case.retrieval_context
        if ingest.missing_fields(specs, fields):
            left_out.setdefault("missing_fields", set()).add((call.trace_id, call.span_id))
        else:
            ready.append((call, case))
    as_cases = [
        {
            "client_id": case.client_id,
            "input": case.input,
            "actual_output": case.actual_output,
            "expected_output": None,
            "context": None,
            "retrieval_context": case.retrieval_context,
            "tools_called": case.tools_called,
            "metadata_": case.metadata_,
        }
        for _, case in ready
    ]
    day = utcnow().date().isoformat()
    room = days.within_budget(session, runtime, tenant, rule, evaluation, day, as_cases)
    for call, _ in ready[room:]:
        left_out.setdefault("over_budget", set()).add((call.trace_id, call.span_id))
    ready, as_cases = ready[:room], as_cases[:room]
    claimed = kept.claim_spans(rule, [(call.trace_id, call.span_id) for call, _ in ready])
    cases = []
    for (call, _), case in zip(ready, as_cases, strict=True):
        if (call.trace_id, call.span_id) in claimed:
            cases.append(case)
        else:
            left_out.setdefault("duplicate", set()).add((call.trace_id, call.span_id))
    if not cases:
        return 0, left_out
    nothing_to_take_in = [media.take_in([], runtime.settings) for _ in cases]
    # Not kept again: the call stays kept once, where its traffic put it, and a later
    # backfill's window does not meet it twice.
    appending.append(session, runtime, evaluation, cases, nothing_to_take_in)
    return len(cases), left_out


def _count_on_metrics(counts: dict[tuple[str, str], int]) -> None:
    for (rule_id, counter), n in counts.items():
        if n:
            ONLINE_CALLS.labels(rule_id, counter.replace(":", "_")).inc(n)


def _each_span_once(rows: Sequence[OnlineCall]) -> list[OnlineCall]:
    """The kept calls, a call several rules stored once (its first keeping)."""
    seen: set[tuple[str, str]] = set()
    unique = []
    for row in rows:
        key = (row.trace_id, row.span_id)
        if key not in seen:
            seen.add(key)
            unique.append(row)
    return unique
