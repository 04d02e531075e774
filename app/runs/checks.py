"""Checking a run request: samples selected, scorers and metrics picked, predictions and clusters
matched, the judge resolved; every problem found at once."""

import dataclasses
import re
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from sqlalchemy.orm import Session

from app.api.salvage import salvage
from app.candidates.repository import CandidateModelRepository
from app.config import Settings
from app.datasets.repository import DatasetRepository
from app.evaluations import judging
from app.metrics import MetricSpecBase, parse_spec
from app.models import Dataset, DatasetRow, Tenant
from app.problems import MAX_FIELD_ERRORS, FieldError, field_error
from app.runs.report import MAX_KEY, OVERALL, REPORT_KEYS, SCORER_NAMES
from app.runs.schemas import RunCreate
from app.webhooks import service as webhook_service


def _select(rows: list[DatasetRow], subsets: list[str], limit: int | float | None) -> list[Any]:
    by_subset: dict[str, list[DatasetRow]] = defaultdict(list)
    for row in rows:
        by_subset[row.subset].append(row)
    selected = []
    for name in subsets:
        subset_rows = by_subset[name]
        if isinstance(limit, float):
            subset_rows = subset_rows[: int(len(subset_rows) * limit)]
        elif isinstance(limit, int):
            subset_rows = subset_rows[:limit]
        selected.extend(subset_rows)
    return selected


_SPEAKERS = {
    "system": "System",
    "developer": "Developer",
    "user": "User",
    "assistant": "Assistant",
    "tool": "Tool",
}


def question(messages: list[dict[str, Any]]) -> list[Any]:
    """What a judge is shown as the question: every message of the conversation, each after
    its speaker (`**User**:`), as EvalScope's judge transcript, with images in place."""
    parts: list[Any] = []
    for message in messages:
        role = message.get("role", "")
        speaker = f"**{_SPEAKERS.get(role, role)}**:"
        content = message.get("content")
        if not isinstance(content, list):
            parts.append({"type": "text", "text": f"{speaker} {content or ''}".rstrip()})
            continue
        parts.append({"type": "text", "text": speaker})
        for part in content:
            if part.get("type") == "input_audio":
                parts.append({"type": "text", "text": "[an audio clip]"})
            else:
                parts.append(part)
    return parts or [{"type": "text", "text": ""}]


def _metric_specs(kind: str, payload: RunCreate) -> list[dict[str, Any]]:
    rule: dict[str, Any] = (
        {"type": "rouge", "name": "rule", "variant": "l", "statistic": "r"}
        if kind == "vqa"
        else {"type": "choice_accuracy", "name": "accuracy"}
    )
    specs = [rule]
    if payload.judge.strategy != "rule":
        judged: dict[str, Any] = {"type": "llm_accuracy", "name": "acc"}
        if payload.judge.model:
            judged["model"] = payload.judge.model
        if payload.judge.model_id:
            judged["judge"] = {"model_id": payload.judge.model_id}
        if payload.judge.strategy == "llm_recall":
            # The benchmark's own rule decides whether the judge is asked: ROUGE-L recall for
            # VQA, the extracted answer's accuracy for MCQ (whose reference is only a label).
            judged["rule_first"] = True
            if kind == "mcq":
                judged["rule"] = "choice_accuracy"
        specs.append(judged)
    # Stored exactly as evaluations store validated specs; the caller's own specs after ours.
    return [parse_spec(spec).model_dump(mode="json", exclude_none=True) for spec in specs] + [
        spec.model_dump(mode="json", exclude_none=True) for spec in payload.metrics or []
    ]


def _judge_errors(errors: list[FieldError], builtin: int, payload: RunCreate) -> list[FieldError]:
    """Judge errors where the run's request has them: the scorers `judge` implies come first
    (their errors are `judge`'s), then the caller's own `metrics`."""
    placed = []
    for error in errors:
        found = re.match(r"metrics\[(\d+)\](.*)", error.loc)
        index = int(found.group(1)) if found else 0
        if index < builtin:
            where: list[str | int] = (
                ["judge", "model_id"] if payload.judge.model_id else ["judge", "strategy"]
            )
        else:
            rest = [part for part in (found.group(2) if found else "").split(".") if part]
            where = ["metrics", index - builtin, *rest]
        placed.append(field_error(where, error.msg, error.type))
    return placed


