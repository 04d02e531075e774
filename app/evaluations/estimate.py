"""The bill before it runs: the judge calls, tokens and dollars a submission will cost.

`of_submission` checks a body with the submit's own checks (the same 422) and stores nothing;
`estimate` is the core every kind calls with its metric specs and test cases. Each metric's
calls come from its `plan` (app/metrics/_plan.py); a call shared by the evaluation (a G-Eval's
steps, a retrieval context's truths) is counted once per judge, the first metric asking for it
paying, as in scoring; every other call is made `samples` times by each judge of a panel.
"""

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from app.config import Settings
from app.evaluations import case_rows, checks
from app.evaluations.image_sizes import ImageSizes, sizes_of
from app.evaluations.schemas import EvaluationCreate
from app.media.own import OwnMedia
from app.metrics import MetricSpecBase, MetricTestCase, PlannedCall, plan
from app.models import Tenant
from app.problems import invalid_request
from app.usage import service as usage_service
from app.usage import tokens
from app.usage.pricing import cost_usd
from app.usage.schemas import (
    Estimate,
    EstimateTotals,
    JudgeEstimate,
    MetricEstimate,
    add_costs,
)

CACHE_NOTE = (
    "cache is on: calls this tenant's earlier evaluations already made with the same prompt "
    "are answered from the judge cache and cost nothing, so these figures are an upper bound "
    "(metrics judged more than once skip the cache for their samples)"
)
UNKNOWN_IMAGE_NOTE = (
    "an image whose size is not known before the run is counted at the most an image costs "
    "(1,445 tokens)"
)
REPEAT_NOTE = (
    "some calls repeat an identical request of this evaluation: each is counted, though the "
    "evaluation's own cache answers a repeat made after the first, so the figures are an upper "
    "bound"
)
PLACEHOLDER_NOTE = (
    "prompts are rendered from the metrics' own templates; where a prompt quotes an earlier "
    "answer (G-Eval's generated steps, faithfulness truths) and for every completion, a typical "
    "answer's size is assumed; a reply that needs repairing costs one call more"
)


@dataclass
class _Tally:
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0

    def add(self, times: int, prompt: int, completion: int) -> None:
        self.calls += times
        self.prompt_tokens += times * prompt
        self.completion_tokens += times * completion


@dataclass
class _Notes:
    items: list[str] = field(default_factory=list)

    def add(self, note: str) -> None:
        if note not in self.items:
            self.items.append(note)


def of_submission(
    session: Session,
    tenant: Tenant,
    payload: EvaluationCreate,
    settings: Settings,
    own: OwnMedia | None = None,
) -> Estimate:
    """POST /v1/evaluations/estimate: the submit's checks (the same 422), then the estimate.

    Images are decoded in memory by the checks, never stored."""
    cases = [case_rows.stored_case(index, tc) for index, tc in enumerate(payload.test_cases)]
    checked = checks.check(session, tenant.id, checks.Draft.of(payload), settings, cases, own)
    if checked.findings.errors:
        raise invalid_request(checked.findings.errors, checked.findings.total)
    images = checked.intake.images if checked.intake is not None else {}
    found = estimate(
        settings,
        list(payload.metrics),
        [metric_case(case) for case in cases],
        checked.judge,
        image_sizes=sizes_of(images),
        cache=payload.cache,
    )
    return usage_service.within_budget(session, tenant, found)


def metric_case(case: dict[str, Any]) -> MetricTestCase:
    """A stored-form test case as metrics see it."""
    return MetricTestCase(
        index=case["index"],
        id=case["client_id"],
        input=case["input"],
        actual_output=case["actual_output"],
        expected_output=case["expected_output"],
        context=case["context"],
        retrieval_context=case["retrieval_context"],
        metadata=case["metadata_"],
        turns=case.get("turns"),
        scenario=case.get("scenario"),
        expected_outcome=case.get("expected_outcome"),
        chatbot_role=case.get("chatbot_role"),
        user_description=case.get("user_description"),
        tools_called=case.get("tools_called"),
        expected_tools=case.get("expected_tools"),
    )


