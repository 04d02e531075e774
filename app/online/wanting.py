"""What the tenant's enabled rules want of a request's spans, before their calls are taken:
which spans to read, which traces' records and retrievals to keep, which calls to hold for
documents (app/online/joining.py). Pure: rules and spans in, answers out."""

from collections.abc import Sequence

from pydantic import TypeAdapter

from app import otlp
from app.metrics import MetricSpec, MetricSpecBase
from app.models import OnlineRule
from app.online import matching
from app.otlp import JudgedCall

_metric: TypeAdapter[MetricSpecBase] = TypeAdapter(MetricSpec)


def sampled_by_any(rules: Sequence[OnlineRule], span: otlp.Span) -> bool:
    """Whether some rule takes and samples this span: only then is its content read (sampling
    first keeps a span no rule samples at the cost of its attributes, and never stored)."""
    return any(matching.matches(rule.filter, span) and _reads(rule, span) for rule in rules)


def _reads(rule: OnlineRule, span: otlp.Span) -> bool:
    """Whether the rule samples the span: by its trace id, or a conversation rule by its
    conversation id (a span that names none in its attributes is read: its content may)."""
    if rule.target != "conversation":
        return matching.sampled(span.trace_id, rule.sampling_rate)
    conversation = matching.conversation_of(span)
    return conversation is None or matching.sampled_conversation(conversation, rule.sampling_rate)


def trace_read_by_any(rules: Sequence[OnlineRule], trace_id: str) -> bool:
    """Whether some rule may read calls of this trace: what a trace's log records or retrieval
    steps hold is kept for its calls only then. A record or a retrieval span does not name
    its conversation: a conversation rule keeps it for the calls that do."""
    return any(
        rule.target == "conversation" or matching.sampled(trace_id, rule.sampling_rate)
        for rule in rules
    )


def needing_documents(rules: Sequence[OnlineRule]) -> list[OnlineRule]:
    """The span rules with a metric that needs a call's retrieval_context."""
    return [
        rule
        for rule in rules
        if rule.target != "conversation"
        and any(
            "retrieval_context" in _metric.validate_python(spec).required_test_case_fields()
            for spec in rule.metrics
        )
    ]


def reads_turn_documents(rule: OnlineRule) -> bool:
    """Whether a conversation rule has a metric reading a turn's retrieval_context."""
    return any(
        "retrieval_context" in _metric.validate_python(spec).turn_fields_read
        for spec in rule.metrics
    )


def needs_documents(rules: Sequence[OnlineRule], call: JudgedCall) -> bool:
    """Whether one of these rules (`needing_documents`) takes and samples the call: without a
    retrieval_context it waits for a retrieval span of its trace."""
    return any(
        matching.matches(rule.filter, call) and matching.sampled(call.trace_id, rule.sampling_rate)
        for rule in rules
    )
