"""Which judge each judged metric uses: the operator's (LOUPE_JUDGE_*) or a tenant's own model.

Resolved once at submit and recorded on the evaluation (`judge`), so the job uses what the
response showed, and each result's logs and each metric's usage name the model behind them.
"""

from typing import Any

from sqlalchemy.orm import Session

from app.candidates import service as candidates
from app.candidates.repository import CandidateModelRepository
from app.config import Settings
from app.judges import JudgeEndpoint, endpoint_host
from app.metrics import MetricSpecBase
from app.problems import FieldError, field_error

NOT_CONFIGURED = (
    "no judge is configured: set LOUPE_JUDGE_BASE_URL (an OpenAI-compatible server such as "
    "vLLM, Ollama or llama.cpp) or LOUPE_JUDGE_API_KEY (OpenAI) on the server, or name a model "
    "registered with POST /v1/models as `judge: {model_id}`"
)


def operator_endpoint(settings: Settings) -> JudgeEndpoint:
    """The operator's judge endpoint (one per process; jobs share its client)."""
    base_url, api_key = settings.judge_endpoint_values()
    return candidates.endpoint_for(settings, base_url, api_key, settings.judge_model, "judge")


def operator_configured(settings: Settings) -> bool:
    """True when the operator gave a judge endpoint or key (else judged metrics are refused)."""
    base_url, api_key = settings.judge_endpoint_values()
    return bool(base_url or api_key)


def startup_line(settings: Settings) -> str:
    """What `loupe serve` and `loupe worker` print about the judge."""
    if not operator_configured(settings):
        return (
            "judge: none configured; judged metrics (g_eval, faithfulness, ...) answer 422 "
            "until LOUPE_JUDGE_BASE_URL or LOUPE_JUDGE_API_KEY is set, unless a tenant names "
            "its own (judge: {model_id})"
        )
    base_url, _ = settings.judge_endpoint_values()
    return f"judge: {settings.judge_model} at {endpoint_host(base_url)}"


def is_judged(spec: MetricSpecBase) -> bool:
    """True for a metric that calls a judge."""
    return spec.uses_judge


def resolve(
    session: Session,
    tenant_id: str,
    settings: Settings,
    specs: list[MetricSpecBase | None],
    judge: Any,
    *,
    judge_path: list[str | int],
    metric_path: list[str | int],
) -> tuple[dict[str, Any] | None, list[FieldError]]:
    """The evaluation's judge record and the field errors of its judge choices.

    Args:
        judge: the request's evaluation-level choice (an object with `model`, `model_id`),
            or None.
        judge_path, metric_path: where those live in the request body (for error locations).

    The record: `model`, `model_id`, `host` of the default judge, and `metrics`, per judged
    metric index, the same three for the judge that metric uses.
    """
    errors: list[FieldError] = []
    models = CandidateModelRepository(session, tenant_id)
    default_model = getattr(judge, "model", None)
    default_id = getattr(judge, "model_id", None)

    def registered(model_id: str, path: list[str | int]) -> dict[str, Any]:
        row = models.get(model_id)
        if row is None:
            errors.append(
                field_error(path, f"no model {model_id!r}; register it with POST /v1/models")
            )
            # A submission is refused for the error; a choice stored earlier and resolved again
            # (an online rule's next day) still names the model it lacks, so its calls fail for
            # want of it instead of going to the server's judge.
            return {"model": None, "model_id": model_id, "host": None}
        return {"model": row.model, "model_id": row.id, "host": endpoint_host(row.base_url)}

    default: dict[str, Any] | None = None
    if default_id is not None:
        default = registered(default_id, [*judge_path, "model_id"])
        if default is not None and default_model:
            default["model"] = default_model
    elif operator_configured(settings):
        base_url, _ = settings.judge_endpoint_values()
        default = {
            "model": default_model or settings.judge_model,
            "model_id": None,
            "host": endpoint_host(base_url),
        }
    per_metric: dict[str, dict[str, Any]] = {}
    for index, spec in enumerate(specs):
        # None: a metric refused by its schema (its own errors say why).
        if spec is None or not is_judged(spec):
            continue
        path: list[str | int] = [*metric_path, index]
        own = getattr(spec, "judge", None)
        if own is not None and own.panel:
            if getattr(spec, "model", None):
                # One model name for every member would ask each endpoint for that model: a
                # panel of one judge, shown and priced as the members it names.
                errors.append(
                    field_error(
                        [*path, "model"],
                        "a panel's judges are its members: name another model per member "
                        "(`judge.panel[].model`), not one for the whole metric",
                        "model_with_panel",
                    )
                )
            members = [
                _member(registered, settings, member, [*path, "judge", "panel", number], errors)
                for number, member in enumerate(own.panel)
            ]
            # Checked once resolved: `{}` and `{"model": "<the server's judge model>"}` are the
            # same judge, whose agreement with itself would say nothing.
            seen: dict[tuple[Any, Any], int] = {}
            for number, member in enumerate(members):
                if member is None:
                    continue
                key = (member["model_id"], member["model"])
                if key in seen:
                    errors.append(
                        field_error(
                            [*path, "judge", "panel", number],
                            f"the same judge as panel[{seen[key]}] ({member['model']!r} at "
                            f"{member['host']}); a panel names each judge once",
                            "duplicate_judge",
                        )
                    )
                seen.setdefault(key, number)
            if len(seen) == len(members) and all(member is not None for member in members):
                # The first member stands for the panel where one judge is shown.
                per_metric[str(index)] = {**members[0], "panel": members}  # type: ignore[dict-item]
            continue
        if own is not None and own.model_id is not None:
            chosen = registered(own.model_id, [*path, "judge", "model_id"])
        elif default is None and default_id is None:
            errors.append(
                field_error(
                    path,
                    f"metric {spec.display_name!r} needs a judge; {NOT_CONFIGURED}",
                    "judge_not_configured",
                )
            )
            continue
        else:
            chosen = default
        if chosen is not None:
            named = getattr(spec, "model", None)
            per_metric[str(index)] = {**chosen, "model": named or chosen["model"]}
    if not per_metric and not any(spec is not None and is_judged(spec) for spec in specs):
        # Nothing is judged: no judge is named, whatever the server would have used.
        return None, errors
    if default is None and not per_metric:
        return ({"model": default_model} if default_model else None), errors
    record = dict(default or {"model": None, "model_id": None, "host": None})
    record["metrics"] = per_metric
    return record, errors


