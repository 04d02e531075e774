"""Eval decisions: define evals, turn a run's data source into an evaluation, report on it.

An eval run is an evaluation of kind `eval_run` (same id, extra row in `eval_run`): one test case
per data-source row (`metadata.item`, `metadata.sample`), one metric spec per criterion. Services
flush but never commit.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from app import audit
from app.candidates.repository import CandidateModelRepository
from app.config import Settings
from app.db import utcnow
from app.evals import _schema, criteria
from app.evals import data_source as data_sources
from app.evals.repository import EvalRepository, EvalRunRepository
from app.evals.schemas import Eval, EvalCreate, EvalRunCreate, EvalUpdate
from app.evaluations import admission
from app.evaluations import lifecycle_service as lifecycle
from app.evaluations.repository import EvaluationRepository
from app.ids import new_id
from app.media.ingest import Intake
from app.media.own import OwnMedia
from app.metric_versions import service as metric_versions
from app.metrics import parse_spec
from app.models import CandidateModel, EvalDefinition, EvalRun, Evaluation, Tenant
from app.problems import (
    Collected,
    FieldError,
    ProblemError,
    bad_request,
    invalid_request,
    not_found,
)
from app.runtime import Runtime
from app.telemetry import logs
from app.webhooks import service as webhook_service

KIND = "eval_run"
# What a model-sampled row's `sample` holds (echoed; not enforced on rows users bring).
SAMPLE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "model": {"type": "string"},
        "choices": {"type": "array", "items": {"type": "object"}},
        "output_text": {"type": "string"},
        "output_json": {"type": "object"},
        "output_tools": {"type": "array", "items": {"type": "object"}},
        "output_audio": {"type": ["object", "null"]},
        "output_reasoning_summary": {"type": ["string", "null"]},
        "input_tools": {"type": "array", "items": {"type": "object"}},
    },
    "required": ["model", "choices"],
}


# -- evals -------------------------------------------------------------------------------------


def body_problems(request: Any, body: Mapping[str, Any]) -> list[FieldError]:
    """What else is wrong with an eval the schema refused (a name too long, say): its
    `item_schema` and every criterion, checked as a valid body's are, so one answer names
    every field at fault. Parts the schema itself refused are left to it."""
    problems = Collected()
    config = body.get("data_source_config")
    if isinstance(config, Mapping) and config.get("type") == "custom":
        item_schema = config.get("item_schema")
        if isinstance(item_schema, dict):
            with problems.catch():
                _schema.check(item_schema)
    elif isinstance(config, Mapping) and config.get("type") in ("logs", "stored_completions"):
        problems.add(_unsupported_config(config["type"]))
    given = body.get("testing_criteria")
    if isinstance(given, list) and all(isinstance(item, dict) for item in given):
        with problems.catch():
            criteria.validate(given)
    return [error for problem in problems.problems for error in problem.errors or []]


def _unsupported_config(config_type: str) -> ProblemError:
    return bad_request(
        f"data_source_config type {config_type!r} reads logs stored at OpenAI; "
        "Loupe supports 'custom' (your rows, validated against item_schema)",
        ["data_source_config", "type"],
        "unsupported_data_source",
    )


def create_eval(
    session: Session, tenant: Tenant, payload: EvalCreate, settings: Settings
) -> EvalDefinition:
    """Validate and store an eval; raises one 400 naming every bad field (more criteria than
    LOUPE_MAX_METRICS among them: no run of such an eval could be admitted)."""
    config = payload.data_source_config
    problems = Collected()
    if config.type != "custom":
        problems.add(_unsupported_config(config.type))
    else:
        with problems.catch():
            _schema.check(config.item_schema)
    with problems.catch():
        echoed, specs = criteria.validate(payload.testing_criteria)
    too_many = admission.size_problems(
        settings, metrics=(len(payload.testing_criteria), ["testing_criteria"])
    )
    if too_many:
        problems.add(invalid_request(too_many))
    problems.raise_if_any()
    now = utcnow()
    definition = EvalDefinition(
        id=new_id("eval"),
        tenant_id=tenant.id,
        name=payload.name or "",
        metadata_=payload.metadata,
        data_source_config=config.model_dump(mode="json"),
        testing_criteria=echoed,
        specs=specs,
        created_at=now,
        updated_at=now,
    )
    EvalRepository(session, tenant.id).add(definition)
    audit.record(
        session,
        None,
        "eval.create",
        "eval",
        definition.id,
        tenant_id=tenant.id,
        name=definition.name,
    )
    return definition


def update_eval(
    session: Session, tenant: Tenant, eval_id: str, payload: EvalUpdate
) -> EvalDefinition:
    """Rename or re-tag an eval: `metadata` replaces the whole map, null clears it."""
    definition = get_eval_or_404(session, tenant, eval_id)
    sent = payload.model_fields_set
    if "name" in sent:
        definition.name = payload.name or ""
    if "metadata" in sent:
        definition.metadata_ = payload.metadata
    definition.updated_at = utcnow()
    session.flush()
    audit.record(
        session,
        None,
        "eval.update",
        "eval",
        definition.id,
        tenant_id=tenant.id,
        fields=sorted(sent),
    )
    return definition


def delete_runs(session: Session, runtime: Runtime, runs: list[Evaluation]) -> None:
    """Delete runs (read locked for update) with their rows, canceling running ones first:
    their jobs find them gone at their next write and stop without storing anything."""
    for evaluation in runs:
        lifecycle.delete(session, runtime, evaluation)


def delete_eval(
    session: Session, runtime: Runtime, tenant: Tenant, definition: EvalDefinition
) -> None:
    """Delete an eval with its runs (running ones canceled first) and their output items."""
    runs = EvalRunRepository(session, tenant.id).of_eval(definition.id)
    delete_runs(session, runtime, runs)
    audit.record(
        session,
        None,
        "eval.delete",
        "eval",
        definition.id,
        tenant_id=tenant.id,
        name=definition.name,
    )
    EvalRepository(session, tenant.id).delete(definition)


def get_eval_or_404(session: Session, tenant: Tenant, eval_id: str) -> EvalDefinition:
    definition = EvalRepository(session, tenant.id).get(eval_id)
    if definition is None:
        raise not_found(f"No eval {eval_id!r}.")
    return definition


def eval_schema(definition: EvalDefinition) -> Eval:
    config = definition.data_source_config
    properties: dict[str, Any] = {"item": config.get("item_schema", {})}
    required = ["item"]
    if config.get("include_sample_schema"):
        properties["sample"] = SAMPLE_SCHEMA
        required.append("sample")
    return Eval(
        id=definition.id,
        name=definition.name,
        created_at=int(definition.created_at.timestamp()),
        metadata=definition.metadata_,
        data_source_config={
            "type": "custom",
            "schema": {"type": "object", "properties": properties, "required": required},
        },
        testing_criteria=definition.testing_criteria,
    )


# -- runs --------------------------------------------------------------------------------------


@dataclass
class CheckedRun:
    """A valid eval-run request, read: its eval, rows, test cases and candidate model."""

    definition: EvalDefinition
    rows: list[dict[str, Any]]
    cases: list[dict[str, Any]]
    model_name: str | None
    model: CandidateModel | None
    webhook_endpoint_id: str | None
    # The cases' images, taken in but not stored (check_run with store=False).
    intake: Intake | None = None


def create_run(
    session: Session,
    tenant: Tenant,
    eval_id: str,
    payload: EvalRunCreate,
    settings: Settings,
    own: OwnMedia | None = None,
) -> Evaluation:
    """Validate a run's data source and store it as a queued evaluation of kind eval_run.

    A model name that resolves to no registered model stores the run as failed, with its error.
    """
    checked = check_run(session, tenant, eval_id, payload, settings, store=True, own=own)
    definition, rows, cases = checked.definition, checked.rows, checked.cases
    model_name, model = checked.model_name, checked.model
    webhook_endpoint_id = checked.webhook_endpoint_id
    kind = payload.data_source.get("type")
    # Last, once the submission is known to be valid: the tenant row stays locked until commit.
    admission.admit(
        session,
        tenant,
        settings,
        test_cases=(len(rows), list(data_sources.SOURCE)),
        metrics=(len(definition.specs), ["testing_criteria"]),
    )
    evaluation = Evaluation(
        id=new_id("evalrun"),
        kind=KIND,
        tenant_id=tenant.id,
        name=payload.name or model_name or "run",
        metadata_=payload.metadata or {},
        metrics=definition.specs,
        # The model graders' versions (issue 29); no judge record otherwise.
        judge=metric_versions.with_versions(
            session, tenant.id, [parse_spec(spec) for spec in definition.specs], None
        ),
        webhook_endpoint_id=webhook_endpoint_id,
        status="queued",
        request_id=logs.request_id.get(),
        total_test_cases=len(rows),
        dispatch_attempts=1,
    )
    if kind == "completions" and model is None:
        evaluation.status = "failed"
        evaluation.completed_at = utcnow()
        evaluation.error = {
            "type": "model_not_found",
            "message": f"no model named {model_name!r} is registered for this tenant; "
            "register it with POST /v1/models (its `model` field)",
        }
    for case in cases:
        case["evaluation_id"] = evaluation.id
    EvaluationRepository(session, tenant.id).add(evaluation, cases)
    EvalRunRepository(session, tenant.id).add(
        EvalRun(
            id=evaluation.id,
            tenant_id=tenant.id,
            eval_id=definition.id,
            data_source=data_sources.echo(payload.data_source),
            model=model_name,
            model_id=model.id if model is not None else None,
        )
    )
    return evaluation


def check_run(
    session: Session,
    tenant: Tenant,
    eval_id: str,
    payload: EvalRunCreate,
    settings: Settings,
    *,
    store: bool,
    own: OwnMedia | None = None,
) -> CheckedRun:
    """Every problem of a run request, in one 400; for a valid one, what was read. With
    `store`, the cases' images are stored and referenced; without, only taken in. With
    `own`, images naming this server's media are read from its store, not fetched."""
    definition = get_eval_or_404(session, tenant, eval_id)
    data_source = payload.data_source
    kind = data_source.get("type")
    # Every check that can run does, and one 400 names every field at fault.
    problems = Collected()
    if kind == "responses":
        problems.add(
            bad_request(
                "responses data sources are not supported yet; use jsonl or completions",
                ["data_source", "type"],
                "unsupported_data_source",
            )
        )
    elif kind not in ("jsonl", "completions"):
        problems.add(
            bad_request("data_source.type must be jsonl or completions", ["data_source", "type"])
        )
    rows: list[dict[str, Any]] | None = None
    lines: list[int] | None = None
    rows_fit = False
    # Rows that are no item or off the item_schema: named, their images unread; others' read.
    mismatched: set[int] = set()
    with problems.catch():
        source = data_source.get("source")
        rows, lines, mismatched = data_sources.read_rows(session, tenant, source, problems)
    if rows is not None and len(rows) > settings.max_test_cases:
        # Past the cap, the rows are not read further (item checks, templates, images).
        problems.add(
            bad_request(
                f"at most {settings.max_test_cases} rows per run (LOUPE_MAX_TEST_CASES)",
                data_sources.SOURCE,
            )
        )
    elif rows is not None:
        with problems.catch():
            schema = definition.data_source_config.get("item_schema", {})
            mismatched = data_sources.check_items(schema, rows, lines, problems, mismatched)
            rows_fit = True
    model_name = data_source.get("model") if kind == "completions" else None
    input_messages = None
    model = None
    if kind == "completions":
        if not isinstance(model_name, str) or not model_name:
            problems.add(bad_request("a completions run needs a model", ["data_source", "model"]))
        else:
            model = CandidateModelRepository(session, tenant.id).by_model_name(model_name)
        with problems.catch():
            input_messages = data_sources.input_messages(data_source)
        with problems.catch():
            data_sources.generation_params(data_source)
    webhook_endpoint_id = None
    with problems.catch():
        webhook_endpoint_id = _webhook_endpoint(session, tenant, payload)
    cases: list[dict[str, Any]] = []
    intake = None
    if rows is not None and rows_fit and (kind == "jsonl" or input_messages is not None):
        with problems.catch():
            if store and not mismatched:
                cases = data_sources.test_cases(
                    definition, rows, lines, input_messages, settings, session, tenant, own
                )
            else:
                cases, intake = data_sources.checked_cases(
                    definition, rows, lines, input_messages, settings, own, mismatched
                )
    problems.raise_if_any()
    assert rows is not None  # no problems: the rows were read
    return CheckedRun(
        definition, rows, cases, model_name, model, webhook_endpoint_id, intake=intake
    )


def _webhook_endpoint(session: Session, tenant: Tenant, payload: EvalRunCreate) -> str | None:
    # A Loupe extension (`extra_body={"webhook_url": ...}` in the SDK): OpenAI configures
    # webhooks per project, Loupe per run, among the tenant's registered endpoints.
    url = (payload.model_extra or {}).get("webhook_url")
    if url is None:
        return None
    if not isinstance(url, str):
        raise bad_request("webhook_url: must be a string", ["webhook_url"])
    endpoint_id, refused = webhook_service.registered(session, tenant.id, url, ["webhook_url"])
    if refused is not None:
        # Every kind's words and type; OpenAI's dialect answers 400 where the others answer 422.
        detail = f"webhook_url: {refused.msg}"
        slug = refused.type.replace("_", "-")
        raise ProblemError(400, "Bad Request", detail, slug=slug, errors=[refused])
    return endpoint_id
