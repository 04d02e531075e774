"""A judged metric's version: what changes its verdicts, hashed (issue 29).

The definition holds the metric's type, every option its prompt or its scoring reads (criteria,
steps, rubric, templates, `include_reason`, `strict_mode`, `evaluation_params`, a grader's input
messages and labels, ...) and the judge as resolved at submit (its model name, samples,
aggregate, temperature, a panel's members and weights). The threshold, the name and the judge's
endpoint are not in it: they do not change the judge's score. Options left at their defaults are
left out, so `{"include_reason": true}` and nothing are one version.
"""

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from app.metrics._types import MetricSpecBase

# Graders of /v1/evals that ask a model (their own `model`) for the verdict.
MODEL_GRADERS = frozenset({"label_model", "score_model"})
# Spec fields that name the metric or turn its score into pass/fail, or choose the judge (the
# resolved judge stands for them).
_NOT_HASHED = frozenset({"name", "threshold", "pass_threshold", "model", "judge", "type"})
PREFIX = "mv_"


@dataclass(frozen=True)
class MetricVersionDef:
    """A version's id and exactly what was hashed into it."""

    id: str
    type: str
    definition: dict[str, Any]


def canonical(value: Any) -> str:
    """`value` as canonical JSON: sorted keys, no spaces, UTF-8."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _judge(spec: MetricSpecBase, resolved: dict[str, Any] | None) -> dict[str, Any]:
    """The judge part of a definition from the spec's `judge` choice and its resolved record."""
    resolved = resolved or {}
    choice = getattr(spec, "judge", None)
    judge: dict[str, Any] = {}
    panel = resolved.get("panel")
    if panel:
        # Members are aggregated, not ordered: the same members in any order are one judge.
        judge["panel"] = sorted(
            (
                {"model": member.get("model"), "weight": member.get("weight", 1.0)}
                for member in panel
            ),
            key=canonical,
        )
    else:
        judge["model"] = resolved.get("model") or getattr(spec, "model", None)
    if choice is not None and choice.repeated:
        # How a repeated judgment becomes the score; one call has no aggregate.
        judge["samples"] = choice.samples
        judge["aggregate"] = choice.aggregate
        judge["temperature"] = choice.temperature
    return judge


def metric_version(
    tenant_id: str, spec: MetricSpecBase, resolved: dict[str, Any] | None
) -> MetricVersionDef | None:
    """The version of a judged metric as resolved for judging, or None for a metric with no
    judge (exact_match, the reference metrics, the graders that ask no model).

    Args:
        spec: the metric's parsed spec.
        resolved: its judge as `app.evaluations.judging.resolve` records it per metric
            (`model`, `model_id`, `host`, and a panel's members); None for a model grader,
            whose own `model` is its judge.

    The id is `mv_` and the first 24 hex digits of sha256(tenant id, canonical definition).
    """
    kind: str = spec.type  # type: ignore[attr-defined]
    if not (spec.uses_judge or kind in MODEL_GRADERS):
        return None
    options = spec.model_dump(mode="json", exclude_defaults=True, exclude=set(_NOT_HASHED))
    definition = {"type": kind, "options": options, "judge": _judge(spec, resolved)}
    digest = hashlib.sha256(f"{tenant_id}\n{canonical(definition)}".encode()).hexdigest()
    return MetricVersionDef(id=PREFIX + digest[:24], type=kind, definition=definition)