def unknown_models(
    session: Session, tenant_id: str, raw: Any, path: list[str | int]
) -> list[FieldError]:
    """The errors of the model ids a judge its schema refused names (`model_id`, and each
    panel member's), so that one answer names them beside the schema's own."""
    if not isinstance(raw, dict):
        return []
    named: list[tuple[Any, list[str | int]]] = [(raw.get("model_id"), [*path, "model_id"])]
    panel = raw.get("panel")
    for number, member in enumerate(panel if isinstance(panel, list) else []):
        if isinstance(member, dict):
            named.append((member.get("model_id"), [*path, "panel", number, "model_id"]))
    models = CandidateModelRepository(session, tenant_id)
    return [
        field_error(where, f"no model {model_id!r}; register it with POST /v1/models")
        for model_id, where in named
        if isinstance(model_id, str) and models.get(model_id) is None
    ]


def _member(
    registered: Any,
    settings: Settings,
    member: Any,
    path: list[str | int],
    errors: list[FieldError],
) -> dict[str, Any] | None:
    """A panel member's record (`model`, `model_id`, `host`, `weight`), or None and its error."""
    if member.model_id is not None:
        chosen = registered(member.model_id, [*path, "model_id"])
    elif operator_configured(settings):
        base_url, _ = settings.judge_endpoint_values()
        chosen = {"model": settings.judge_model, "model_id": None, "host": endpoint_host(base_url)}
    else:
        errors.append(
            field_error(
                path,
                f"this panel member is the server's judge; {NOT_CONFIGURED}",
                "judge_not_configured",
            )
        )
        return None
    if chosen is None:
        return None
    return {**chosen, "model": member.model or chosen["model"], "weight": member.weight}


def endpoint_for(
    session: Session, tenant_id: str, settings: Settings, chosen: dict[str, Any] | None
) -> tuple[JudgeEndpoint | None, str | None]:
    """The endpoint a metric's recorded judge calls, or None and why it cannot be called."""
    model_id = (chosen or {}).get("model_id")
    if model_id is None:
        if not operator_configured(settings):
            return None, NOT_CONFIGURED
        return operator_endpoint(settings), None
    row = CandidateModelRepository(session, tenant_id).get(model_id)
    if row is None:
        return None, f"the judge model {model_id!r} was deleted after the evaluation was submitted"
    return candidates.judge_endpoint(row, settings), None
