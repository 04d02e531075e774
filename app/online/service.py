"""Online rule decisions: check a rule whole (one 422 naming every field at fault), store it,
change it, and show it with its counts."""

from collections.abc import Mapping
from typing import Any

import re2
from pydantic import TypeAdapter
from sqlalchemy.orm import Session

from app import audit
from app.api.salvage import items, valid
from app.config import Settings
from app.db import utcnow
from app.evaluations import admission, judging, read_model
from app.evaluations.checks import Findings
from app.evaluations.repository import EvaluationRepository
from app.evaluations.schemas import JudgeConfig
from app.ids import new_id
from app.metrics import MetricSpec, MetricSpecBase
from app.models import OnlineRule, Tenant
from app.online import alerts
from app.online.repository import OnlineRuleRepository
from app.online.schemas import (
    Condition,
    OnlineResult,
    OnlineRuleCreate,
    OnlineRuleUpdate,
    RuleCounts,
    Sampling,
)
from app.online.schemas import OnlineRule as OnlineRuleSchema
from app.outbox import outbox
from app.problems import FieldError, ProblemError, invalid_request
from app.telemetry.metrics import forget_online_rule
from app.webhooks.service import url_problems

# What a traced call gives a metric: its messages in and out and the trace's retrieved
# documents; nothing holds a reference answer or a golden context.
CALL_FIELDS = frozenset({"input", "actual_output", "retrieval_context"})
COUNTERS = ("received", "matched", "sampled", "sent", "judged", "errored", "backfilled")
SKIPPED = "skipped:"

_metric: TypeAdapter[MetricSpecBase] = TypeAdapter(MetricSpec)
_condition = TypeAdapter(Condition)
_judge = TypeAdapter(JudgeConfig | None)
_RE2 = re2.Options()
_RE2.log_errors = False


def create(
    session: Session, tenant: Tenant, payload: OnlineRuleCreate, settings: Settings
) -> OnlineRule:
    """Store a rule once every part of it checks out (else one 422 naming each problem)."""
    metrics = list(payload.metrics)
    _raise_if(
        problems(
            session,
            tenant.id,
            settings,
            payload.filter,
            metrics,
            payload.judge,
            payload.target,
            export_endpoint=payload.export_endpoint,
            alert=alerts.stored(payload.alert),
        )
    )
    rule = OnlineRule(
        id=new_id("rule"),
        tenant_id=tenant.id,
        name=payload.name,
        filter=[c.model_dump() for c in payload.filter],
        sampling_rate=payload.sampling.rate,
        metrics=[spec.model_dump(mode="json", exclude_none=True) for spec in metrics],
        judge=payload.judge.model_dump(exclude_none=True) if payload.judge else None,
        target=payload.target,
        daily_usd=payload.daily_usd,
        enabled=payload.enabled,
        export_endpoint=payload.export_endpoint,
        alert=alerts.stored(payload.alert),
    )
    OnlineRuleRepository(session, tenant.id).add(rule)
    audit.record(
        session,
        None,
        "online_rule.create",
        "online_rule",
        rule.id,
        tenant_id=tenant.id,
        name=rule.name,
        enabled=rule.enabled,
    )
    return rule