def estimate(
    settings: Settings,
    specs: Sequence[MetricSpecBase],
    cases: Sequence[MetricTestCase],
    judge: dict[str, Any] | None,
    *,
    image_sizes: ImageSizes,
    cache: bool,
    notes: list[str] | None = None,
    candidate: EstimateTotals | None = None,
) -> Estimate:
    """Per metric and in total, the calls, tokens and dollars of judging `cases` with `specs`.

    Args:
        judge: the evaluation's judge record as `judging.resolve` makes it (per metric index,
            its model, or its panel's members).
    """
    found = _Notes(list(notes or []))
    made: set[tuple[Any, ...]] = set()
    metrics = [
        _metric(settings, index, spec, cases, judge, image_sizes, made, found)
        for index, spec in enumerate(specs)
    ]
    if cache and any(metric.calls for metric in metrics):
        found.add(CACHE_NOTE)
    if any(metric.calls for metric in metrics):
        found.add(PLACEHOLDER_NOTE)
    total = _sum([*metrics, *([candidate] if candidate is not None else [])])
    unpriced = sorted(
        {
            each.model or "the server's judge"
            for metric in metrics
            for each in metric.judges
            if each.usd is None and each.calls
        }
    )
    if unpriced:
        found.add(
            f"no price is known for {', '.join(unpriced)}: `usd` is null where it is called "
            "(the calls and tokens are still estimated); LOUPE_MODEL_PRICES gives prices"
        )
    return Estimate(**total.model_dump(), metrics=metrics, candidate=candidate, notes=found.items)


def per_item_usd(
    settings: Settings,
    specs: Sequence[MetricSpecBase],
    cases: Sequence[MetricTestCase],
    judge: dict[str, Any] | None,
) -> dict[int, float]:
    """What judging one case with each metric (by index) is expected to cost, from the estimate
    of the first few cases, images at the most an image costs: what a job counts for an item in
    flight against the tenant's daily budget before one is priced."""
    sample = list(cases)[:8]
    if not sample:
        return {}
    found = estimate(settings, specs, sample, judge, image_sizes=lambda _url: None, cache=False)
    return {index: (metric.usd or 0.0) / len(sample) for index, metric in enumerate(found.metrics)}


CANDIDATE_NOTE = (
    "the candidate model's answers are not known before the run: each is taken to be as long "
    "as its reference answer, for its completion tokens and for the metrics that judge it"
)


def candidate(
    settings: Settings,
    model: str | None,
    conversations: Sequence[list[dict[str, Any]]],
    answers: Sequence[str],
    image_sizes: ImageSizes,
    notes: list[str],
) -> EstimateTotals:
    """A run's candidate calls: one per sample, its conversation as the prompt."""
    encoding, known = tokens.encoding_for(model)
    tally = _Tally()
    unknown = 0
    for messages, answer in zip(conversations, answers, strict=True):
        prompt, missing = tokens.count_messages(messages, encoding, image_sizes)
        unknown += missing
        tally.add(1, prompt, tokens.count_text(answer, encoding) + 1)
    notes.append(CANDIDATE_NOTE)
    if not known:
        notes.append(
            f"no tokenizer is known for the model {model!r}: its prompts are counted with "
            "o200k_base (gpt-4o's)"
        )
    if unknown:
        notes.append(UNKNOWN_IMAGE_NOTE)
    return EstimateTotals(
        calls=tally.calls,
        prompt_tokens=tally.prompt_tokens,
        completion_tokens=tally.completion_tokens,
        usd=cost_usd(
            settings.model_prices,
            model,
            calls=tally.calls,
            prompt_tokens=tally.prompt_tokens,
            completion_tokens=tally.completion_tokens,
        ),
    )


def _members(
    settings: Settings, index: int, spec: MetricSpecBase, judge: dict[str, Any] | None
) -> list[dict[str, Any]]:
    """The judges a metric calls: its panel's members, or its one judge."""
    record = ((judge or {}).get("metrics") or {}).get(str(index))
    if record and record.get("panel"):
        return list(record["panel"])
    if record:
        return [record]
    model = getattr(spec, "model", None) or (judge or {}).get("model") or settings.judge_model
    return [{"model": model, "model_id": None}]


@dataclass
class _Judged:
    """One judge's running count of a metric's calls."""

    member: dict[str, Any]
    encoding: str
    known: bool
    tally: _Tally = field(default_factory=_Tally)
    embedded: _Tally = field(default_factory=_Tally)


