"""The bill before it runs: the judge calls, tokens and dollars a submission will cost.

`of_submission` checks a body with the submit's own checks (the same 422) and stores nothing;
`estimate` is the core every kind calls with its metric specs and test cases. Each metric's
calls come from its `plan` (app/metrics/_plan.py); a call shared by the evaluation (a G-Eval's
steps, a retrieval context's truths) is counted once per judge, the first metric asking for it
paying, as in scoring; every other call is made `samples` times by each judge of a panel.
"""

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from app.config import Settings
from app.evaluations import case_rows, checks
from app.evaluations.schemas import EvaluationCreate
from app.media.images import NormalisedImage
from app.media.store import DatabaseBlobStore, digest_of
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

ImageSizes = Callable[[str], tokens.ImageSize | None]

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
    session: Session, tenant: Tenant, payload: EvaluationCreate, settings: Settings
) -> Estimate:
    """POST /v1/evaluations/estimate: the submit's checks (the same 422), then the estimate.

    Images are decoded in memory by the checks, never stored."""
    cases = [case_rows.stored_case(index, tc) for index, tc in enumerate(payload.test_cases)]
    checked = checks.check(session, tenant.id, checks.Draft.of(payload), settings, cases)
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


def sizes_of(
    images: dict[str, NormalisedImage],
    session: Session | None = None,
    contents: Any = None,
) -> ImageSizes:
    """Image URL -> the size the judge is sent (after normalisation); None when unknown.

    Args:
        images: images the checks took in, by the URL the request gave.
        contents: content holding `blob:sha256:` references (a dataset's stored rows), whose
            sizes are read from the blob store with `session`.
    """
    stored: dict[str, tuple[int, int]] = {}
    if session is not None and contents is not None:
        digests = {digest_of(url) for url in _image_urls(contents)}
        stored = DatabaseBlobStore(session).sizes(digest for digest in digests if digest)

    def size(url: str) -> tokens.ImageSize | None:
        image = images.get(url)
        if image is not None:
            return tokens.ImageSize(image.sent.width, image.sent.height)
        known = stored.get(digest_of(url) or "")
        return tokens.ImageSize(*known) if known else None

    return size


def _image_urls(content: Any) -> list[str]:
    """Every image part's URL in JSON content, however nested."""
    if isinstance(content, list):
        return [url for item in content for url in _image_urls(item)]
    if not isinstance(content, dict):
        return []
    if content.get("type") == "image_url":
        image = content.get("image_url")
        url = image if isinstance(image, str) else (image or {}).get("url")
        return [url] if isinstance(url, str) else []
    return [url for value in content.values() for url in _image_urls(value)]


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
    plans = [plan(spec, case, window_chars=settings.max_window_chars) for case in cases]
    judges = []
    for member in members:
        model = member.get("model")
        embedding_model = settings.embedding_model
        tally = _Tally()
        embedded = _Tally()
        encoding, known = tokens.encoding_for(model)
        if not known and any(not call.embedding for calls in plans for call in calls):
            notes.add(
                f"no tokenizer is known for the model {model!r}: its prompts are counted with "
                "o200k_base (gpt-4o's)"
            )
        for calls in plans:
            for call in calls:
                if call.embedding:
                    prompt = sum(
                        tokens.count_text(text, tokens.encoding_for(embedding_model)[0])
                        for text in call.texts
                    )
                    embedded.add(samples, prompt, 0)
                    continue
                times = samples
                if call.shared is not None:
                    key = (member.get("model_id"), model, call.shared)
                    if key in made:
                        continue
                    made.add(key)
                    times = 1
                elif samples * len(members) == 1:
                    # A metric judged once uses the evaluation's cache: a request identical to
                    # an earlier one is answered from it unless both are in flight at once.
                    key = (member.get("model_id"), model, call.task, _canonical(call.messages))
                    if key in made:
                        notes.add(REPEAT_NOTE)
                    made.add(key)
                prompt, unknown = tokens.count_messages(call.messages, encoding, image_sizes)
                if unknown:
                    notes.add(UNKNOWN_IMAGE_NOTE)
                tally.add(times, prompt, _completion(call, encoding))
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
        judges.append(
            JudgeEstimate(
                model=embedding_model if embedded.calls and not tally.calls else model,
                model_id=member.get("model_id"),
                encoding=encoding,
                calls=tally.calls + embedded.calls,
                prompt_tokens=tally.prompt_tokens + embedded.prompt_tokens,
                completion_tokens=tally.completion_tokens,
                usd=usd,
            )
        )
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


def _canonical(messages: list[dict[str, Any]]) -> str:
    """A request's identity: a digest, so that images in it are not kept for every call."""
    text = json.dumps(messages, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


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