def update(
    session: Session,
    tenant: Tenant,
    rule: OnlineRule,
    payload: OnlineRuleUpdate,
    settings: Settings,
) -> OnlineRule:
    """Change the fields given, checked together with the ones kept."""
    given = payload.model_fields_set
    conditions = (
        payload.filter if payload.filter is not None else [Condition(**c) for c in rule.filter]
    )
    metrics = (
        list(payload.metrics)
        if payload.metrics is not None
        else [_metric.validate_python(spec) for spec in rule.metrics]
    )
    judge = payload.judge if "judge" in given else _judge.validate_python(rule.judge)
    target = payload.target or rule.target
    export_endpoint = payload.export_endpoint if "export_endpoint" in given else None
    # A new alert is checked whole; a kept one's metric against the metrics given.
    alert = alerts.stored(payload.alert) if "alert" in given else None
    if "alert" not in given and rule.alert and payload.metrics is not None:
        alert = {"metric": rule.alert["metric"]}
    _raise_if(
        problems(
            session,
            tenant.id,
            settings,
            conditions,
            metrics,
            judge,
            target,
            export_endpoint=export_endpoint,
            alert=alert,
        )
    )
    if payload.name is not None:
        rule.name = payload.name
    if payload.filter is not None:
        rule.filter = [c.model_dump() for c in payload.filter]
    if payload.sampling is not None:
        rule.sampling_rate = payload.sampling.rate
    if payload.metrics is not None:
        rule.metrics = [spec.model_dump(mode="json", exclude_none=True) for spec in metrics]
    if "judge" in given:
        rule.judge = judge.model_dump(exclude_none=True) if judge else None
    rule.target = target
    if "daily_usd" in given:
        rule.daily_usd = payload.daily_usd
    if payload.enabled is not None:
        rule.enabled = payload.enabled
    if "export_endpoint" in given:
        # Another collector: the results not yet sent go there; those sent are not sent again.
        rule.export_endpoint = payload.export_endpoint
    if "alert" in given:
        alerts.apply(rule, payload.alert)
    rule.updated_at = utcnow()
    session.flush()
    audit.record(
        session,
        None,
        "online_rule.update",
        "online_rule",
        rule.id,
        tenant_id=tenant.id,
        fields=sorted(given),
    )
    return rule


def set_enabled(session: Session, rule: OnlineRule, enabled: bool) -> OnlineRule:
    rule.enabled = enabled
    rule.updated_at = utcnow()
    session.flush()
    verb = "enable" if enabled else "disable"
    audit.record(
        session, None, f"online_rule.{verb}", "online_rule", rule.id, tenant_id=rule.tenant_id
    )
    return rule


def get_or_404(session: Session, tenant: Tenant, rule_id: str) -> OnlineRule:
    rule = OnlineRuleRepository(session, tenant.id).get_by_id(rule_id)
    if rule is None:
        raise ProblemError(404, "Not Found", f"No online rule {rule_id!r}.", slug="not-found")
    return rule


def delete(session: Session, tenant: Tenant, rule: OnlineRule) -> None:
    """Forget a rule, its counts and its days' evaluations with their results."""
    rules = OnlineRuleRepository(session, tenant.id)
    for evaluation in rules.evaluations(rule):
        EvaluationRepository(session, tenant.id, (evaluation.kind,)).delete(evaluation)
    rule_id = rule.id
    audit.record(
        session,
        None,
        "online_rule.delete",
        "online_rule",
        rule_id,
        tenant_id=tenant.id,
        name=rule.name,
    )
    rules.delete(rule)
    # Its counts go from /metrics too, once the deletion commits.
    outbox(session).add(lambda: forget_online_rule(rule_id))


def result_page(
    session: Session, tenant: Tenant, rule: OnlineRule, after: str | None, limit: int
) -> list[OnlineResult]:
    """The rule's results after the result `after`, newest first; `limit + 1` of them."""
    rows = OnlineRuleRepository(session, tenant.id).results(rule, after, limit + 1)
    return [
        OnlineResult(
            **read_model.result_to_schema(result).model_dump(),
            trace_id=(metadata or {}).get("trace_id"),
            span_id=(metadata or {}).get("span_id"),
            day=day,
            evaluation_id=result.evaluation_id,
        )
        for result, metadata, day in rows
    ]


def to_schemas(
    session: Session, tenant: Tenant, rules: list[OnlineRule], settings: Settings
) -> list[OnlineRuleSchema]:
    counts = OnlineRuleRepository(session, tenant.id).counts(rules)
    return [
        _schema(rule, counts.get(rule.id, {}), warnings(session, tenant.id, settings, rule))
        for rule in rules
    ]


def to_schema(
    session: Session, tenant: Tenant, rule: OnlineRule, settings: Settings
) -> OnlineRuleSchema:
    return to_schemas(session, tenant, [rule], settings)[0]


