"""Eval decisions: define evals, turn a run's data source into an evaluation, report on it.

An eval run is an evaluation of kind `eval_run` (same id, extra row in `eval_run`): one test case
per data-source row (`metadata.item`, `metadata.sample`), one metric spec per criterion. Services
flush but never commit.
"""

from dataclasses import dataclass, field
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError
from sqlalchemy.orm import Session

from app.candidates.repository import CandidateModelRepository
from app.config import Settings
from app.db import utcnow
from app.evals import criteria
from app.evals.repository import EvalRepository, EvalRunRepository
from app.evals.schemas import Eval, EvalCreate, EvalRunCreate, EvalUpdate
from app.evaluations import lifecycle
from app.evaluations import service as evaluations
from app.evaluations.repository import EvaluationRepository
from app.evaluations.schemas import TERMINAL_STATUSES
from app.files import service as files
from app.ids import new_id
from app.media.ingest import ingest_contents
from app.media.store import DatabaseBlobStore
from app.metrics._templates import (
    RenderError,
    build_sample,
    image_url_templates,
    render_messages,
    render_template,
    resolve,
)
from app.models import EvalDefinition, EvalRun, Evaluation, Tenant
from app.problems import ProblemError, bad_request
from app.telemetry import logs
from app.tenants import limits
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


def create_eval(session: Session, tenant: Tenant, payload: EvalCreate) -> EvalDefinition:
    """Validate and store an eval; raises a 400 naming the bad field."""
    config = payload.data_source_config
    if config.type != "custom":
        raise bad_request(
            f"data_source_config type {config.type!r} reads logs stored at OpenAI; "
            "Loupe supports 'custom' (your rows, validated against item_schema)",
            ["data_source_config", "type"],
            "unsupported_data_source",
        )
    try:
        Draft202012Validator.check_schema(config.item_schema)
    except SchemaError as exc:
        raise bad_request(
            f"item_schema is not a valid JSON Schema: {exc.message}",
            ["data_source_config", "item_schema"],
        ) from exc
    echoed, specs = criteria.validate(payload.testing_criteria)
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
    return definition


@dataclass
class Deleted:
    """What deleting runs leaves to do after commit: blobs to collect, cancels to log."""

    digests: set[str] = field(default_factory=set)
    canceled: list[lifecycle.EvaluationRef] = field(default_factory=list)


def delete_runs(session: Session, runs: list[Evaluation]) -> Deleted:
    """Delete runs (read locked for update) with their rows, canceling running ones first:
    their jobs find them gone at their next write and stop without storing anything."""
    deleted = Deleted()
    for evaluation in runs:
        if evaluation.status not in TERMINAL_STATUSES:
            try:
                evaluations.cancel_loaded(session, evaluation)
                deleted.canceled.append(lifecycle.EvaluationRef.of(evaluation))
            except ProblemError:
                pass  # its last job finished it since we read it: deleted all the same
        deleted.digests |= evaluations.delete_loaded(session, evaluation)
    return deleted


def delete_eval(session: Session, tenant: Tenant, definition: EvalDefinition) -> Deleted:
    """Delete an eval with its runs (running ones canceled first) and their output items."""
    deleted = delete_runs(session, EvalRunRepository(session, tenant.id).of_eval(definition.id))
    EvalRepository(session, tenant.id).delete(definition)
    return deleted


def get_eval_or_404(session: Session, tenant: Tenant, eval_id: str) -> EvalDefinition:
    definition = EvalRepository(session, tenant.id).get(eval_id)
    if definition is None:
        raise ProblemError(404, "Not Found", f"No eval {eval_id!r}.", slug="not-found")
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

_SOURCE = ["data_source", "source"]