def _metric(
    settings: Settings,
    index: int,
    spec: MetricSpecBase,
    cases: Sequence[MetricTestCase],
    judge: dict[str, Any] | None,
    image_sizes: ImageSizes,
    made: set[tuple[Any, ...]],
    notes: _Notes,
) -> MetricEstimate:
    ref = getattr(spec, "judge", None)
    samples = ref.samples if ref is not None else 1
    members = _members(settings, index, spec, judge)
    embedding_model = settings.embedding_model
    judged = [_Judged(member, *tokens.encoding_for(member.get("model"))) for member in members]
    # One case's calls at a time, counted then dropped: a conversation's prompts together can
    # be many times its size (each judged turn shows the turns before it).
    for case in cases:
        for call in plan(spec, case, window_chars=settings.max_window_chars):
            for each in judged:
                model = each.member.get("model")
                if call.embedding:
                    prompt = sum(
                        tokens.count_text(text, tokens.encoding_for(embedding_model)[0])
                        for text in call.texts
                    )
                    each.embedded.add(samples, prompt, 0)
                    continue
                if not each.known:
                    notes.add(
                        f"no tokenizer is known for the model {model!r}: its prompts are "
                        "counted with o200k_base (gpt-4o's)"
                    )
                times = samples
                if call.shared is not None:
                    key = (each.member.get("model_id"), model, call.shared)
                    if key in made:
                        continue
                    made.add(key)
                    times = 1
                elif samples * len(members) == 1:
                    # A metric judged once uses the evaluation's cache: a request identical to
                    # an earlier one is answered from it unless both are in flight at once.
                    key = (each.member.get("model_id"), model, call.task, _identity(call.messages))
                    if key in made:
                        notes.add(REPEAT_NOTE)
                    made.add(key)
                prompt, unknown = tokens.count_messages(call.messages, each.encoding, image_sizes)
                if unknown:
                    notes.add(UNKNOWN_IMAGE_NOTE)
                each.tally.add(times, prompt, _completion(call, each.encoding))
    judges = [_judge_estimate(settings, each, embedding_model) for each in judged]
    panel = ref.panel if ref is not None else None
    return MetricEstimate(
        metric=spec.display_name,
        type=spec.type,  # type: ignore[attr-defined]
        samples=samples,
        panel=len(panel) if panel else None,
        multiplier=samples * len(members),
        judges=judges if spec.uses_judge or any(j.calls for j in judges) else [],
        **_sum(judges).model_dump(),
    )


def _judge_estimate(
    settings: Settings, each: _Judged, embedding_model: str | None
) -> JudgeEstimate:
    model, tally, embedded = each.member.get("model"), each.tally, each.embedded
    usd = cost_usd(
        settings.model_prices,
        model,
        calls=tally.calls,
        prompt_tokens=tally.prompt_tokens,
        completion_tokens=tally.completion_tokens,
    )
    if embedded.calls:
        usd = add_costs(
            usd,
            cost_usd(
                settings.model_prices,
                embedding_model,
                calls=embedded.calls,
                prompt_tokens=embedded.prompt_tokens,
                completion_tokens=0,
            ),
        )
    return JudgeEstimate(
        model=embedding_model if embedded.calls and not tally.calls else model,
        model_id=each.member.get("model_id"),
        encoding=each.encoding,
        calls=tally.calls + embedded.calls,
        prompt_tokens=tally.prompt_tokens + embedded.prompt_tokens,
        completion_tokens=tally.completion_tokens,
        usd=usd,
    )


def _identity(messages: list[dict[str, Any]]) -> int:
    """A request's identity, as a hash kept instead of the request: its texts are hashed as
    they are (a prompt can be tens of thousands of characters, tens of thousands of times),
    other parts (images) by their JSON. A collision would only add the repeat note."""
    return hash(
        tuple((message.get("role"), *_shown(message.get("content"))) for message in messages)
    )


def _shown(content: Any) -> list[Any]:
    if isinstance(content, str):
        return [content]
    return [
        part["text"] if part.get("type") == "text" else json.dumps(part, sort_keys=True)
        for part in content or []
    ]


def _completion(call: PlannedCall, encoding: str) -> int:
    expected = call.completion
    echoed = sum(tokens.count_text(text, encoding) for text in expected.echoed)
    return expected.fixed + expected.per_item * expected.items + echoed


def _sum(parts: Sequence[EstimateTotals]) -> EstimateTotals:
    return EstimateTotals(
        calls=sum(part.calls for part in parts),
        prompt_tokens=sum(part.prompt_tokens for part in parts),
        completion_tokens=sum(part.completion_tokens for part in parts),
        usd=add_costs(*(part.usd for part in parts)) if parts else 0.0,
    )
