"""Spans and the log records carrying their messages, joined across requests.

Some instrumentations put a call's messages in log records (the official one's details event,
the earlier per-message events) that their exporters send apart from the span, in either
order. A span that gives no content keeps aside until its records come, and records until
their span does, for LOUPE_OTLP_JOIN_SECONDS; past that the ticker counts the span as it
stands (no content) and drops the records.

A trace's retrieval step and its model calls travel apart too: the SDK exports each span as it
ends (a simple processor) or a batch at a time, so a retrieval is often in the request before
its call's. A retrieval span of a trace some rule may read is kept aside (`docs`) for
LOUPE_OTLP_RETRIEVAL_KEEP_SECONDS, and the later calls of its trace, whichever request brings
them, read its documents as if it had come with them. A retrieval may also come after its
call (another service's spans, a collector's batches): a call some span rule needs documents
for (`faithfulness`, the contextual metrics) and that has none waits for them (`call`), as a
span waits for its records, and is judged as it stands once the join window passes.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from app import otlp
from app.online.waiting import OtlpPendingRepository
from app.otlp import JudgedCall, LogRecord, Skipped, Span, Unread

Call = JudgedCall | Skipped | Unread


@dataclass
class Joined:
    """A request's calls: `calls` for every rule; `held`, calls without documents that some
    span rule needs them for (`faithfulness`, the contextual metrics): the other rules take
    them now, and they wait aside for a retrieval of their trace; `late`, calls that waited
    and whose retrieval came, for the rules that need documents only."""

    calls: list[Call] = field(default_factory=list)
    held: list[JudgedCall] = field(default_factory=list)
    late: list[JudgedCall] = field(default_factory=list)
    # The request's retrieval spans of traces some rule may read: they also give the calls a
    # conversation rule holds their documents (app/online/holding.py).
    retrievals: list[Span] = field(default_factory=list)


def calls_of_spans(
    pending: OtlpPendingRepository,
    spans: Sequence[Span],
    read: Callable[[Span], bool],
    traced: Callable[[str], bool],
    needs_documents: Callable[[JudgedCall], bool],
) -> Joined:
    """The spans' calls, their records joined from those kept aside; a span that gives no
    content is kept aside for its records instead of being returned. Only the spans `read`
    takes (some rule samples them) are read and wait for records; the others come back Unread.
    Retrieval spans of the traces `traced` says some rule may read are kept for later calls;
    a call without documents that `needs_documents` is also kept aside for them, and the calls
    that waited for the documents of this request's retrieval spans come back `late`."""
    kept = [otlp.unpack_record(row.body) for row in pending.take("log", _span_ids(spans))]
    joined = {(record.trace_id, record.span_id) for record in kept}
    by_key = {(span.trace_id, span.span_id): span for span in spans}
    retrievals = [span for span in spans if otlp.is_retrieval(span) and traced(span.trace_id)]
    pending.keep("docs", [(span.trace_id, span.span_id, otlp.pack(span)) for span in retrievals])
    late, late_records = unpack_held(
        pending.take_of_traces("call", {span.trace_id for span in retrievals})
    )
    batch = [*spans, *late]
    read_traces = {span.trace_id for span in batch if not otlp.is_retrieval(span) and read(span)}
    out, waiting, undocumented = Joined(retrievals=retrievals), [], []
    joinable = [*kept, *late_records]
    for call in otlp.judged_calls(
        _with_documents(pending, batch, read_traces), joinable, read=read
    ):
        key = (call.trace_id, call.span_id)
        if key not in by_key:
            if isinstance(call, JudgedCall):  # as it was when it was kept: it had content
                out.late.append(call)
            continue
        if _contentless(call) and key not in joined:
            waiting.append((*key, otlp.pack(by_key[key])))
            continue
        if _undocumented(call, needs_documents):
            undocumented.append((*key, _held(by_key[key], kept)))
            out.held.append(call)
            continue
        out.calls.append(call)
    pending.keep("span", waiting)
    pending.keep("call", undocumented)
    return out


def calls_of_records(
    pending: OtlpPendingRepository,
    records: Sequence[LogRecord],
    sampled: Callable[[str], bool],
    needs_documents: Callable[[JudgedCall], bool],
) -> Joined:
    """The calls of the spans kept aside that these records complete (held for documents as
    in `calls_of_spans`); records whose span has not come yet are kept aside for it, unless
    `sampled` says no rule samples their trace id (their span will not be read: dropped)."""
    carrying = [
        record for record in records if otlp.message_record(record) and sampled(record.trace_id)
    ]
    if not carrying:
        return Joined()
    spans = [otlp.unpack_span(row.body) for row in pending.take("span", _span_ids(carrying))]
    by_key = {(span.trace_id, span.span_id): span for span in spans}
    pending.keep(
        "log",
        [
            (record.trace_id, record.span_id, otlp.pack(record))
            for record in carrying
            if (record.trace_id, record.span_id) not in by_key
        ],
    )
    out = Joined()
    if not spans:
        return out
    traces = {span.trace_id for span in spans}
    undocumented = []
    for call in otlp.judged_calls(_with_documents(pending, spans, traces), carrying):
        if _undocumented(call, needs_documents):
            key = (call.trace_id, call.span_id)
            undocumented.append((*key, _held(by_key[key], carrying)))
            out.held.append(call)
        else:
            out.calls.append(call)
    pending.keep("call", undocumented)
    return out


def _undocumented(
    call: Call, needs_documents: Callable[[JudgedCall], bool]
) -> TypeGuard[JudgedCall]:
    """A call without documents that a rule needs them for: it waits for its trace's."""
    return isinstance(call, JudgedCall) and not call.retrieval_context and needs_documents(call)


def expired_calls(spans: Sequence[Span], records: Sequence[LogRecord] = ()) -> list[Call]:
    """Spans whose records, or calls whose retrieval, never came, as they stand (a span
    without its records: counted without content)."""
    return otlp.judged_calls(spans, records)


def _held(span: Span, records: Sequence[LogRecord]) -> dict[str, Any]:
    """A call held for its documents, as kept: its span and the records that gave its
    messages (read again with them when its retrieval comes)."""
    mine = [
        otlp.pack(record)
        for record in records
        if (record.trace_id, record.span_id) == (span.trace_id, span.span_id)
    ]
    return {"span": otlp.pack(span), "records": mine}


def unpack_held(rows: Sequence[Any]) -> tuple[list[Span], list[LogRecord]]:
    """The spans and records of held calls' rows (`call`)."""
    spans = [otlp.unpack_span(row.body["span"]) for row in rows]
    records = [otlp.unpack_record(packed) for row in rows for packed in row.body["records"]]
    return spans, records


def _with_documents(
    pending: OtlpPendingRepository, spans: Sequence[Span], traces: set[str]
) -> list[Span]:
    """`spans` after the retrieval spans kept from earlier requests of these traces (each
    once, however often it was sent): judged_calls gives the calls their documents."""
    here = {(span.trace_id, span.span_id) for span in spans}
    earlier: dict[tuple[str, str], Span] = {}
    for row in pending.documents(traces):
        key = (row.trace_id, row.span_id)
        if key not in here and key not in earlier:
            earlier[key] = otlp.unpack_span(row.body)
    return [*earlier.values(), *spans]


def _contentless(call: Call) -> bool:
    """A call without content that its log records may still bring."""
    return isinstance(call, Skipped) and call.awaits_records


def _span_ids(items: Sequence[Span] | Sequence[LogRecord]) -> list[str]:
    return [item.span_id for item in items if item.span_id]