def _rows(
    session: Session, tenant: Tenant, source: Any
) -> tuple[list[dict[str, Any]], list[int] | None]:
    """The data source's rows, and for a file each row's line number (errors name lines)."""
    if not isinstance(source, dict):
        raise bad_request("data_source.source must be an object", _SOURCE)
    kind = source.get("type")
    if kind == "file_content":
        content = source.get("content")
        if not isinstance(content, list) or not content:
            raise bad_request("file_content needs a non-empty content array", [*_SOURCE, "content"])
        for index, row in enumerate(content):
            problem = files.row_problem(row)
            if problem is not None:
                raise bad_request(problem, [*_SOURCE, "content", index])
        return content, None
    if kind == "file_id":
        file_id = source.get("id")
        if not isinstance(file_id, str):
            raise bad_request("file_id sources need an id", [*_SOURCE, "id"])
        try:
            file = files.get_or_404(session, tenant, file_id, with_content=True)
        except ProblemError as exc:
            raise bad_request(f"no file {file_id!r}", [*_SOURCE, "id"], "file_not_found") from exc
        lines = files.parse_lines(file.content, [*_SOURCE, "id"])
        return [row for _, row in lines], [number for number, _ in lines]
    if kind in ("stored_completions", "responses"):
        raise bad_request(
            f"source type {kind!r} reads logs stored at OpenAI; use file_content or file_id",
            [*_SOURCE, "type"],
            "unsupported_data_source",
        )
    raise bad_request("source.type must be file_content or file_id", [*_SOURCE, "type"])


def _check_items(
    schema: dict[str, Any], rows: list[dict[str, Any]], lines: list[int] | None
) -> None:
    validator = Draft202012Validator(schema)
    for index, row in enumerate(rows):
        error = next(iter(validator.iter_errors(row["item"])), None)
        if error is None:
            continue
        where = "/".join(str(step) for step in error.absolute_path) or "(the item)"
        if lines is not None:
            raise bad_request(
                f"file line {lines[index]}: item does not match item_schema at {where}: "
                f"{error.message}",
                [*_SOURCE, "id"],
                "item_schema_mismatch",
            )
        raise bad_request(
            f"content[{index}].item does not match item_schema at {where}: {error.message}",
            [*_SOURCE, "content", index, "item", *error.absolute_path],
            "item_schema_mismatch",
        )


def _input_messages(data_source: dict[str, Any]) -> dict[str, Any]:
    spec = data_source.get("input_messages")
    if not isinstance(spec, dict) or spec.get("type") not in ("template", "item_reference"):
        raise bad_request(
            "a completions run needs input_messages: {type: 'template', template: [...]} or "
            "{type: 'item_reference', item_reference: 'item.path'}",
            ["data_source", "input_messages"],
        )
    if spec["type"] == "template" and not isinstance(spec.get("template"), list):
        raise bad_request(
            "template must be an array", ["data_source", "input_messages", "template"]
        )
    if spec["type"] == "item_reference" and not isinstance(spec.get("item_reference"), str):
        raise bad_request(
            "item_reference must be a path such as item.messages",
            ["data_source", "input_messages", "item_reference"],
        )
    if spec["type"] == "template":
        _check_template(spec["template"])
    return spec


# What a template's content parts may be; each stands for a chat-completion part Loupe sends.
_PART_TYPES = ("input_text", "output_text", "input_image", "input_audio")


def _check_template(template: list[Any]) -> None:
    """Refuse, before any row is stored, the parts every row would fail on: `input_file`,
    `input_image` by `file_id` (OpenAI-hosted files) and unknown part types."""
    base: list[str | int] = ["data_source", "input_messages", "template"]
    for position, message in enumerate(template):
        if not isinstance(message, dict):
            raise bad_request("each template message must be an object", [*base, position])
        content = message.get("content")
        if isinstance(content, dict):
            parts: list[tuple[list[str | int], Any]] = [([], content)]
        elif isinstance(content, list):
            parts = [([index], part) for index, part in enumerate(content)]
        else:
            continue  # a string, or nothing: rendered (or refused) per row
        for where, part in parts:
            path = [*base, position, "content", *where]
            if not isinstance(part, dict):
                continue
            kind = part.get("type")
            if kind == "input_file":
                raise bad_request(
                    "input_file parts are not supported: Loupe has no OpenAI-hosted files to "
                    "send; put the text in an input_text part",
                    path,
                    "unsupported_content",
                )
            if kind == "input_image" and not isinstance(part.get("image_url"), str):
                raise bad_request(
                    "input_image needs an image_url (an https or data URL, or a template such "
                    "as {{ item.image_url }}); file_id images are not supported",
                    path,
                    "unsupported_content",
                )
            if kind not in _PART_TYPES:
                raise bad_request(
                    f"content parts of type {kind!r} are not supported; use one of "
                    f"{', '.join(_PART_TYPES)}",
                    path,
                    "unsupported_content",
                )


