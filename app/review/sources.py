"""A review queue's sources: the body's checks on them (every field at fault named) and the
evaluations they feed (the evaluations named, and the days of the online rules named)."""

from collections.abc import Mapping
from typing import Any

from sqlalchemy.orm import Session

from app.config import Settings
from app.models import ReviewQueue, Tenant
from app.problems import FieldError, field_error
from app.review.repository import ReviewQueueRepository
from app.review.source_rules import SourceRuleRepository


def _ids(body: Mapping[str, Any], name: str) -> list[tuple[int, str]]:
    found = body.get(name)
    if not isinstance(found, list):
        return []
    return [(index, value) for index, value in enumerate(found) if isinstance(value, str)]


def body_problems(session: Session, tenant_id: str, body: Mapping[str, Any]) -> list[FieldError]:
    """What the schema cannot see in a queue's body, every field named: sources that are not
    the tenant's, no source at all, a metric none of them has, routing that picks nothing."""
    errors: list[FieldError] = []
    repo = ReviewQueueRepository(session, tenant_id)
    rules = SourceRuleRepository(session, tenant_id)
    evaluation_ids, rule_ids = _ids(body, "evaluation_ids"), _ids(body, "online_rule_ids")
    if not body.get("evaluation_ids") and not body.get("online_rule_ids"):
        message = "name at least one source: evaluation_ids, online_rule_ids or both"
        errors.append(field_error(["evaluation_ids"], message, "missing_source"))
        errors.append(field_error(["online_rule_ids"], message, "missing_source"))
    known = repo.evaluation_statuses([value for _, value in evaluation_ids])
    names = repo.metric_names(sorted(known))
    for index, value in evaluation_ids:
        if value not in known:
            message = f"no evaluation {value!r}"
            errors.append(field_error(["evaluation_ids", index], message, "not_found"))
    for index, value in rule_ids:
        rule = rules.get_by_id(value)
        if rule is None:
            message = f"no online rule {value!r}"
            errors.append(field_error(["online_rule_ids", index], message, "not_found"))
        else:
            names.update(str(spec.get("name") or spec.get("type")) for spec in rule.metrics)
    metric = body.get("metric")
    if isinstance(metric, str) and metric and (known or names) and metric not in names:
        listed = ", ".join(sorted(names)) or "none"
        message = f"no source has a metric named {metric!r} (they have: {listed})"
        errors.append(field_error(["metric"], message, "unknown_metric"))
    rules_asked = body.get("routing")
    if isinstance(rules_asked, Mapping) and not (
        rules_asked.get("near_threshold")
        or rules_asked.get("fragile")
        or rules_asked.get("lowest")
        or rules_asked.get("audit_share")
    ):
        message = "route something: near_threshold, fragile, lowest or a non-zero audit_share"
        errors.append(field_error(["routing"], message, "nothing_routed"))
    return errors


def checked_body(
    session: Session, tenant: Tenant, settings: Settings, body: Mapping[str, Any]
) -> list[FieldError]:
    """`body_problems` as `checked_with_tenant` calls it (a body failing its schema)."""
    return body_problems(session, tenant.id, body)


def evaluation_ids(session: Session, tenant_id: str, queue: ReviewQueue) -> list[str]:
    """The queue's evaluations and its online rules' days (a deleted rule feeds nothing)."""
    found = list(queue.evaluation_ids)
    rules = SourceRuleRepository(session, tenant_id)
    for rule_id in queue.online_rule_ids:
        rule = rules.get_by_id(rule_id)
        if rule is not None:
            found += rules.day_evaluation_ids(rule)
    return found
