"""What is wrong with an online rule the schema cannot see, in one list: its regular expressions,
its metrics' fitness for traced calls, its alert, judge and export endpoint."""

from collections.abc import Mapping
from typing import Any

import re2
from pydantic import TypeAdapter
from sqlalchemy.orm import Session

from app.api.salvage import items, valid
from app.config import Settings
from app.evaluations import admission, judging
from app.evaluations.checks import Findings
from app.evaluations.schemas import JudgeConfig
from app.metrics import MetricSpec, MetricSpecBase
from app.models import Tenant
from app.online import alerts, export_headers
from app.online.repository import OnlineRuleRepository
from app.online.schemas import Condition
from app.problems import FieldError
from app.webhooks.service import url_problems

# What a traced call gives a metric (the test case `ingest.py` stores for it): its messages in
# and out, the tools its reply called and the trace's retrieved documents; nothing holds a
# reference answer, a golden context or the tools it should have called.
CALL_FIELDS = ("input", "actual_output", "tools_called", "retrieval_context")
# What a traced conversation gives: its turns (with their tool calls and retrieved documents)
# and, from its calls' system instructions, the role its assistant was given.
CONVERSATION_FIELDS = frozenset({"turns", "chatbot_role"})

_metric: TypeAdapter[MetricSpecBase] = TypeAdapter(MetricSpec)
_condition = TypeAdapter(Condition)
_judge = TypeAdapter(JudgeConfig | None)
_RE2 = re2.Options()
_RE2.log_errors = False


def problems(
    session: Session,
    tenant_id: str,
    settings: Settings,
    conditions: list[Condition | None],
    metrics: list[MetricSpecBase | None],
    judge: JudgeConfig | None,
    target: str | None,
    judge_known: bool = True,
    export_endpoint: str | None = None,
    alert: Mapping[str, Any] | None = None,
    metrics_known: bool = True,
    headers: Any = None,
    own_endpoint: bool = False,
) -> list[FieldError]:
    """Everything wrong with a rule the schema could not see, in one list (`metrics_known`
    False: the body's metrics are not the rule's, so the alert's metric is not checked;
    `headers` the body's `export_headers`, sent only when the rule has an `own_endpoint`)."""
    findings = Findings()
    if export_endpoint:
        # A tenant's collector is reached from Loupe's network: the webhook address policy.
        findings.extend(
            url_problems({"export_endpoint": export_endpoint}, "export_endpoint", settings)
        )
    findings.extend(export_headers.problems(headers, own_endpoint))
    for index, condition in enumerate(conditions):
        if condition is not None and condition.op == "regex":
            error = regex_problem(condition.value)
            if error:
                findings.add(["filter", index, "value"], error, "invalid_regex")
    findings.extend(admission.size_problems(settings, metrics=(len(metrics), ["metrics"])))
    seen: dict[str, int] = {}
    for index, spec in enumerate(metrics):
        if spec is None:
            continue
        if spec.display_name in seen:
            findings.add(
                ["metrics", index, "name"],
                f"metric name {spec.display_name!r} is already used by "
                f"metrics[{seen[spec.display_name]}]; give each metric a distinct name",
                "duplicate_name",
            )
        seen.setdefault(spec.display_name, index)
        misfit = _shape_problem(spec, target)
        if misfit is not None:
            findings.add(["metrics", index], misfit, "wrong_shape_for_target")
            continue
        if target == "conversation":
            missing = sorted(set(spec.required_test_case_fields()) - CONVERSATION_FIELDS)
            if missing:
                findings.add(
                    ["metrics", index],
                    f"metric {spec.display_name!r} needs {', '.join(missing)}, which a traced "
                    "conversation does not have (it gives turns and, from the system "
                    "instructions, chatbot_role)",
                    "unfit_for_online",
                )
            continue
        missing = sorted(set(spec.required_test_case_fields()).difference(CALL_FIELDS))
        if missing:
            findings.add(
                ["metrics", index],
                f"metric {spec.display_name!r} needs {', '.join(missing)}, which a traced call "
                f"does not have (it gives {', '.join(CALL_FIELDS[:-1])} and {CALL_FIELDS[-1]})",
                "unfit_for_online",
            )
    names = [spec.display_name for spec in metrics if spec is not None]
    known = metrics_known and len(names) == len(metrics)
    findings.extend(alerts.problems(session, tenant_id, alert, names if known else None))
    if judge_known:
        _, errors = judging.resolve(
            session,
            tenant_id,
            settings,
            metrics,
            judge,
            judge_path=["judge"],
            metric_path=["metrics"],
        )
        findings.extend(errors)
    return findings.errors