def warnings(session: Session, tenant_id: str, settings: Settings, rule: OnlineRule) -> list[str]:
    """What the rule asks that Loupe cannot do as asked: a `daily_usd` its judges' calls are
    not counted against (a judge model without a price costs nothing known)."""
    if rule.daily_usd is None:
        return []
    specs: list[MetricSpecBase | None] = [_metric.validate_python(s) for s in rule.metrics]
    record, _ = judging.resolve(
        session,
        tenant_id,
        settings,
        specs,
        _judge.validate_python(rule.judge),
        judge_path=["judge"],
        metric_path=["metrics"],
    )
    models: list[str] = []
    for chosen in ((record or {}).get("metrics") or {}).values():
        for member in chosen.get("panel") or [chosen]:
            model = member.get("model")
            if model and model not in models:
                models.append(model)
    unpriced = [model for model in models if model not in settings.model_prices]
    if not unpriced:
        return []
    named = ", ".join(repr(model) for model in unpriced)
    return [
        f"daily_usd is not enforced: the judge model{'s' if len(unpriced) > 1 else ''} "
        f"{named} {'have' if len(unpriced) > 1 else 'has'} no price in LOUPE_MODEL_PRICES, so "
        "its calls cost nothing known"
    ]


def _schema(rule: OnlineRule, counts: dict[str, int], warned: list[str]) -> OnlineRuleSchema:
    return OnlineRuleSchema(
        id=rule.id,
        name=rule.name,
        filter=[Condition(**c) for c in rule.filter],
        sampling=Sampling(rate=rule.sampling_rate),
        metrics=rule.metrics,
        judge=_judge.validate_python(rule.judge),
        target=rule.target,  # type: ignore[arg-type]
        daily_usd=rule.daily_usd,
        enabled=rule.enabled,
        export_endpoint=rule.export_endpoint,
        alert=alerts.to_schema(rule),
        counts=RuleCounts(
            **{name: counts.get(name, 0) for name in COUNTERS},
            skipped={
                name.removeprefix(SKIPPED): n
                for name, n in sorted(counts.items())
                if name.startswith(SKIPPED)
            },
        ),
        warnings=warned,
        created_at=rule.created_at,
        updated_at=rule.updated_at,
    )


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
) -> list[FieldError]:
    """Everything wrong with a rule the schema could not see, in one list (`metrics_known`
    False: the body's metrics are not the rule's, so the alert's metric is not checked)."""
    findings = Findings()
    if export_endpoint:
        # A tenant's collector is reached from Loupe's network: the webhook address policy.
        findings.extend(
            url_problems({"export_endpoint": export_endpoint}, "export_endpoint", settings)
        )
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
        missing = sorted(set(spec.required_test_case_fields()) - CALL_FIELDS)
        if missing:
            findings.add(
                ["metrics", index],
                f"metric {spec.display_name!r} needs {', '.join(missing)}, which a traced call "
                "does not have (it gives input, actual_output and retrieval_context)",
                "unfit_for_online",
            )
    names = [spec.display_name for spec in metrics if spec is not None]
    known = metrics_known and len(names) == len(metrics)
    findings.extend(alerts.problems(session, tenant_id, alert, names if known else None))
    if target == "conversation":
        findings.add(
            ["target"],
            "conversation targets are not available yet: judge each call with `span`",
            "not_available",
        )
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
    session: Session, tenant: Tenant, settings: Settings, body: Mapping[str, Any]
) -> list[FieldError]:
    """What a rule body that failed its schema still gets checked for."""
    conditions = [valid(_condition, raw)[0] for raw in items(body.get("filter"))]
    metrics = [valid(_metric, raw)[0] for raw in items(body.get("metrics"))]
    judge, judge_known = valid(_judge, body.get("judge"))
    target = body.get("target") if isinstance(body.get("target"), str) else None
    endpoint = body.get("export_endpoint")
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
        metrics_known="metrics" in body,
    )


def update_body_problems(
    session: Session, tenant: Tenant, settings: Settings, body: Mapping[str, Any], rule_id: str
) -> list[FieldError]:
    """What a change that failed its schema still gets checked for: as a new rule's body, and
    an alert's metric against the rule's metrics when the change keeps them."""
    errors = body_problems(session, tenant, settings, body)
    alert = body.get("alert")
    if "metrics" in body or not isinstance(alert, Mapping):
        return errors
    rule = OnlineRuleRepository(session, tenant.id).get_by_id(rule_id)
    if rule is None:
        return errors
    names = [_metric.validate_python(spec).display_name for spec in rule.metrics]
    return errors + alerts.problems(session, tenant.id, {"metric": alert.get("metric")}, names)


def _raise_if(errors: list[FieldError]) -> None:
    if errors:
        raise invalid_request(errors)