_PARAMS = {
    "max_completion_tokens": "max_tokens",
    "max_completions_tokens": "max_tokens",
    "reasoning_effort": "reasoning_effort",
    "response_format": "response_format",
}
# OpenAI's defaults for a run's sampling (API reference), used when the run leaves them out.
SAMPLING_DEFAULTS = {"temperature": 1, "top_p": 1, "seed": 42}


def _sampling(data_source: dict[str, Any]) -> dict[str, Any]:
    sampling = data_source.get("sampling_params") or {}
    if not isinstance(sampling, dict):
        raise bad_request("sampling_params must be an object", ["data_source", "sampling_params"])
    return sampling


def sampling_used(data_source: dict[str, Any]) -> dict[str, Any]:
    """The sampling values a completions run's candidate calls use (defaults filled in), as
    an output item's `sample` shows them."""
    sampling = _sampling(data_source)
    used = {
        name: default if sampling.get(name) is None else sampling[name]
        for name, default in SAMPLING_DEFAULTS.items()
    }
    tokens = sampling.get("max_completion_tokens")
    used["max_completion_tokens"] = (
        sampling.get("max_completions_tokens") if tokens is None else tokens
    )
    return used


def generation_params(data_source: dict[str, Any]) -> dict[str, Any]:
    """The candidate call's body fields from `sampling_params` (both token spellings), with
    OpenAI's defaults for temperature, top_p and seed rather than the endpoint's."""
    sampling = _sampling(data_source)
    if sampling.get("tools"):
        raise bad_request(
            "tools in sampling_params are not supported yet",
            ["data_source", "sampling_params", "tools"],
            "unsupported_parameter",
        )
    used = sampling_used(data_source)
    params = {name: used[name] for name in SAMPLING_DEFAULTS}
    for key, value in sampling.items():
        if key in _PARAMS and value is not None:
            params[_PARAMS[key]] = value
    return params


def _grader_image_templates(definition: EvalDefinition) -> list[str]:
    templates: list[str] = []
    for criterion in definition.testing_criteria:
        if criterion.get("type") in criteria.MODEL_GRADERS:
            templates.extend(image_url_templates(criterion.get("input") or []))
    return list(dict.fromkeys(templates))


def _identity(url: str) -> dict[str, Any]:
    return {"type": "image_url", "image_url": {"url": url}}


def _case(
    index: int,
    row: dict[str, Any],
    image_templates: list[str],
    input_messages: dict[str, Any] | None,
) -> dict[str, Any]:
    """The stored test case of one row; images are ingested afterwards, in place."""
    item = row["item"]
    # The row's sample plus `output_json` parsed from its `output_text`, as a sampled row has.
    sample = build_sample(row_sample=row["sample"]) if row.get("sample") is not None else None
    namespaces = {"item": item, "sample": sample}
    urls: list[str] = []
    for template in image_templates:
        try:
            urls.append(render_template(template, namespaces))
        except RenderError:
            continue  # the grader reports it for this row, as an errored result
    urls = list(dict.fromkeys(urls))
    metadata: dict[str, Any] = {"item": item, "sample": sample, "image_urls": urls}
    messages = None
    if input_messages is not None:
        try:
            if input_messages["type"] == "template":
                template = input_messages["template"]
            else:
                template = resolve(input_messages["item_reference"], {"item": item})
                if not isinstance(template, list):
                    raise RenderError(
                        f"{input_messages['item_reference']} is not an array of messages"
                    )
            message_urls = image_url_templates(template)
            rendered = {render_template(url, {"item": item}): None for url in message_urls}
            messages = render_messages(
                template, {"item": item}, {url: _identity(url) for url in rendered}
            )
        except RenderError as error:
            metadata["error"] = {"code": error.type, "message": error.message}
    output_text = (sample or {}).get("output_text")
    return {
        "index": index,
        "client_id": str(index),
        "input": [_identity(url) for url in urls] or None,
        "actual_output": output_text if isinstance(output_text, str) else None,
        "expected_output": None,
        "messages": messages,
        "metadata_": metadata,
    }