def _extra_metric_errors(
    payload: RunCreate, selected: list[DatasetRow], predictions: dict[tuple[str, int], str]
) -> list[FieldError]:
    """What the run's own metric specs cannot have: a name its report already uses or cannot
    hold, a test-case field samples lack, a sample a metric cannot take (image counts)."""
    errors: list[FieldError] = []
    taken = {*SCORER_NAMES, *(key for keys in REPORT_KEYS.values() for key in keys), OVERALL}
    seen: set[str] = set()
    for position, spec in enumerate(payload.metrics or []):
        name = spec.display_name
        if name in taken or name in seen or len(name) > MAX_KEY:
            errors.append(
                field_error(
                    ["metrics", position, "name"],
                    f"{name!r} cannot be a report key: give a name of at most {MAX_KEY} "
                    "characters that the run's scorers and other metrics do not use",
                    "report_key",
                )
            )
        seen.add(name)
        for field in spec.required_test_case_fields():
            missing = (
                [row for row in selected if not row.answer]
                if field == "expected_output"
                else selected
                if field in ("context", "retrieval_context")
                else []
            )
            if missing:
                errors.append(
                    field_error(
                        ["metrics", position],
                        f"needs {field}, which {len(missing)} selected samples do not have "
                        f"(first: {missing[0].subset}/{missing[0].index})",
                        "missing_for_metric",
                    )
                )
        if type(spec).test_case_problems is MetricSpecBase.test_case_problems:
            continue  # the spec has no per-case checks
        for row in selected:
            # The candidate's answer is text: only given predictions are known at submit.
            stand_in = SimpleNamespace(
                input=question(row.messages),
                actual_output=predictions.get((row.subset, row.index), ""),
                expected_output=row.answer or "",
                context=None,
                retrieval_context=None,
                metadata={"subset": row.subset, "row_index": row.index},
            )
            problems = spec.test_case_problems(stand_in)
            if problems:
                field, message = problems[0]
                errors.append(
                    field_error(
                        ["metrics", position],
                        f"sample {row.subset}/{row.index}: {field} {message}",
                        "unfit_for_metric",
                    )
                )
                break
    return errors


def _predictions(
    payload: RunCreate, selected: list[DatasetRow], subsets: list[str]
) -> tuple[dict[tuple[str, int], str], list[FieldError]]:
    wanted = {(row.subset, row.index) for row in selected}
    found: dict[tuple[str, int], str] = {}
    errors: list[FieldError] = []
    for position, item in enumerate(payload.predictions or []):
        subset = item.subset
        if subset is None and len(subsets) == 1:
            subset = subsets[0]
        key = (subset or "", item.index)
        if subset is None:
            message = "name the subset: the run has several"
        elif key not in wanted:
            message = f"no selected sample {subset}/{item.index}"
        elif key in found:
            message = f"a second prediction for {subset}/{item.index}"
        else:
            found[key] = item.prediction
            continue
        errors.append(field_error(["predictions", position], message, "unknown_sample"))
    missing = [row for row in selected if (row.subset, row.index) not in found]
    for row in missing[: max(0, MAX_FIELD_ERRORS - len(errors))]:
        errors.append(
            field_error(
                ["predictions"], f"no prediction for sample {row.subset}/{row.index}", "missing"
            )
        )
    return found, errors


def _first_image(messages: list[dict[str, Any]]) -> str | None:
    for message in messages:
        content = message.get("content")
        for part in content if isinstance(content, list) else ():
            if part.get("type") == "image_url":
                url = part.get("image_url")
                return url.get("url") if isinstance(url, dict) else url
    return None


def _cluster(row: DatasetRow, column: str) -> Any:
    """The sample's value of a dataset column: `subset`, `image` (its first image, by content)
    or a key the format keeps in `extra` (VLMEvalKit's `category`, `index`)."""
    if column == "subset":
        return row.subset
    if column == "image":
        return _first_image(row.messages)
    return (row.extra or {}).get(column)


def _clusters(selected: list[DatasetRow], column: str | None) -> tuple[list[Any], list[FieldError]]:
    if column is None:
        return [None] * len(selected), []
    clusters = [_cluster(row, column) for row in selected]
    missing = [row for row, cluster in zip(selected, clusters, strict=True) if cluster is None]
    if not missing:
        return clusters, []
    return clusters, [
        field_error(
            ["cluster_by"],
            f"sample {missing[0].subset}/{missing[0].index} has no {column!r} "
            f"({len(missing)} samples in all); use subset, image or a column every "
            "selected row has",
            "missing_column",
        )
    ]


