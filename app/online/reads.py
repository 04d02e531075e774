"""What the console's production pages show of online rules: the rules with their counts, a
rule's skip reasons in words, its latest judged calls with their results (services over the
rule repository, so the console reads no repository)."""

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from app.config import Settings
from app.evaluations import calibration, read_model
from app.evaluations import reads as evaluation_reads
from app.evaluations import service as evaluations
from app.evaluations.schemas import EvaluationResult, TestCase
from app.media.links import MediaUrl
from app.models import OnlineRule as OnlineRuleRow
from app.models import Tenant
from app.online import service
from app.online.ingest import KIND
from app.online.repository import OnlineRuleRepository
from app.online.schemas import OnlineResult, OnlineRule

# Every reason a rule counts a call as skipped (app/online/ingest.py, app/otlp's SkipReason), in
# the words its page says them; tests/online/test_reads.py keeps every reason listed.
SKIP_WORDS = {
    "not_sampled": "Not sampled: the rule's sampling rate left its trace out.",
    "no_content": "No content: the span carried no messages (the instrumentation's content "
    "capture is off), or only the placeholders of texts it hides.",
    "image_withheld": "Image withheld: the instrumentation left the call's image out of the "
    "span, so the call was not judged without it.",
    "unknown_convention": "Unknown convention: the span's messages are in a shape Loupe does "
    "not read.",
    "malformed_content": "Malformed content: the span's messages could not be read (not the "
    "JSON its convention says).",
    "invalid_ids": "Invalid ids: the span had no valid trace or span id.",
    "call_failed": "Call failed: the model call ended in an error (the span's status or "
    "error.type), so there was no answer to judge.",
    "over_budget": "Over budget: the rule's or the account's daily budget was spent.",
    "image_refused": "Image refused: the operator's image policy refused one of the call's "
    "images (too large, a format or an address not allowed).",
    "day_closed": "Day closed: the call arrived as the rule's UTC day was being closed.",
    "duplicate": "Duplicate: the rule had already stored this span (an exporter or "
    "collector sent it again), so it was not judged twice.",
    "missing_fields": "Missing fields: one of the rule's metrics needs a test-case field the "
    "call does not give (retrieval_context: no retrieval span in its trace before it; input or "
    "actual_output: empty), so it was not sent to the judge.",
    "no_conversation_id": "No conversation id: the rule judges conversations and the call "
    "named none (no gen_ai.conversation.id or session.id attribute).",
    "conversation_id_dropped": "Conversation id dropped: the call named no conversation and its "
    "span had dropped attributes: the SDK keeps 128 a span (evicting the oldest first, such as "
    "the session.id or gen_ai.conversation.id set as the span started), which a long chat's "
    "messages pass. Raise OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT in the application.",
    "unfit_for_metric": "Unfit for a metric: the conversation gave one of the rule's metrics "
    "nothing to judge (no assistant reply to a user message), so it was not sent.",
    "rule_disabled": "Rule disabled: the rule was disabled while it held the conversation's "
    "calls, so they were not judged.",
    "target_changed": "Target changed: the rule was changed to judge single calls while it held "
    "the conversation's calls, so its metrics could not judge them as a conversation.",
}


# Every reason a conversation rule leaves a part out of a case it judges
# (app/online/images.py), in the words its page says them.
DROP_WORDS = {
    "image_refused": "Images left out: the operator's image policy refused them (an address "
    "not allowed, a data URL that does not decode, too large); the rest of their conversation "
    "was judged, and each turn's metadata names the image left out and why.",
}


def drop_words(reason: str) -> str:
    """A reason for leaving a part out in words (an unknown one by its name)."""
    return DROP_WORDS.get(reason, f"Left out ({reason.replace('_', ' ')}).")


def skip_words(reason: str) -> str:
    """A skip reason in words (an unknown one by its name)."""
    return SKIP_WORDS.get(reason, f"Skipped ({reason.replace('_', ' ')}).")


@dataclass
class JudgedCall:
    """One stored production call of a rule with what its metrics made of it."""

    day: str
    evaluation_id: str
    index: int
    input: Any
    output: Any
    retrieval_context: list[str] | None
    trace_id: str | None
    span_id: str | None
    service: str | None
    model: str | None
    results: list[EvaluationResult] = field(default_factory=list)
    # A conversation rule's case: how many turns (its transcript is on the case's page).
    turns: int = 0


def rules_page(
    session: Session, tenant: Tenant, after: str | None, limit: int, settings: Settings
) -> tuple[list[OnlineRule], bool]:
    """The tenant's rules with their counts, newest first; whether more follow."""
    rows = OnlineRuleRepository(session, tenant.id).page(after, limit + 1)
    return service.to_schemas(session, tenant, list(rows[:limit]), settings), len(rows) > limit


def latest_calls(session: Session, tenant: Tenant, rule_id: str, limit: int) -> list[JudgedCall]:
    """The rule's latest stored calls, newest first, each with its results (none yet while
    its judge works)."""
    rule = service.get_or_404(session, tenant, rule_id)
    rules = OnlineRuleRepository(session, tenant.id)
    cases = rules.latest_cases(rule, limit)
    calls: dict[tuple[str, int], JudgedCall] = {}
    for case, day in cases:
        metadata = case.metadata_ or {}
        calls[(case.evaluation_id, case.index)] = JudgedCall(
            day=day,
            evaluation_id=case.evaluation_id,
            index=case.index,
            input=case.input,
            output=case.actual_output,
            retrieval_context=case.retrieval_context,
            trace_id=metadata.get("trace_id"),
            span_id=metadata.get("span_id"),
            service=metadata.get("service"),
            model=metadata.get("model"),
            turns=len(case.turns or []),
        )
    results = rules.case_results(rule, [case for case, _ in cases])
    checked = calibration.agreement_of(session, tenant.id, results)
    for result in results:
        call = calls.get((result.evaluation_id, result.test_case_index))
        if call is not None:
            call.results.append(
                read_model.result_to_schema(result).model_copy(
                    update={"agreement": checked.get(result.metric_version or "")}
                )
            )
    return list(calls.values())


def result_page(
    session: Session,
    tenant: Tenant,
    rule: OnlineRuleRow,
    after: str | None,
    limit: int,
    media_url: MediaUrl,
) -> list[OnlineResult]:
    """The rule's results after the result `after`, newest first (`limit + 1` of them), each
    with its judged call as its day's test case, as the evaluations API shows test cases."""
    results = service.result_page(session, tenant, rule, after, limit)
    indices: dict[str, set[int]] = {}
    for result in results:
        indices.setdefault(result.evaluation_id, set()).add(result.test_case_index)
    cases: dict[tuple[str, int], TestCase] = {}
    for evaluation_id, wanted in indices.items():
        day = evaluations.get_or_404(session, tenant, evaluation_id, (KIND,))
        stored = evaluation_reads.test_cases_at(session, tenant, day, sorted(wanted))
        for index, case in stored.items():
            cases[(evaluation_id, index)] = read_model.test_case_to_schema(case, media_url)
    return [
        result.model_copy(
            update={"test_case": cases.get((result.evaluation_id, result.test_case_index))}
        )
        for result in results
    ]
