"""A call no rule samples is counted from its attributes alone: its messages are never read,
it never waits for log records, and its records are not kept for it (issue 26: the cost of a
span not sampled stays that of its attributes)."""

import copy

from sqlalchemy import func, select

from app import otlp
from app.models import OtlpPending
from tests.fixtures.api import Api
from tests.online.test_joining import bare_span, counts, details_record
from tests.online.test_receiver import make_rule

# Its lower 64 bits are past every rate below 1, so a rule at rate 0.5 leaves it out too.
UNSAMPLED_TRACE = "0af7651916cd43ddfffffffffffffff0"
SAMPLED_TRACE = "0af7651916cd43dd0000000000000001"


def with_trace(export: dict, trace_id: str) -> dict:
    """The export with each span's or record's trace id replaced."""
    export = copy.deepcopy(export)
    for outer in export.get("resourceSpans", []) + export.get("resourceLogs", []):
        for scope in outer.get("scopeSpans", []) + outer.get("scopeLogs", []):
            for item in scope.get("spans", []) + scope.get("logRecords", []):
                item["traceId"] = trace_id
    return export


def pending_rows(api: Api, what: str, trace_id: str) -> int:
    """How many spans or log records ("span", "log") of the trace are kept aside."""
    with api.served.runtime.session() as session:
        return session.scalar(
            select(func.count())
            .select_from(OtlpPending)
            .where(OtlpPending.what == what, OtlpPending.trace_id == trace_id)
        )


class TestUnsampled:
    def test_a_span_without_content_no_rule_samples_is_counted_at_once(self, api: Api) -> None:
        client = api.tenant_client()
        rule = make_rule(client, sampling={"rate": 0.5})
        export = with_trace(bare_span(), UNSAMPLED_TRACE)
        assert client.post("/v1/traces", json=export).status_code == 200
        # Not kept aside for records that could not make it judged: counted now.
        assert pending_rows(api, "span", UNSAMPLED_TRACE) == 0
        assert counts(client, rule) == {
            "received": 1,
            "matched": 1,
            "sampled": 0,
            "sent": 0,
            "judged": 0,
            "errored": 0,
            "backfilled": 0,
            "skipped": {"not_sampled": 1},
            "dropped": {},
        }
        # The same span in a sampled trace still waits for its records.
        assert client.post("/v1/traces", json=with_trace(bare_span(), SAMPLED_TRACE)).is_success
        assert pending_rows(api, "span", SAMPLED_TRACE) == 1
        assert counts(client, rule)["received"] == 1

    def test_records_of_a_trace_no_rule_samples_are_not_kept(self, api: Api) -> None:
        client = api.tenant_client()
        make_rule(client, sampling={"rate": 0.5})
        record = details_record("Capital of Peru?")
        assert client.post("/v1/logs", json=with_trace(record, UNSAMPLED_TRACE)).is_success
        assert pending_rows(api, "log", UNSAMPLED_TRACE) == 0
        assert client.post("/v1/logs", json=with_trace(record, SAMPLED_TRACE)).is_success
        assert pending_rows(api, "log", SAMPLED_TRACE) == 1


def semconv_span(trace_id: str, messages: str) -> otlp.Span:
    return otlp.Span(
        trace_id=trace_id,
        span_id="00f067aa0ba902b7",
        parent_span_id="",
        name="chat",
        kind=3,
        start_ns=1,
        end_ns=2,
        attributes={
            "gen_ai.operation.name": "chat",
            "gen_ai.input.messages": messages,
            "gen_ai.output.messages": messages,
        },
        resource={"service.name": "app"},
        scope_name="",
        scope_version="",
    )


def test_a_span_not_read_is_unread_whatever_its_content() -> None:
    spans = [semconv_span(SAMPLED_TRACE, "{not json"), semconv_span(UNSAMPLED_TRACE, "{not json")]
    read, unread = otlp.judged_calls(spans, read=lambda span: span.trace_id == SAMPLED_TRACE)
    assert isinstance(read, otlp.Skipped) and read.reason == otlp.SkipReason.MALFORMED_CONTENT
    assert isinstance(unread, otlp.Unread)
    assert (unread.trace_id, unread.service_name) == (UNSAMPLED_TRACE, "app")
    assert unread.attributes["gen_ai.operation.name"] == "chat"