@dataclass
class _Checked:
    """A run request's problems, and what was read on the way (for a valid one)."""

    errors: list[FieldError] = dataclasses.field(default_factory=list)
    dataset: Dataset | None = None
    subsets: list[str] = dataclasses.field(default_factory=list)
    selected: list[DatasetRow] = dataclasses.field(default_factory=list)
    clusters: list[Any] = dataclasses.field(default_factory=list)
    predictions: dict[tuple[str, int], str] = dataclasses.field(default_factory=dict)
    metrics: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    judge: dict[str, Any] | None = None
    endpoint_id: str | None = None


def check(
    session: Session,
    tenant: Tenant,
    payload: RunCreate,
    settings: Settings,
    refused: frozenset[str] = frozenset(),
) -> _Checked:
    """Every problem of a run request the schema could not see, in one list: the dataset,
    model and webhook, subsets, the selection, clusters, predictions, metrics and judges.
    `refused`: fields whose schema failed (a salvaged body), which are left unchecked."""
    checked = _Checked()
    errors = checked.errors
    if "dataset_id" not in refused:
        checked.dataset = DatasetRepository(session, tenant.id).get(payload.dataset_id)
        if checked.dataset is None:
            errors.append(field_error(["dataset_id"], "no such dataset", "not_found"))
    if refused.isdisjoint(("model_id", "predictions")) and (payload.model_id is None) == (
        payload.predictions is None
    ):
        message = "give exactly one of model_id or predictions"
        errors.append(field_error(["model_id"], message, "one_source"))
    model_repo = CandidateModelRepository(session, tenant.id)
    if payload.model_id is not None and model_repo.get(payload.model_id) is None:
        errors.append(field_error(["model_id"], "no such model", "not_found"))
    if payload.webhook_url is not None:
        checked.endpoint_id, unregistered = webhook_service.registered(
            session, tenant.id, payload.webhook_url, ["webhook_url"]
        )
        if unregistered is not None:
            errors.append(unregistered)
    dataset = checked.dataset
    if dataset is not None:
        names = [subset["name"] for subset in dataset.subsets]
        unknown = False
        for position, name in enumerate(payload.subsets or []):
            if name not in names:
                unknown = True
                errors.append(
                    field_error(["subsets", position], f"not a subset of the dataset: {names}")
                )
        checked.subsets = list(dict.fromkeys(payload.subsets or names))
        # A refused subsets or limit would make any selection a guess.
        if not unknown and not refused & {"subsets", "limit"}:
            rows = list(DatasetRepository(session, tenant.id).rows(dataset, checked.subsets))
            checked.selected = _select(rows, checked.subsets, payload.limit)
            if not checked.selected and "limit" not in refused:
                errors.append(field_error(["limit"], "selects no samples", "empty"))
    selected = checked.selected
    if selected:
        checked.clusters, cluster_errors = _clusters(selected, payload.cluster_by)
        errors.extend(cluster_errors)
        if payload.predictions is not None:
            checked.predictions, prediction_errors = _predictions(
                payload, selected, checked.subsets
            )
            errors.extend(prediction_errors)
        if payload.metrics:
            errors.extend(_extra_metric_errors(payload, selected, checked.predictions))
    if "judge" in refused or "metrics" in refused:
        return checked
    # The kind only picks the scorer that needs no judge: judges are checked without a dataset.
    checked.metrics = _metric_specs(selected[0].kind if selected else "vqa", payload)
    checked.judge, judge_errors = judging.resolve(
        session,
        tenant.id,
        settings,
        [parse_spec(spec) for spec in checked.metrics],
        None,
        judge_path=["judge"],
        metric_path=["metrics"],
    )
    builtin = len(checked.metrics) - len(payload.metrics or [])
    errors.extend(_judge_errors(judge_errors, builtin, payload))
    return checked


def body_problems(
    session: Session, tenant: Tenant, settings: Settings, body: Mapping[str, Any]
) -> list[FieldError]:
    """The problems of a run request that failed its schema, beyond the schema's own."""
    payload, refused = salvage(RunCreate, body)
    errors = check(session, tenant, payload, settings, refused).errors
    if refused & {"judge", "metrics"}:
        # Judges are not resolved then: the model ids they name are still looked up.
        errors += judging.unknown_models(session, tenant.id, body.get("judge"), ["judge"])
        metrics = body.get("metrics")
        for index, metric in enumerate(metrics if isinstance(metrics, list) else []):
            if isinstance(metric, dict):
                path: list[str | int] = ["metrics", index, "judge"]
                errors += judging.unknown_models(session, tenant.id, metric.get("judge"), path)
    return errors[:MAX_FIELD_ERRORS]