def _shape_problem(spec: MetricSpecBase, target: str | None) -> str | None:
    """Why the metric does not judge what the rule's target gives (a call or a conversation)."""
    if target == "conversation" and spec.shape == "single":
        return (
            f"metric {spec.display_name!r} judges one input and its output, and this rule "
            "judges whole conversations; use a conversational metric (turn_relevancy, "
            'conversational_g_eval, ...) or `target: "span"`'
        )
    if target != "conversation" and spec.shape == "conversation":
        return (
            f"metric {spec.display_name!r} judges conversations, and this rule judges each "
            'call on its own; set `target: "conversation"` or use a single-turn metric'
        )
    return None


def regex_problem(pattern: str) -> str | None:
    """Why `pattern` is no RE2 expression (linear time: no backreferences or lookaround)."""
    try:
        re2.compile(pattern, _RE2)
    except re2.error as error:
        # RE2 gives its reason as bytes.
        reason = error.args[0] if error.args else ""
        if isinstance(reason, bytes):
            reason = reason.decode("utf-8", "replace")
        return (
            f"not a regular expression RE2 runs ({reason}); RE2 has no backreferences or lookaround"
        )
    return None


def body_problems(
    session: Session,
    tenant: Tenant,
    settings: Settings,
    body: Mapping[str, Any],
    own_endpoint: str | None = None,
) -> list[FieldError]:
    """What a rule body that failed its schema still gets checked for (`own_endpoint`: the
    endpoint a change keeps when it gives none)."""
    conditions = [valid(_condition, raw)[0] for raw in items(body.get("filter"))]
    metrics = [valid(_metric, raw)[0] for raw in items(body.get("metrics"))]
    judge, judge_known = valid(_judge, body.get("judge"))
    target = body.get("target") if isinstance(body.get("target"), str) else None
    endpoint = body.get("export_endpoint")
    own = body.get("export_endpoint", own_endpoint)
    return problems(
        session,
        tenant.id,
        settings,
        conditions,
        metrics,
        judge,
        target,
        judge_known,
        export_endpoint=endpoint if isinstance(endpoint, str) else None,
        alert=body.get("alert") if isinstance(body.get("alert"), Mapping) else None,
        # Metrics that are null or not a list are the schema's to name: no alert is checked
        # against them.
        metrics_known=isinstance(body.get("metrics"), list),
        headers=body.get("export_headers"),
        own_endpoint=bool(own),
    )


def update_body_problems(
    session: Session, tenant: Tenant, settings: Settings, body: Mapping[str, Any], rule_id: str
) -> list[FieldError]:
    """What a change that failed its schema still gets checked for: as a new rule's body, and
    an alert's metric against the rule's metrics when the change keeps them."""
    rule = OnlineRuleRepository(session, tenant.id).get_by_id(rule_id)
    if rule is not None and "target" not in body:
        # The metrics given are checked against the target the rule keeps.
        body = {**body, "target": rule.target}
    kept = rule.export_endpoint if rule is not None else None
    errors = body_problems(session, tenant, settings, body, kept)
    if rule is not None and "export_endpoint" in body and isinstance(body["export_endpoint"], str):
        endpoint = body["export_endpoint"].rstrip("/")
        errors += export_headers.moved_problems(rule, endpoint, "export_headers" in body)
    alert = body.get("alert")
    metrics = body.get("metrics")
    # `"metrics": null` is refused and the rule keeps its own: the alert is checked on those.
    if metrics is not None or not isinstance(alert, Mapping) or rule is None:
        return errors
    names = [_metric.validate_python(spec).display_name for spec in rule.metrics]
    return errors + alerts.problems(session, tenant.id, {"metric": alert.get("metric")}, names)
