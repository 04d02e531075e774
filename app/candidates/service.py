"""Candidate model decisions: check the endpoint, keep the key encrypted, build endpoints."""

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from sqlalchemy.orm import Session

from app import audit, crypto
from app.candidates.repository import CandidateModelRepository
from app.candidates.schemas import CandidateModel as CandidateModelSchema
from app.candidates.schemas import CandidateModelCreate
from app.config import Settings
from app.ids import new_id
from app.judges import JudgeEndpoint
from app.media.netguard import AddressPolicy
from app.models import CandidateModel, Tenant
from app.problems import FieldError, ProblemError, not_found
from app.webhooks.service import check_endpoint_url, url_problems


def create(
    session: Session, tenant: Tenant, payload: CandidateModelCreate, settings: Settings
) -> CandidateModel:
    """Register a model; its base URL must pass the operator's model policy (LOUPE_MODEL_ALLOW)."""
    check_endpoint_url(payload.base_url, settings, field="base_url", purpose="model")
    model = CandidateModel(
        id=new_id("model"),
        tenant_id=tenant.id,
        name=payload.name,
        base_url=payload.base_url,
        model=payload.model,
        api_key_encrypted=crypto.encrypt(settings, payload.api_key) if payload.api_key else None,
    )
    CandidateModelRepository(session, tenant.id).add(model)
    audit.record(
        session,
        None,
        "model.create",
        "model",
        model.id,
        tenant_id=tenant.id,
        name=model.name,
        model=model.model,
    )
    return model


def body_problems(
    session: Session, tenant: Tenant, settings: Settings, body: Mapping[str, Any]
) -> list[FieldError]:
    """What POST /v1/models checks past a failed schema: the base URL's policy."""
    return url_problems(body, "base_url", settings, "model")


def get_or_404(session: Session, tenant: Tenant, model_id: str) -> CandidateModel:
    model = CandidateModelRepository(session, tenant.id).get(model_id)
    if model is None:
        raise not_found(f"No model {model_id!r}.")
    return model


def check_unused(session: Session, tenant: Tenant, model: CandidateModel) -> None:
    """409 while a queued or running run still calls the model (deleted, its remaining samples
    would each fail `candidate_missing`; a finished run keeps its predictions without it) or an
    online rule judges with it (its next day would find no judge: changing a rule's judge is a
    team admin's, so a key that may delete models must not do it by deleting one)."""
    repository = CandidateModelRepository(session, tenant.id)
    calling, judging = repository.calling(model), repository.rules_judging(model)
    if not calling and not judging:
        return
    reasons = []
    if calling:
        reasons.append(
            f"{len(calling)} queued or running run(s) call model {model.id!r} "
            f"({_listed(calling)}); cancel them or let them finish"
        )
    if judging:
        rules = [f"{rule_id} ({name[:80]!r})" for rule_id, name in judging]
        reasons.append(
            f"online rule(s) {_listed(rules)} judge with model {model.id!r}; give them another "
            "judge (PATCH /v1/online_rules/{id}, a team admin's) or delete them"
        )
    raise ProblemError(
        409,
        "Conflict",
        "; ".join(reasons) + ", then delete it.",
        slug="model-in-use",
        field=["path", "model_id"],
    )


def _listed(names: list[str]) -> str:
    """The first ten names, and how many more."""
    return ", ".join(names[:10]) + (f" and {len(names) - 10} more" if len(names) > 10 else "")


def to_schema(model: CandidateModel) -> CandidateModelSchema:
    return CandidateModelSchema(
        id=model.id,
        name=model.name,
        base_url=model.base_url,
        model=model.model,
        has_api_key=model.api_key_encrypted is not None,
        created_at=model.created_at,
    )


def endpoint_for(
    settings: Settings, base_url: str | None, api_key: str, model: str, role: str
) -> JudgeEndpoint:
    """The client configuration for an endpoint called as a judge or as a candidate: the
    role's timeouts, retries and output mode from the settings."""
    judge = role == "judge"
    return JudgeEndpoint(
        base_url=base_url,
        api_key=api_key,
        default_model=model,
        timeout_seconds=settings.judge_timeout_seconds
        if judge
        else settings.candidate_timeout_seconds,
        max_attempts=settings.judge_max_attempts if judge else settings.candidate_max_attempts,
        concurrency=settings.judge_concurrency if judge else settings.candidate_concurrency,
        max_concurrency=settings.judge_max_concurrency if judge else None,
        # A candidate answers freely; judges answer in the structured-output mode set.
        response_format=settings.judge_response_format if judge else "text",
        backoff_base_seconds=settings.judge_backoff_base_seconds,
        backoff_cap_seconds=settings.judge_backoff_cap_seconds,
        role=role,
        ca_bundle=str(settings.ca_bundle) if settings.ca_bundle else None,
        # Every worker paces to the provider's one limit through Redis.
        pace_url=settings.redis_url,
        labelled_models=frozenset(settings.model_prices),
        max_response_bytes=settings.max_model_response_bytes,
    )


def _registered(model: CandidateModel, settings: Settings, role: str) -> JudgeEndpoint:
    # The address is checked again, as DNS may have changed since registration.
    check_endpoint_url(model.base_url, settings, field="base_url", purpose="model")
    api_key = crypto.decrypt(settings, model.api_key_encrypted) if model.api_key_encrypted else ""
    endpoint = endpoint_for(settings, model.base_url, api_key, model.model, role)
    # ...and again on every connection, for the same reason (app/judges/_resolver.py).
    return replace(endpoint, address_policy=AddressPolicy.for_purpose(settings, "model"))


def endpoint(model: CandidateModel, settings: Settings) -> JudgeEndpoint:
    """The client configuration for calling the model (decrypts its key; raises
    crypto.SecretUnavailable if this process's key cannot)."""
    return _registered(model, settings, "candidate")


def judge_endpoint(model: CandidateModel, settings: Settings) -> JudgeEndpoint:
    """A registered model called as a tenant's own judge: the judge's timeouts, retries and
    structured output, the model's endpoint and key (checked and decrypted as for candidates)."""
    return _registered(model, settings, "judge")