def _ingest(
    cases: list[dict[str, Any]], settings: Settings, session: Session, tenant: Tenant
) -> None:
    contents: list[tuple[list[str | int], Any]] = []
    for case in cases:
        base: list[str | int] = [*_SOURCE, "content", case["index"]]
        contents.append(([*base, "images"], case["input"]))
        for position, message in enumerate(case["messages"] or []):
            contents.append(([*base, "input_messages", position, "content"], message["content"]))
    ingest_contents(contents, DatabaseBlobStore(session, tenant.id), settings)


def create_run(
    session: Session,
    tenant: Tenant,
    eval_id: str,
    payload: EvalRunCreate,
    settings: Settings,
) -> Evaluation:
    """Validate a run's data source and store it as a queued evaluation of kind eval_run.

    A model name that resolves to no registered model stores the run as failed, with its error.
    """
    definition = get_eval_or_404(session, tenant, eval_id)
    data_source = payload.data_source
    kind = data_source.get("type")
    if kind == "responses":
        raise bad_request(
            "responses data sources are not supported yet; use jsonl or completions",
            ["data_source", "type"],
            "unsupported_data_source",
        )
    if kind not in ("jsonl", "completions"):
        raise bad_request("data_source.type must be jsonl or completions", ["data_source", "type"])
    rows, lines = _rows(session, tenant, data_source.get("source"))
    if len(rows) > settings.max_test_cases:
        raise bad_request(
            f"at most {settings.max_test_cases} rows per run (LOUPE_MAX_TEST_CASES)", _SOURCE
        )
    _check_items(definition.data_source_config.get("item_schema", {}), rows, lines)
    model_name = data_source.get("model") if kind == "completions" else None
    input_messages = None
    model = None
    if kind == "completions":
        if not isinstance(model_name, str) or not model_name:
            raise bad_request("a completions run needs a model", ["data_source", "model"])
        input_messages = _input_messages(data_source)
        generation_params(data_source)
        model = CandidateModelRepository(session, tenant.id).by_model_name(model_name)
    webhook_endpoint_id = _webhook_endpoint(session, tenant, payload)
    image_templates = _grader_image_templates(definition)
    cases = [_case(i, row, image_templates, input_messages) for i, row in enumerate(rows)]
    _ingest(cases, settings, session, tenant)
    # Last, once the submission is known to be valid: the tenant row stays locked until commit.
    limits.admit(session, tenant)
    evaluation = Evaluation(
        id=new_id("evalrun"),
        kind=KIND,
        tenant_id=tenant.id,
        name=payload.name or model_name or "run",
        metadata_=payload.metadata or {},
        metrics=definition.specs,
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
            data_source=_echo(data_source),
            model=model_name,
            model_id=model.id if model is not None else None,
        )
    )
    return evaluation


def _echo(data_source: dict[str, Any]) -> dict[str, Any]:
    """The data source as OpenAI echoes it: template messages typed (string content as an
    `input_text` part), the max-tokens field spelt as the SDK's run types spell it."""
    echoed = dict(data_source)
    spec = data_source.get("input_messages")
    if isinstance(spec, dict) and spec.get("type") == "template":
        echoed["input_messages"] = {
            **spec,
            "template": [criteria.echo_message(message) for message in spec["template"]],
        }
    if "sampling_params" in data_source:
        echoed["sampling_params"] = criteria.echo_tokens(
            data_source["sampling_params"], "max_completion_tokens"
        )
    return echoed


def _webhook_endpoint(session: Session, tenant: Tenant, payload: EvalRunCreate) -> str | None:
    # A Loupe extension (`extra_body={"webhook_url": ...}` in the SDK): OpenAI configures
    # webhooks per project, Loupe per run, among the tenant's registered endpoints.
    url = (payload.model_extra or {}).get("webhook_url")
    if url is None:
        return None
    endpoint = (
        webhook_service.endpoint_for_url(session, tenant.id, url) if isinstance(url, str) else None
    )
    if endpoint is None:
        raise bad_request("webhook_url is not a registered webhook endpoint", ["webhook_url"])
    return endpoint.id
