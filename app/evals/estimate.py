"""An eval run's bill before it starts: its model's calls (`completions`) and its graders'."""

from typing import Any

from sqlalchemy.orm import Session

from app.config import Settings
from app.evals import data_source as data_sources
from app.evals import service
from app.evals.schemas import EvalRunCreate
from app.evals.tasks import sample_of
from app.evaluations import estimate as estimates
from app.media.own import OwnMedia
from app.metrics import MetricTestCase, parse_spec
from app.models import Tenant
from app.usage import service as usage_service
from app.usage.schemas import Estimate

# A sampled answer before it is made: about this many tokens unless the run caps them lower.
TYPICAL_ANSWER_TOKENS = 150
ANSWER_NOTE = (
    "the model's answers are not known before the run: each is taken to be about "
    f"{TYPICAL_ANSWER_TOKENS} tokens (or the run's max_completion_tokens, when lower), for its "
    "completion tokens and for the graders that read it"
)


def estimate_run(
    session: Session,
    tenant: Tenant,
    eval_id: str,
    payload: EvalRunCreate,
    settings: Settings,
    own: OwnMedia | None = None,
) -> Estimate:
    """POST /v1/evals/{eval_id}/runs/estimate: checked as a run is (the same 400), nothing
    stored, no model called."""
    checked = service.check_run(session, tenant, eval_id, payload, settings, store=False, own=own)
    sizes = estimates.sizes_of(checked.intake.images if checked.intake is not None else {})
    notes: list[str] = []
    candidate = None
    answer = None
    if payload.data_source.get("type") == "completions":
        params = data_sources.generation_params(payload.data_source)
        cap = params.get("max_completion_tokens") or params.get("max_tokens")
        # One word of "answer" is one token in every family Loupe counts with.
        answer = " ".join(["answer"] * min(TYPICAL_ANSWER_TOKENS, cap or TYPICAL_ANSWER_TOKENS))
        model = checked.model.model if checked.model is not None else checked.model_name
        conversations = [case["messages"] or [] for case in checked.cases]
        candidate = estimates.candidate(
            settings, model, conversations, [answer] * len(conversations), sizes, []
        )
        notes.append(ANSWER_NOTE)
    cases = [_case(case, answer, checked.model_name) for case in checked.cases]
    found = estimates.estimate(
        settings,
        [parse_spec(spec) for spec in checked.definition.specs],
        cases,
        None,
        image_sizes=sizes,
        cache=True,
        notes=notes,
        candidate=candidate,
    )
    return usage_service.within_budget(session, tenant, found)


def _case(case: dict[str, Any], answer: str | None, model: str | None) -> MetricTestCase:
    metadata = dict(case["metadata_"] or {})
    if answer is not None:
        metadata["sample"] = sample_of(answer, model or "", None)
    return MetricTestCase(
        index=case["index"],
        id=case["client_id"],
        input=case["input"],
        actual_output=answer if answer is not None else case["actual_output"],
        metadata=metadata,
    )
