"""Online rule decisions: check a rule whole (one 422 naming every field at fault), store it,
change it, and show it with its counts."""

from pydantic import TypeAdapter
from sqlalchemy.orm import Session

from app import audit
from app.config import Settings
from app.db import utcnow
from app.evaluations import calibration, judging, lifecycle_service, read_model
from app.evaluations.schemas import JudgeConfig
from app.ids import new_id
from app.metrics import MetricSpec, MetricSpecBase
from app.models import OnlineRule, Tenant
from app.online import alerts, checks, export_headers
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
from app.problems import FieldError, invalid_request, not_found
from app.runtime import Runtime
from app.telemetry.metrics import forget_online_rule

COUNTERS = ("received", "matched", "sampled", "sent", "judged", "errored", "backfilled")
SKIPPED = "skipped:"
DROPPED = "dropped:"

_metric: TypeAdapter[MetricSpecBase] = TypeAdapter(MetricSpec)
_judge = TypeAdapter(JudgeConfig | None)


def create(
    session: Session, tenant: Tenant, payload: OnlineRuleCreate, settings: Settings
) -> OnlineRule:
    """Store a rule once every part of it checks out (else one 422 naming each problem)."""
    metrics = list(payload.metrics)
    _raise_if(
        checks.problems(
            session,
            tenant.id,
            settings,
            payload.filter,
            metrics,
            payload.judge,
            payload.target,
            export_endpoint=payload.export_endpoint,
            alert=alerts.stored(payload.alert),
            headers=payload.export_headers,
            own_endpoint=bool(payload.export_endpoint),
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
    export_headers.seal(rule, settings, payload.export_headers)
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
        export_header_names=export_headers.names(rule),
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
    endpoint_after = export_endpoint if "export_endpoint" in given else rule.export_endpoint
    # A new alert is checked whole; a kept one's metric against the metrics given.
    alert = alerts.stored(payload.alert) if "alert" in given else None
    if "alert" not in given and rule.alert and payload.metrics is not None:
        alert = {"metric": rule.alert["metric"]}
    _raise_if(
        checks.problems(
            session,
            tenant.id,
            settings,
            conditions,
            metrics,
            judge,
            target,
            export_endpoint=export_endpoint,
            alert=alert,
            headers=payload.export_headers,
            own_endpoint=bool(endpoint_after),
        )
        + export_headers.moved_problems(rule, export_endpoint, "export_headers" in given)
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
    if "export_headers" in given or not rule.export_endpoint:
        # Replaced whole (values are never shown, so never merged); gone with the endpoint.
        export_headers.seal(rule, settings, payload.export_headers)
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
        **(
            {"export_header_names": export_headers.names(rule)}
            if given & {"export_headers", "export_endpoint"}
            else {}
        ),
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
        raise not_found(f"No online rule {rule_id!r}.")
    return rule


def delete(session: Session, runtime: Runtime, tenant: Tenant, rule: OnlineRule) -> None:
    """Forget a rule, its counts and its days' evaluations with their results; each day goes
    as any evaluation's delete does (its images collected, logged and counted)."""
    rules = OnlineRuleRepository(session, tenant.id)
    for evaluation in rules.evaluations(rule):
        lifecycle_service.delete(session, runtime, evaluation, with_owner=True)
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
    checked = calibration.agreement_of(session, tenant.id, [result for result, _, _ in rows])
    return [
        OnlineResult(
            **read_model.result_to_schema(result)
            .model_copy(update={"agreement": checked.get(result.metric_version or "")})
            .model_dump(),
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
    """What the rule asks that Loupe cannot do as asked: export headers this server cannot
    decrypt, a `daily_usd` its judges' calls are not counted against (a judge model without a
    price costs nothing known)."""
    unreadable = export_headers.unreadable_warning(rule, settings)
    return ([unreadable] if unreadable else []) + _budget_warnings(
        session, tenant_id, settings, rule
    )


def _budget_warnings(
    session: Session, tenant_id: str, settings: Settings, rule: OnlineRule
) -> list[str]:
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
        export_header_names=export_headers.names(rule),
        alert=alerts.to_schema(rule),
        counts=RuleCounts(
            **{name: counts.get(name, 0) for name in COUNTERS},
            skipped={
                name.removeprefix(SKIPPED): n
                for name, n in sorted(counts.items())
                if name.startswith(SKIPPED)
            },
            dropped={
                name.removeprefix(DROPPED): n
                for name, n in sorted(counts.items())
                if name.startswith(DROPPED)
            },
        ),
        warnings=warned,
        created_at=rule.created_at,
        updated_at=rule.updated_at,
    )


def _raise_if(errors: list[FieldError]) -> None:
    if errors:
        raise invalid_request(errors)
